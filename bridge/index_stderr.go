package bridge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/capbridge/capbridge/bridge/upstream"
)

// stderrSep joins a failure's reason and its stderr line in what a person
// reads about a server that failed, and in the last error stored for it.
const stderrSep = "; stderr: "

// maxStderrLine bounds the stderr line kept with a failure.
const maxStderrLine = 300

// stderrNote ends what a person reads about a server that failed (the
// progress line of capbridge index, the last error capbridge servers
// shows) with the line of its stderr that says what went wrong
// ([upstream.TellingLine]), not merely its last: the model never reads it
// (upstream_error gives the short reason), but people need it.
func stderrNote(err error) string {
	var ue *upstream.Error
	if !errors.As(err, &ue) || ue.StderrTail == "" {
		return ""
	}
	line, _ := upstream.TellingLine(ue.StderrTail)
	if line == "" {
		return ""
	}
	return stderrSep + cutRunes(line, maxStderrLine)
}

// lastReason is the reason of a server's stored last error without the
// stderr line and without the `upstream "NAME": ` it starts with: what a
// discovery may tell the model.
func lastReason(server, lastError string) string {
	reason, _, _ := strings.Cut(lastError, stderrSep)
	return strings.TrimPrefix(reason, fmt.Sprintf("upstream %q: ", server))
}

// TellingError is the part of a server's stored last error that says most
// plainly what went wrong, for a table a person reads: the line of its
// stderr when that line carries an error marker ("npm error 404 Not Found -
// GET ..."), else the reason without the `upstream "NAME": ` it starts with.
func TellingError(server, lastError string) string {
	_, line, ok := strings.Cut(lastError, stderrSep)
	if ok {
		if _, marked := upstream.TellingLine(line); marked {
			return line
		}
	}
	return lastReason(server, lastError)
}
