package upstream

import (
	"errors"
	"fmt"
	"log/slog"
)

// Unredacted is the error's text before the server's secrets are
// scrubbed from it, for a caller that scrubs (and counts) them itself; show
// Error's text otherwise. It names the server, the operation and a short
// reason ("initializing: server exited before answering (exit status 3)").
// The stderr tail is not part of it: what a server prints there is for the
// user's log, not for the model, which reads this text in upstream_error.
func (e *Error) Unredacted() string {
	return fmt.Sprintf("upstream %q: %s: %v", e.Server, e.Op, e.Err)
}

// StderrAttr is the log attribute carrying the end of a failed stdio
// server's stderr (already scrubbed of its secrets), or an empty attribute,
// which slog leaves out: whoever logs a failure adds it, since the error's
// text does not carry the tail.
func StderrAttr(err error) slog.Attr {
	var ue *Error
	if !errors.As(err, &ue) || ue.StderrTail == "" {
		return slog.Attr{}
	}
	return slog.String("stderr", lastLines(ue.StderrTail, 1024))
}
