package output

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzShape shapes arbitrary text content under arbitrary masks and
// ceilings: it must never panic, every page must stay under the ceiling,
// the pages must reassemble the whole, text that is not JSON must pass
// through unchanged but for the escapes of guardText, and JSON must not grow past its compact form. Seeds live in testdata/fuzz/FuzzShape.
func FuzzShape(f *testing.F) {
	f.Add(`[{"id":1,"title":"a|b","_id":"x"},{"id":2,"title":"c\nd"}]`, "title,user.login", uint16(20))
	f.Add(`{"total":2,"items":[{"id":1},{"id":2}]}`, "", uint16(1))
	f.Add("plain text\nwith lines", "", uint16(3))
	f.Fuzz(func(t *testing.T, content, masks string, maxTokens uint16) {
		opts := &Options{MaxTokens: int(maxTokens % 2048)}
		if masks != "" {
			opts.Fields = strings.Split(masks, ",")
		}
		sh, err := Shape(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: content}}}, opts)
		if err != nil {
			t.Fatalf("Shape: %v", err)
		}
		ceiling := sh.MaxTokens
		bodies := followCursors(t, "fuzz", sh, NewPager(nil))
		for i, body := range bodies {
			if got := EstimateTokens(body); got > ceiling {
				t.Fatalf("page %d holds %d estimated tokens, over %d:\n%s", i+1, got, ceiling, body)
			}
		}
		whole := sh.Text()
		if got := reassemble(sh, bodies); got != whole {
			t.Fatalf("pages do not reassemble the whole\ngot:\n%q\nwant:\n%q", got, whole)
		}
		v, isJSON := parseJSONText(content)
		if !isJSON {
			if whole != guardText(content, false) {
				t.Fatalf("text that is not JSON changed:\n%q\n%q", content, whole)
			}
			return
		}
		s, err := resolve(opts)
		if err != nil {
			t.Fatal(err)
		}
		if !s.maskMatches(v) {
			return // the answer is the note that no field matched, not a projection
		}
		if limit := len(compactJSON(s.project(v))); sh.BytesOut > limit {
			t.Fatalf("shaped %d bytes, more than the %d of compact JSON", sh.BytesOut, limit)
		}
	})
}
