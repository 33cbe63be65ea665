package bridge

import (
	"errors"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUpstreamFailureRedacts checks that an upstream_error answer is
// scrubbed of the server's secrets, that the marker
// survives the sanitizing every message gets (Markdown stripping once ate
// "***" down to "*"), that short values are left alone, and that the
// redactions are counted.
func TestUpstreamFailureRedacts(t *testing.T) {
	const secret = "sk-live-12345678"
	tests := []struct {
		name  string
		err   error
		cfg   []string
		want  string
		count int
	}{
		{"an upstream error", &upstream.Error{Server: "remote", Op: "call",
			Err: errors.New(`Post "http://h/mcp?key=` + secret + `": connection refused`)}, []string{secret},
			`upstream "remote": call: Post "http://h/mcp?key=[redacted]": connection refused`, 1},
		{"the server's secrets, on any error", errors.New("token " + secret + " rejected"), []string{secret},
			`server "remote" failed: token [redacted] rejected`, 1},
		{"short values stay", errors.New("mode noinit rejected"), []string{"noinit"},
			`server "remote" failed: mode noinit rejected`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, n := upstreamFailure("remote", tt.err, tt.cfg)
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(text, jsonString(tt.want)) || n != tt.count {
				t.Errorf("answer %s (%d redactions), want message %q (%d)", text, n, tt.want, tt.count)
			}
			if strings.Contains(text, secret) {
				t.Errorf("answer leaks the secret: %s", text)
			}
		})
	}
}

// jsonString is s as it reads inside a JSON string.
func jsonString(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
