package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// RefusalError says why one tool was not indexed. Reason is a short
// sentence its author would accept, such as "input schema is 301 KiB, over
// the 256 KiB limit".
type RefusalError struct {
	Tool   string // provider tool name as sent; "" when it has none
	Reason string
}

func (e *RefusalError) Error() string {
	if e.Tool == "" {
		return "tool refused: " + e.Reason
	}
	return fmt.Sprintf("tool %q refused: %s", e.Tool, e.Reason)
}

// Refusal is one refused tool of a catalog, kept for `capbridge servers`.
type Refusal struct {
	Tool   string `json:"tool"`
	Reason string `json:"reason"`
}

// normalize turns one tool object, exactly as tools/list sends it, into its
// exact Record and its Card, with the detector's memo of one catalog (may be
// nil), the other servers of the bridge's catalog (may be nil) and the
// sentences its catalog repeats (may be nil: see repeatedSentences), which
// the card leaves out. A tool over a limit, or
// one that cannot be called safely, returns a *RefusalError. normalize
// never panics.
func normalize(server string, raw json.RawMessage, memo detectMemo, nb *Neighbours, repeated repeatedSentences) (*Tool, error) {
	if len(raw) > MaxCatalogBytes {
		return nil, &RefusalError{Tool: guessName(raw), Reason: fmt.Sprintf("tool definition is %d bytes, over the %s catalog limit", len(raw), sizeOf(MaxCatalogBytes))}
	}
	tool, err := parseTree(raw, maxTreeDepth)
	if err != nil {
		return nil, &RefusalError{Tool: guessName(raw), Reason: "tool definition " + parseReason(err)}
	}
	if tool.kind != kindObject {
		return nil, &RefusalError{Reason: "tool definition is not a JSON object"}
	}
	name := tool.get("name").str()
	if name == "" {
		return nil, &RefusalError{Reason: "tool has no name"}
	}
	if reason := NameProblem(name); reason != "" {
		return nil, &RefusalError{Tool: name, Reason: reason}
	}
	if reason := fieldProblem(tool); reason != "" {
		return nil, &RefusalError{Tool: name, Reason: reason}
	}
	input := tool.get("inputSchema")
	if input == nil || input.kind == kindNull {
		input = emptyObjectSchema()
	}
	canonical, reason := checkInputSchema(input)
	if reason != "" {
		return nil, &RefusalError{Tool: name, Reason: reason}
	}

	title, description := tool.get("title").str(), tool.get("description").str()
	scan := poison().detectTool(tool, memo)
	scan.neighbours(nb)
	cutter := newSpanCutter(scan)
	own, shared := repeated.split(description)
	kept := truncateRunes(cutter.cut(repeated.trimAsides(own)), MaxProseChars)
	s := shape{}
	if input.kind == kindObject {
		s = readShape(input)
	}
	shown, aliases := assignAliases(s.names(), cutter.flagged)
	card, cut := buildCard(server, tool, kept, input, s, shown, cutter)
	def := definition(name, title, description, canonical, tool.get("annotations"), tool.get("outputSchema"))
	rec := Record{
		Server:      server,
		Name:        name,
		Title:       title,
		Description: description,
		InputSchema: canonical,
		Raw:         tool.appendCanonical(nil),
		Hash:        Hash(def),
		Aliases:     aliases,
		Properties:  s.names(),
		ProseCut:    utf8.RuneCountInString(description) - utf8.RuneCountInString(kept) + cut,
		Flags:       flagsOf(scan.found),
	}
	if a := tool.get("annotations"); a != nil && a.kind == kindObject {
		rec.Annotations = a.appendCanonical(nil)
	}
	return &Tool{Record: rec, Card: card, Definition: def, cut: cutter, own: own, repeated: shared}, nil
}

// emptyObjectSchema stands in for a tool that sends no inputSchema: it takes
// an object with no declared inputs.
func emptyObjectSchema() *node {
	return &node{kind: kindObject, keys: []string{"type"}, vals: []*node{{kind: kindString, text: "object"}}}
}

// fieldProblem refuses tool fields of the wrong JSON type.
func fieldProblem(tool *node) string {
	if n := tool.get("title"); n != nil && n.kind != kindString && n.kind != kindNull {
		return "title is not a string"
	}
	if n := tool.get("description"); n != nil && n.kind != kindString && n.kind != kindNull {
		return "description is not a string"
	}
	if n := tool.get("annotations"); n != nil && n.kind != kindObject && n.kind != kindNull {
		return "annotations are not an object"
	}
	return ""
}

// checkInputSchema applies the per-schema limits and returns the canonical
// schema bytes, or the reason the schema is refused.
func checkInputSchema(input *node) (canonical []byte, reason string) {
	switch {
	case input.kind == kindBool && !input.truth:
		return nil, "input schema is false, so no call can ever be valid"
	case input.kind != kindObject && input.kind != kindBool:
		return nil, "input schema is not a JSON object"
	}
	canonical = input.appendCanonical(nil)
	if len(canonical) > MaxSchemaBytes {
		return nil, fmt.Sprintf("input schema is %d bytes, over the %s limit", len(canonical), sizeOf(MaxSchemaBytes))
	}
	if d := input.depth(); d > MaxSchemaDepth {
		return nil, fmt.Sprintf("input schema nests %d levels deep, over the %d limit", d, MaxSchemaDepth)
	}
	if reason := rootTypeProblem(input); reason != "" {
		return nil, reason
	}
	if err := compileCheck(canonical); err != nil {
		return nil, "input schema cannot be used for validation: " + cutWords(err.Error(), 160)
	}
	return canonical, ""
}

// rootTypeProblem refuses an object schema whose root type cannot be an
// object: MCP arguments are always a JSON object.
func rootTypeProblem(input *node) string {
	t := input.get("type")
	switch {
	case t == nil:
		return ""
	case t.kind == kindString && t.text != "object":
		return fmt.Sprintf("input schema root type is %q; MCP arguments are an object", cutWords(t.text, 20))
	case t.kind == kindArray:
		for _, v := range t.vals {
			if v.kind == kindString && v.text == "object" {
				return ""
			}
		}
		return "input schema root type does not allow an object; MCP arguments are an object"
	case t.kind != kindString:
		return "input schema root type is not a string or list"
	}
	return ""
}

// parseReason words a parse failure for a refusal.
func parseReason(err error) string {
	var pe *parseError
	switch {
	case errors.Is(err, errInvalidUTF8):
		return "is not valid UTF-8"
	case errors.Is(err, errDuplicateKey) && errors.As(err, &pe):
		return fmt.Sprintf("names a member twice (%s); JSON parsers disagree on which one counts", cutWords(pe.where, 80))
	case errors.Is(err, errTooDeep):
		return fmt.Sprintf("nests more than %d levels deep", maxTreeDepth)
	case errors.Is(err, errTrailingBytes):
		return "has data after the JSON object"
	}
	return "is not valid JSON"
}

// guessName reads the name of a tool that failed full parsing, for the
// refusal; "" when even that fails.
func guessName(raw []byte) string {
	var probe struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(raw, &probe) != nil || !utf8.ValidString(probe.Name) {
		return ""
	}
	return probe.Name
}

// sizeOf writes a byte count the way refusals quote limits.
func sizeOf(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
