package search

import (
	"slices"
	"testing"
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
