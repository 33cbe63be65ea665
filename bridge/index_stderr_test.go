package bridge

import (
	"errors"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/bridge/upstream"
)

// TestStderrTailStaysWithPeople: the stderr tail of a failed server is not
// in the error the model reads, but the progress line of capbridge index
// shows it.
func TestStderrTailStaysWithPeople(t *testing.T) {
	err := &upstream.Error{Server: "files", Op: "start", Err: errors.New("initializing: server exited before answering (exit status 1)"),
		StderrTail: "Downloading...\nnpm ERR! 404 @acme/server-files"}
	if strings.Contains(err.Error(), "npm ERR") {
		t.Errorf("Error() carries the stderr tail: %s", err)
	}
	line := IndexResult{Server: "files", Err: err}.String()
	if !strings.Contains(line, "exit status 1); stderr: Downloading... | npm ERR! 404 @acme/server-files") {
		t.Errorf("progress line %q lacks the stderr tail", line)
	}
}
