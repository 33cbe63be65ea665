package bridge

import (
	"errors"

	"github.com/capbridge/capbridge/bridge/upstream"
)

// stderrNote ends what a person reads about a server that failed (the
// progress line of capbridge index, the last error capbridge servers
// shows) with the last of its stderr: the model never reads it
// (upstream_error gives the short reason), but people need it.
func stderrNote(err error) string {
	var ue *upstream.Error
	if !errors.As(err, &ue) || ue.StderrTail == "" {
		return ""
	}
	return "; stderr: " + ue.StderrNote(300)
}
