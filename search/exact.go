package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/capbridge/capbridge/store"
)

// maxNamedTokens bounds the name lookups one intent may cost.
const maxNamedTokens = 4

// maxNameWords bounds the words of an intent read as a whole tool name:
// the longest names of the real catalogs have about ten.
const maxNameWords = 12

// exactTools returns the in-scope tools the intent names exactly, in the
// order it names them: a token `server/tool`; a token that looks like an
// identifier (it has a separator or a camelCase hump, so plain words such
// as "search" do not count) and is a tool's name, or else has its words;
// or the whole intent when it is a tool's name or has its words
// ("calculate bmi", "calculateBmi", "calculate-BMI" all name
// calculate_bmi). A hyphenated word inside a sentence ("t-test",
// "car-rental") is English more often than a name: it names only a tool
// of that very name. See toolsNamed for the order of the tools one
// token names.
func (s *Searcher) exactTools(ctx context.Context, intent string, allowed func(server, tool string) bool) ([]store.Tool, error) {
	var out []store.Tool
	seen := make(map[int64]bool)
	add := func(t store.Tool) {
		if !seen[t.ID] && t.Refusal == "" && (allowed == nil || allowed(t.Server, t.Name)) {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	for _, n := range namings(intent) {
		if server, name, ok := strings.Cut(n.written, "/"); ok && server != "" && name != "" {
			t, err := s.st.Tool(ctx, server, name)
			switch {
			case err == nil:
				add(*t)
				continue
			case !errors.Is(err, store.ErrNotFound):
				return nil, fmt.Errorf("looking up named tool %q: %w", n.written, err)
			}
		}
		ts, err := s.toolsNamed(ctx, n)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			add(t)
		}
	}
	return out, nil
}

// naming is a piece of an intent that may name a tool.
type naming struct {
	written string
	// byWords: the piece names a tool whose name words it holds, however
	// either is written, when no tool has the name as written.
	byWords bool
}

// namings returns what of intent may name a tool: its identifier-like
// tokens (see namedTokens), then the whole intent when it has several
// fields and at most maxNameWords words.
func namings(intent string) []naming {
	var out []naming
	fields := len(strings.Fields(intent))
	for _, tok := range namedTokens(intent) {
		out = append(out, naming{written: tok, byWords: fields == 1 || !hyphenated(tok)})
	}
	text := readValues(intent).text
	if n := len(words(text)); fields > 1 && n > 1 && n <= maxNameWords {
		out = append(out, naming{written: text, byWords: true})
	}
	return out
}

// hyphenated reports whether tok's only separator is a hyphen ("t-test"):
// a compound word, when a sentence holds it.
func hyphenated(tok string) bool {
	return strings.ContainsRune(tok, '-') && !strings.ContainsAny(tok, "_./") && !hasHump(tok)
}

// maxNamedLookup bounds the rows one name lookup reads: the tools whose
// name column starts with the name's words.
const maxNamedLookup = 32

// toolsNamed finds the tools of any server that n names: those whose
// name is n.written but for case; when there are none and n.byWords, those
// whose name words (see nameWords), run together, are n's. A phrase query
// anchored at the start of the name column narrows the rows, the names
// decide. They come closest-written first (see writtenCloser):
// calculate_bmi before calculate_BMI for "calculate bmi".
func (s *Searcher) toolsNamed(ctx context.Context, n naming) ([]store.Tool, error) {
	expr := nameQuery(n.written)
	if expr == "" {
		return nil, nil
	}
	hits, err := s.st.MatchWords(ctx, expr, s.columns, maxNamedLookup)
	if err != nil {
		return nil, fmt.Errorf("looking up tools named %q: %w", n.written, err)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	tools, err := s.st.ToolDocs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("looking up tools named %q: %w", n.written, err)
	}
	var named, worded []store.Tool
	joined := strings.Join(nameWords(n.written), "")
	for _, t := range tools {
		switch {
		case strings.EqualFold(t.Name, n.written):
			named = append(named, t)
		case n.byWords && strings.Join(nameWords(t.Name), "") == joined:
			worded = append(worded, t)
		}
	}
	if len(named) == 0 {
		named = worded
	}
	slices.SortStableFunc(named, func(a, b store.Tool) int { return writtenCloser(n.written, a.Name, b.Name) })
	return named, nil
}

// digitsApart splits each of ws where letters meet digits: "events3" ->
// events 3. A name's words keep such runs whole (upload_vex1: upload vex1)
// but a camelCase intent joins what underscores kept apart
// (events3FindEvents for Events_3_FindEvents).
func digitsApart(ws []string) []string {
	var out []string
	for _, w := range ws {
		start := 0
		rs := []rune(w)
		for i := 1; i < len(rs); i++ {
			if unicode.IsDigit(rs[i]) != unicode.IsDigit(rs[i-1]) {
				out = append(out, string(rs[start:i]))
				start = i
			}
		}
		out = append(out, string(rs[start:]))
	}
	return out
}

// writtenCloser orders two names with the same words by how closely
// written spells them: the name written is first, then the one with
// fewer letters in another case (see caseMisses).
func writtenCloser(written, a, b string) int {
	if (a == written) != (b == written) {
		if a == written {
			return -1
		}
		return 1
	}
	return cmp.Compare(caseMisses(written, a), caseMisses(written, b))
}

// caseMisses counts the letters and digits of a and b, paired in order,
// that differ: for two spellings of the same words, the letters written
// in another case.
func caseMisses(a, b string) int {
	n := 0
	ra, rb := []rune(a), []rune(b)
	i, j := 0, 0
	for {
		for i < len(ra) && notAlnum(ra[i]) {
			i++
		}
		for j < len(rb) && notAlnum(rb[j]) {
			j++
		}
		if i == len(ra) || j == len(rb) {
			return n + len(ra) - i + len(rb) - j
		}
		if ra[i] != rb[j] {
			n++
		}
		i, j = i+1, j+1
	}
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
		if _, value, _ := trimToken(f); len(fields) > 1 && isValue(value) {
			continue // a path, URL, address or blob names no tool
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
	return strings.ContainsAny(tok, "_.-/") || hasHump(tok)
}

// hasHump reports whether tok has a lower-case letter followed by an
// upper-case one.
func hasHump(tok string) bool {
	var prev rune
	for _, r := range tok {
		if unicode.IsLower(prev) && unicode.IsUpper(r) {
			return true
		}
		prev = r
	}
	return false
}
