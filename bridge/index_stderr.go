package bridge

import (
	"errors"

	"github.com/capbridge/capbridge/bridge/upstream"
)

// stderrNote ends the progress line of a server that failed with the last
// of its stderr: the model never reads it (upstream_error gives the short
// reason), but the person running capbridge index needs it.
func stderrNote(err error) string {
	var ue *upstream.Error
	if !errors.As(err, &ue) || ue.StderrTail == "" {
		return ""
	}
	return "; stderr: " + ue.StderrNote(300)
}
