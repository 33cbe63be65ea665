package bridge

import (
	"errors"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/bridge/upstream"
)

// TestStderrLineStaysWithPeople: the stderr of a failed server is not in
// the error the model reads, but the progress line of capbridge index shows
// the line of it that says what went wrong.
func TestStderrLineStaysWithPeople(t *testing.T) {
	err := &upstream.Error{Server: "files", Op: "start", Err: errors.New("initializing: server exited before answering (exit status 1)"),
		StderrTail: "Downloading...\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fserver-files\nnpm ERR! A complete log of this run can be found in: /tmp/x.log"}
	if strings.Contains(err.Error(), "npm ERR") {
		t.Errorf("Error() carries the stderr: %s", err)
	}
	line := IndexResult{Server: "files", Err: err}.String()
	if !strings.HasSuffix(line, "exit status 1); stderr: npm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fserver-files") {
		t.Errorf("progress line %q does not end with the 404 line", line)
	}
}

// TestTellingError: the servers table shows a stored error's stderr line
// when it carries an error marker, else its reason; a discovery gets the
// reason only, without the upstream prefix.
func TestTellingError(t *testing.T) {
	const reason = `upstream "files": start: initializing: server exited before answering (exit status 1)`
	tests := []struct{ stored, table, model string }{
		{reason + "; stderr: npm error 404 Not Found - GET https://registry.npmjs.org/x",
			"npm error 404 Not Found - GET https://registry.npmjs.org/x", "start: initializing: server exited before answering (exit status 1)"},
		{reason + "; stderr: Listening on stdio", "start: initializing: server exited before answering (exit status 1)",
			"start: initializing: server exited before answering (exit status 1)"},
		{`upstream "files": start: no answer to initialize within 5s`, "start: no answer to initialize within 5s", "start: no answer to initialize within 5s"},
		{"config entry: needs \"command\"", "config entry: needs \"command\"", "config entry: needs \"command\""},
	}
	for _, tt := range tests {
		if got := TellingError("files", tt.stored); got != tt.table {
			t.Errorf("TellingError(%q) = %q, want %q", tt.stored, got, tt.table)
		}
		if got := lastReason("files", tt.stored); got != tt.model {
			t.Errorf("lastReason(%q) = %q, want %q", tt.stored, got, tt.model)
		}
	}
}
