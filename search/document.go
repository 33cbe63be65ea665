package search

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

// Document prepares the search text of one normalized tool, one field per
// column of the words table:
//   - Name: the name's words (split on camelCase, snake_case, kebab-case,
//     dots and slashes), then the raw name;
//   - Desc: the title and the provider description, sanitized and cut to
//     [schema.MaxProseChars] characters (the full description, not the card summary),
//     less its short quoted spans (see quotedSpans) and the sentences its
//     server repeats in most of its tools (see [schema.Tool.Described]);
//   - Params: top-level parameter names and the names one level below them
//     (object properties and array item properties), split into words;
//   - ParamDescs: the descriptions of those parameters, sanitized, then the
//     description's short quoted spans (sanitized with it) and the
//     sentences its server repeats: they say what the server is, at that
//     column's lower weight;
//   - Enums: their enum values.
func Document(t *schema.Tool) store.Doc {
	rec := &t.Record
	desc, repeated := t.Described()
	if rec.Title != "" && !strings.Contains(desc, rec.Title) {
		desc = rec.Title + ". " + desc
	}
	p := paramText(rec.InputSchema)
	desc, quoted := quotedSpans(sanitize(t, desc))
	if repeated != "" {
		quoted = append(quoted, sanitize(t, repeated))
	}
	return store.Doc{
		Name:       strings.Join(append(nameWords(rec.Name), rec.Name), " "),
		Desc:       desc,
		Params:     strings.Join(p.names, " "),
		ParamDescs: strings.Join(append([]string{sanitize(t, strings.Join(p.descs, " \n"))}, quoted...), " \n"),
		Enums:      strings.Join(p.enums, " "),
	}
}

// maxQuotedWords bounds a quoted span of a description that is taken for
// a value rather than for what the tool does.
const maxQuotedWords = 3

// quotedSpans takes out of a description the quoted spans of at most
// maxQuotedWords words: a label, an example value or another tool's name
// ("check \"Remember Me\"", "prefer this over 'fill' calls"). They say
// what the tool handles, not what it does: a tool whose only "remember" is
// a login form's label is no memory tool. They are indexed with the
// parameter descriptions, at that column's lower weight.
func quotedSpans(desc string) (rest string, quoted []string) {
	parts := splitQuoted(desc)
	if len(parts) < 3 {
		return desc, nil
	}
	var b strings.Builder
	for i, part := range parts {
		if i%2 == 1 && len(words(part)) <= maxQuotedWords && i+1 < len(parts) {
			quoted = append(quoted, part)
			b.WriteString("\"\"")
			continue
		}
		if i%2 == 1 {
			b.WriteString("\"")
			b.WriteString(part)
			if i+1 < len(parts) {
				b.WriteString("\"")
			}
			continue
		}
		b.WriteString(part)
	}
	return b.String(), quoted
}

// sanitize runs provider prose of t through the schema package's sanitizer,
// at the contract's prose bound (text the poisoning detector flagged is cut).
func sanitize(t *schema.Tool, s string) string {
	out, _ := t.Prose(s, schema.MaxProseChars)
	return out
}

// params is the searchable text of an input schema's parameters.
type params struct {
	names, descs, enums []string
}

// propSchema is the part of a JSON Schema property the search text needs.
type propSchema struct {
	Description string                     `json:"description"`
	Enum        []json.RawMessage          `json:"enum"`
	Properties  map[string]json.RawMessage `json:"properties"`
	Items       json.RawMessage            `json:"items"`
}

// maxEnumValues bounds how many enum values of one parameter are indexed.
const maxEnumValues = 32

// paramText collects parameter names, descriptions and enum values from an
// input schema, top level and one level nested. A schema that does not
// parse contributes nothing: the tool stays findable by name and prose.
func paramText(raw json.RawMessage) params {
	var p params
	var root propSchema
	if json.Unmarshal(raw, &root) != nil {
		return p
	}
	p.addProps(root.Properties, 1)
	return p
}

func (p *params) addProps(props map[string]json.RawMessage, depth int) {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p.names = append(p.names, nameWords(n)...)
		var s propSchema
		if json.Unmarshal(props[n], &s) != nil {
			continue
		}
		if s.Description != "" {
			p.descs = append(p.descs, s.Description)
		}
		for i, e := range s.Enum {
			if i == maxEnumValues {
				break
			}
			p.enums = append(p.enums, enumText(e))
		}
		if depth > 1 {
			continue
		}
		p.addProps(s.Properties, depth+1)
		var items propSchema
		if len(s.Items) > 0 && json.Unmarshal(s.Items, &items) == nil {
			p.addProps(items.Properties, depth+1)
		}
	}
}

// enumText renders one enum value as words: strings unquoted, others as JSON.
func enumText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return fmt.Sprint(string(v))
}
