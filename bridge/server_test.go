package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// actionIDs matches issued action ids, which are random: golden files hold a
// placeholder.
var actionIDs = regexp.MustCompile(fmt.Sprintf(`act_[A-Za-z0-9_-]{%d}`, handleChars))

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = actionIDs.ReplaceAll(got, []byte("act_<id>"))
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update after checking):\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// answerText returns the one TextContent of a bridge answer, failing the
// test if the answer has any other shape.
func answerText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("answer has %d contents, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("answer content is %T, want *mcp.TextContent", res.Content[0])
	}
	if res.StructuredContent != nil {
		t.Fatalf("answer carries structuredContent %v; the design says text only", res.StructuredContent)
	}
	if !json.Valid([]byte(tc.Text)) {
		t.Fatalf("answer text is not JSON: %s", tc.Text)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(tc.Text)); err != nil || compact.String() != tc.Text {
		t.Fatalf("answer text is not compact JSON: %s", tc.Text)
	}
	return tc.Text
}

// openStore opens a fresh catalog in a temporary directory.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "catalog.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// connect starts b's server on an in-memory transport and returns a real
// client session on the other end.
func connectClient(t *testing.T, b *Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := b.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newBridge(t *testing.T, cfg *config.File, opts *Options) *Server {
	t.Helper()
	b, err := New(cfg, openStore(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestToolsListBytes measures the definitions as a real client receives
// them: the compact JSON of the tools array must stay under 4,000 bytes.
func TestToolsListBytes(t *testing.T) {
	cs := connectClient(t, newBridge(t, nil, nil))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 || res.Tools[0].Name != DiscoverTool || res.Tools[1].Name != RunTool {
		t.Fatalf("tools/list: %d tools, want %s and %s", len(res.Tools), DiscoverTool, RunTool)
	}
	got, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	// The design's bound is 4,000 bytes; the descriptions are held to
	// 2,500 so that room is left for what clients add around them.
	const budget = 2500
	t.Logf("tools/list tools array: %d bytes (budget %d)", len(got), budget)
	if len(got) >= budget {
		t.Fatalf("tools/list tools array is %d bytes, budget %d", len(got), budget)
	}
	defs, err := json.Marshal(Definitions())
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != len(got) {
		t.Errorf("Definitions() is %d bytes, tools/list sends %d: they must be the same", len(defs), len(got))
	}
	var indented bytes.Buffer
	json.Indent(&indented, defs, "", "  ")
	golden(t, "definitions.json", append(indented.Bytes(), '\n'))
}

func TestDecodeExact(t *testing.T) {
	known := map[string]bool{"intent": true, "limit": true}
	tests := []struct {
		name, raw string
		wantErrs  []fieldError
	}{
		{"ok", `{"intent":"x","limit":2}`, nil},
		{"empty", ``, nil},
		{"null", `null`, nil},
		{"case differs", `{"Intent":"x"}`, []fieldError{{"/Intent", "unknown argument"}}},
		{"unknown keys sorted", `{"z":1,"a/b":2}`, []fieldError{{"/a~1b", "unknown argument"}, {"/z", "unknown argument"}}},
		{"wrong type", `{"intent":3}`, []fieldError{{"/intent", "must be a string"}}},
		{"not an object", `[1]`, []fieldError{{"", "arguments must be a JSON object"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args discoverArgs
			got := decodeExact(json.RawMessage(tt.raw), &args, known)
			if len(got) != len(tt.wantErrs) {
				t.Fatalf("errors %v, want %v", got, tt.wantErrs)
			}
			for i := range got {
				if got[i] != tt.wantErrs[i] {
					t.Fatalf("error %d: %v, want %v", i, got[i], tt.wantErrs[i])
				}
			}
		})
	}
}
