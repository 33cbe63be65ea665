package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

func TestQuotedSpans(t *testing.T) {
	tests := []struct {
		name, desc, rest string
		quoted           []string
	}{
		{"none", "Reads a file.", "Reads a file.", nil},
		{"a label", `Fill username, password, and check "Remember Me" in one call.`,
			`Fill username, password, and check "" in one call.`, []string{"Remember Me"}},
		{"tool names in single quotes", "Prefer this over 'fill' or 'click' calls.",
			`Prefer this over "" or "" calls.`, []string{"fill", "click"}},
		{"code span", "Pass `owner/repo` as the repository.", `Pass "" as the repository.`, []string{"owner/repo"}},
		{"apostrophes are not quotes", "Don't use it for the user's files.", "Don't use it for the user's files.", nil},
		{"a long quotation stays", `Says "create a new ticket for the customer" to the desk.`,
			`Says "create a new ticket for the customer" to the desk.`, nil},
		{"an unclosed quote stays", `Reads the "current file and more`, `Reads the "current file and more`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rest, quoted := quotedSpans(tt.desc)
			if rest != tt.rest || !slices.Equal(quoted, tt.quoted) {
				t.Errorf("quotedSpans(%q) = %q, %q; want %q, %q", tt.desc, rest, quoted, tt.rest, tt.quoted)
			}
		})
	}
}

// TestDocumentRepeatedSentences: a sentence most tools of a server repeat
// leaves the description column for the parameter descriptions' lower
// weight; a tool normalized alone keeps its description whole.
func TestDocumentRepeatedSentences(t *testing.T) {
	const shared = "Acme - Api: This is the public Acme REST API."
	var raws []json.RawMessage
	for _, what := range []string{"Create a call", "Delete a queue", "Fetch a recording", "List the numbers"} {
		raws = append(raws, json.RawMessage(fmt.Sprintf(`{"name":%q,"description":%q,"inputSchema":{"type":"object"}}`,
			strings.ReplaceAll(what, " ", "_"), shared+" "+what+".")))
	}
	var docs []store.Doc
	schema.NormalizeCatalog("acme", raws, nil, func(_ int, tool *schema.Tool) { docs = append(docs, Document(tool)) })
	if len(docs) != len(raws) {
		t.Fatalf("%d documents from %d tools", len(docs), len(raws))
	}
	for _, d := range docs {
		if strings.Contains(d.Desc, "REST") || !strings.Contains(d.ParamDescs, shared) {
			t.Errorf("desc %q, param descs %q: want the shared sentence in the second only", d.Desc, d.ParamDescs)
		}
	}
	var alone []store.Doc
	schema.NormalizeCatalog("acme", raws[:1], nil, func(_ int, tool *schema.Tool) { alone = append(alone, Document(tool)) })
	if len(alone) != 1 || !strings.Contains(alone[0].Desc, shared) {
		t.Errorf("alone: %+v, want the description whole", alone)
	}
}
