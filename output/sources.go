package output

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// source is one part of a result before shaping: a content item in the
// provider's order, with the JSON it holds when it is JSON text, or the
// structuredContent.
type source struct {
	content mcp.Content // nil for structuredContent
	text    string      // the text the model would read without shaping
	value   any         // decoded JSON, when isJSON
	isJSON  bool
}

// readSources lists a result's parts: its content in order, then
// structuredContent, unless a text content carries the same data: then only
// the text is used, for it keeps the provider's key order (a client decodes
// structuredContent into a map, so its order is gone; this package then
// sorts its keys). When a member of a structuredContent object holds the
// data a JSON text content serializes (server-memory sends create_entities'
// entities as text and as {"entities": [...]}; the demo server's lists as
// an array and as {"items": [...], "count": N}), the structured form is
// kept, in the text's place, with the text's key order inside that member,
// and the text is dropped: the same data is shown once, under its name.
//
// Secrets are redacted by r first, in every part: text before it is
// parsed, then the decoded JSON (where a secret may have been escaped),
// structured content, and the text fields of media.
func readSources(res *mcp.CallToolResult, r *redactor) ([]source, error) {
	var sources []source
	for _, c := range res.Content {
		if c == nil {
			continue
		}
		src := source{content: r.content(c)}
		if isResourceText(src.content) {
			src.text = src.content.(*mcp.EmbeddedResource).Resource.Text
		}
		if text, ok := c.(*mcp.TextContent); ok {
			src.text = r.text(text.Text)
			src.value, src.isJSON = parseJSONText(src.text)
			if before := r.count; src.isJSON {
				src.value = r.value(src.value)
				if r.count > before { // a secret JSON-escaped in the text
					src.text = compactJSON(src.value)
				}
			}
		}
		sources = append(sources, src)
	}
	if res.StructuredContent == nil {
		return sources, nil
	}
	plain, err := plainJSON(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	before := r.count
	plain = r.value(plain)
	for _, src := range sources {
		if src.isJSON && sameData(src.value, plain) {
			r.count = before // shown once, and counted there
			return sources, nil
		}
	}
	if i, wrapped, ok := wrapsJSONText(plain, sources); ok {
		sources[i] = source{text: compactJSON(wrapped), value: wrapped, isJSON: true}
		return sources, nil
	}
	if wrapsTexts(plain, sources) {
		r.count = before
		return sources, nil
	}
	raw, err := json.Marshal(plain)
	if err != nil {
		return nil, fmt.Errorf("encoding structured content: %w", err)
	}
	v, err := decodeOrdered(raw)
	if err != nil {
		return nil, fmt.Errorf("reading structured content: %w", err)
	}
	return append(sources, source{text: compactJSON(v), value: v, isJSON: true}), nil
}

// wrapsJSONText finds a JSON text content whose data is a member of a
// structured object, and returns its index and the structured form with
// that member's value taken from the text (so the provider's key order
// stays there; the other members' keys are sorted).
func wrapsJSONText(plain any, sources []source) (int, object, bool) {
	p, ok := plain.(map[string]any)
	if !ok {
		return 0, nil, false
	}
	keys := slices.Sorted(maps.Keys(p))
	for _, key := range keys {
		for i, src := range sources {
			if _, text := src.content.(*mcp.TextContent); !text || !src.isJSON || !sameData(src.value, p[key]) {
				continue
			}
			out := make(object, 0, len(p))
			for _, k := range keys {
				v := any(src.value)
				if k != key {
					raw, err := json.Marshal(p[k])
					if err != nil {
						return 0, nil, false
					}
					if v, err = decodeOrdered(raw); err != nil {
						return 0, nil, false
					}
				}
				out = append(out, member{key: k, val: v})
			}
			return i, out, true
		}
	}
	return 0, nil, false
}

// wrapsTexts reports whether structured content only repeats text the
// content already carries: a string, or an object of strings, each equal
// to a text content item (server-filesystem sends a file both as text and
// as {"content": text}). Showing it again would double the result.
func wrapsTexts(plain any, sources []source) bool {
	shown := func(s string) bool {
		for _, src := range sources {
			if _, ok := src.content.(*mcp.TextContent); ok && src.text == s {
				return true
			}
		}
		return false
	}
	switch p := plain.(type) {
	case string:
		return shown(p)
	case map[string]any:
		if len(p) == 0 {
			return false
		}
		for _, v := range p {
			s, ok := v.(string)
			if !ok || !shown(s) {
				return false
			}
		}
		return true
	}
	return false
}

// parseJSONText decodes text holding one JSON object or array. A bare
// scalar ("42", "true") is left as text.
func parseJSONText(text string) (any, bool) {
	t := strings.TrimLeft(text, " \t\r\n")
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	v, err := decodeOrdered([]byte(text))
	return v, err == nil
}

// plainJSON returns v as encoding/json decodes JSON into an any: a value a
// client received already is; one built in Go (a struct, a []string) is
// marshaled and decoded.
func plainJSON(v any) (any, error) {
	if isPlain(v) {
		return v, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding structured content: %w", err)
	}
	var plain any
	if err := json.Unmarshal(raw, &plain); err != nil {
		return nil, fmt.Errorf("reading structured content: %w", err)
	}
	return plain, nil
}

func isPlain(v any) bool {
	switch v := v.(type) {
	case nil, bool, float64, string:
		return true
	case []any:
		for _, e := range v {
			if !isPlain(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range v {
			if !isPlain(e) {
				return false
			}
		}
		return true
	}
	return false
}

// sameData reports whether a decoded value (ordered objects, json.Number)
// holds the same data as a plain one (maps, float64), as encoding/json
// would compare them: key order aside, numbers by their float64 value.
func sameData(v, plain any) bool {
	switch v := v.(type) {
	case nil:
		return plain == nil
	case bool:
		p, ok := plain.(bool)
		return ok && p == v
	case string:
		p, ok := plain.(string)
		return ok && p == v
	case json.Number:
		p, ok := plain.(float64)
		f, err := v.Float64()
		return ok && err == nil && p == f
	case []any:
		p, ok := plain.([]any)
		if !ok || len(p) != len(v) {
			return false
		}
		for i := range v {
			if !sameData(v[i], p[i]) {
				return false
			}
		}
		return true
	case object:
		p, ok := plain.(map[string]any)
		if !ok || len(p) != len(v) {
			return false
		}
		for _, m := range v {
			pv, ok := p[m.key]
			if !ok || !sameData(m.val, pv) {
				return false
			}
		}
		return true
	}
	return false
}
