package demo

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestStdioFaults checks, byte for byte, what ServeStdio writes on stdout
// under the faults that misuse it.
func TestStdioFaults(t *testing.T) {
	isJSON := func(l string) bool { return json.Valid([]byte(l)) }
	tests := []struct {
		fault FaultMode
		// check gets every line written while answering initialize and one
		// tools/call.
		check func(t *testing.T, lines []string)
	}{
		{FaultNone, func(t *testing.T, lines []string) {
			for _, l := range lines {
				if !isJSON(l) {
					t.Errorf("non-JSON line %q", l)
				}
			}
		}},
		{FaultBanner, func(t *testing.T, lines []string) {
			if lines[0] != Banner {
				t.Errorf("first line %q, want the banner", lines[0])
			}
			for _, l := range lines[1:] {
				if !isJSON(l) {
					t.Errorf("non-JSON line after the banner: %q", l)
				}
			}
		}},
		{FaultGarbage, func(t *testing.T, lines []string) {
			for i, l := range lines {
				if isJSON(l) == (i%2 == 1) {
					t.Errorf("line %d %q: want messages and garbage in turn", i, l)
				}
			}
		}},
	}
	for _, tt := range tests {
		name := string(tt.fault)
		if name == "" {
			name = "none"
		}
		t.Run(name, func(t *testing.T) {
			p := serveRaw(t, &Options{Tools: demoTools(t), Fault: Fault{Mode: tt.fault}})
			var lines []string
			next := func() string {
				l := p.line(t)
				lines = append(lines, l)
				return l
			}
			p.send(t, rawInitialize)
			for !strings.Contains(next(), `"id":1`) {
			}
			p.send(t, rawInitialized)
			p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_ticket","arguments":{"subject":"s"}}}`)
			for !strings.Contains(next(), `"id":2`) {
			}
			if tt.fault == FaultGarbage {
				next() // the garbage after the last answer
			}
			tt.check(t, lines)
		})
	}
}

func TestStdioExitAtStart(t *testing.T) {
	var code int
	err := ServeStdio(context.Background(), io.NopCloser(strings.NewReader(rawInitialize+"\n")), io.Discard,
		&Options{Fault: Fault{Mode: FaultExitAtStart}, Exit: func(c int) { code = c }})
	if code != ExitAtStart || err == nil {
		t.Errorf("exit code %d, err %v; want %d and an error", code, err, ExitAtStart)
	}
}
