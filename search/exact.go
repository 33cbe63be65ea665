package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/capbridge/capbridge/store"
)

// maxNamedTokens bounds the name lookups one intent may cost.
const maxNamedTokens = 4

// exactTools returns the in-scope tools the intent names exactly, in the
// order it names them: a token `server/tool`, a token equal to a tool's
// name that looks like an identifier (it has a separator or a camelCase
// hump, so plain words such as "search" do not count), or the whole intent
// when it is one token. Names compare case-insensitively.
func (s *Searcher) exactTools(ctx context.Context, intent string, allowed func(server, tool string) bool) ([]store.Tool, error) {
	tokens := namedTokens(intent)
	var out []store.Tool
	seen := make(map[int64]bool)
	add := func(t store.Tool) {
		if !seen[t.ID] && t.Refusal == "" && (allowed == nil || allowed(t.Server, t.Name)) {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	for _, tok := range tokens {
		if server, name, ok := strings.Cut(tok, "/"); ok && server != "" && name != "" {
			t, err := s.st.Tool(ctx, server, name)
			switch {
			case err == nil:
				add(*t)
				continue
			case !errors.Is(err, store.ErrNotFound):
				return nil, fmt.Errorf("looking up named tool %q: %w", tok, err)
			}
		}
		ts, err := s.toolsNamed(ctx, tok)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			add(t)
		}
	}
	return out, nil
}

// toolsNamed finds the tools of any server whose name is name: a phrase
// query on the name column narrows the rows, the names decide.
func (s *Searcher) toolsNamed(ctx context.Context, name string) ([]store.Tool, error) {
	expr := namePhrase(name)
	if expr == "" {
		return nil, nil
	}
	hits, err := s.st.MatchWords(ctx, expr, s.columns, 16)
	if err != nil {
		return nil, fmt.Errorf("looking up tools named %q: %w", name, err)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	tools, err := s.st.ToolDocs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("looking up tools named %q: %w", name, err)
	}
	var out []store.Tool
	for _, t := range tools {
		if strings.EqualFold(t.Name, name) {
			out = append(out, t)
		}
	}
	return out, nil
}

// namedTokens returns the tokens of intent that may name a tool: the whole
// intent when it is one token, else identifier-like tokens, at most
// maxNamedTokens of them. Surrounding quotes, backticks and punctuation
// are trimmed.
func namedTokens(intent string) []string {
	fields := strings.Fields(intent)
	var out []string
	for _, f := range fields {
		tok := strings.TrimFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
		})
		if tok == "" || (len(fields) > 1 && !identifierLike(tok)) {
			continue
		}
		out = append(out, tok)
		if len(out) == maxNamedTokens {
			break
		}
	}
	return out
}

// identifierLike reports whether tok reads as a code identifier rather
// than a word: it holds _ . - / or a lower-to-upper hump.
func identifierLike(tok string) bool {
	if strings.ContainsAny(tok, "_.-/") {
		return true
	}
	var prev rune
	for _, r := range tok {
		if unicode.IsLower(prev) && unicode.IsUpper(r) {
			return true
		}
		prev = r
	}
	return false
}
