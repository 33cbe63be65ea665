package output

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// renderJSON returns the compact rendering of a projected JSON value: the
// smallest, in bytes, of the candidate forms its shape allows. Compact JSON
// (one record per line for a list) is always a candidate, so the result is
// never larger than compact JSON of the value. Ties go to the form listed
// first: a table or key: value lines read better than JSON.
func renderJSON(v any, limit int) []Section {
	var candidates [][]Section
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return []Section{compactSection(v)}
		}
		if table, ok := tableSection(v, "", limit); ok {
			candidates = append(candidates, []Section{table})
		}
		candidates = append(candidates, []Section{jsonLinesSection(v, "")})
	case object:
		if len(v) == 0 {
			return []Section{compactSection(v)}
		}
		if path, ok := wrappedList(v); ok {
			candidates = append(candidates, wrapperForms(v, path, limit)...)
		}
		candidates = append(candidates, []Section{linesSection(v)}, []Section{compactSection(v)})
	default:
		return []Section{compactSection(v)}
	}
	best, bestSize := candidates[0], -1
	for _, c := range candidates {
		if size := len(wholeText(c)); bestSize < 0 || size < bestSize {
			best, bestSize = c, size
		}
	}
	return best
}

// wrapperForms renders an object wrapping one big list at path as key: value
// lines for every other key on the way (nested keys by their dot path), then
// the list under a "path:" title line that every page showing its records
// repeats, as a table or one JSON record per line.
func wrapperForms(obj object, path []string, limit int) [][]Section {
	var lead object
	cur := obj
	var list []any
	for depth, key := range path {
		prefix := strings.Join(path[:depth], ".")
		for _, m := range cur {
			if m.key != key {
				if prefix != "" {
					m.key = prefix + "." + m.key
				}
				lead = append(lead, m)
			}
		}
		next, _ := cur.get(key)
		if depth == len(path)-1 {
			list, _ = next.([]any)
		} else {
			cur, _ = next.(object)
		}
	}
	var prefix []Section
	if len(lead) > 0 {
		prefix = []Section{linesSection(lead)}
	}
	title := escapeLine(strings.Join(path, ".")) + ":"
	if len(list) == 0 || utf8.RuneCountInString(title) > limit/2 {
		return nil
	}
	var forms [][]Section
	if table, ok := tableSection(list, title, limit); ok {
		forms = append(forms, append(append([]Section(nil), prefix...), table))
	}
	return append(forms, append(append([]Section(nil), prefix...), jsonLinesSection(list, title)))
}

// tableSection renders records with mostly shared keys as a Markdown table:
// one unit per record, the header row and delimiter row repeated on every
// page. It declines when an element is not an object, when fewer than half
// the cells would be filled, or when the header would take more than half a
// page.
func tableSection(list []any, title string, limit int) (Section, bool) {
	var columns []string
	index := map[string]int{}
	filled := 0
	for _, e := range list {
		rec, ok := e.(object)
		if !ok {
			return Section{}, false
		}
		for _, m := range rec {
			if _, seen := index[m.key]; !seen {
				index[m.key] = len(columns)
				columns = append(columns, m.key)
			}
		}
		filled += len(rec)
	}
	if len(columns) == 0 || 2*filled < len(list)*len(columns) {
		return Section{}, false
	}
	var header strings.Builder
	if title != "" {
		header.WriteString(title)
		header.WriteByte('\n')
	}
	header.WriteByte('|')
	for _, c := range columns {
		header.WriteString(" " + escapeCell(c) + " |")
	}
	header.WriteString("\n|")
	for range columns {
		header.WriteString("---|")
	}
	if utf8.RuneCountInString(header.String()) > limit/2 {
		return Section{}, false
	}
	units := make([]Unit, len(list))
	cells := make([]string, len(columns))
	for i, e := range list {
		clear(cells)
		for _, m := range e.(object) {
			cells[index[m.key]] = escapeCell(cellText(m.val))
		}
		units[i] = Unit{Text: "| " + strings.Join(cells, " | ") + " |"}
	}
	return Section{Form: FormTable, Header: header.String(), Units: units}, true
}

// jsonLinesSection renders a list as one compact JSON element per line.
func jsonLinesSection(list []any, title string) Section {
	units := make([]Unit, len(list))
	for i, e := range list {
		units[i] = Unit{Text: compactJSON(e)}
	}
	return Section{Form: FormJSON, Header: title, Units: units}
}

// linesSection renders an object as one "key: value" line per key.
func linesSection(obj object) Section {
	units := make([]Unit, len(obj))
	for i, m := range obj {
		units[i] = Unit{Text: escapeLine(m.key) + ": " + escapeLine(cellText(m.val))}
	}
	return Section{Form: FormLines, Units: units}
}

func compactSection(v any) Section {
	return Section{Form: FormJSON, Units: []Unit{{Text: compactJSON(v)}}}
}

// cellText is a value as a table cell or line shows it: strings bare,
// numbers, booleans and null as JSON, nested values as compact JSON.
func cellText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	}
	return compactJSON(v)
}

// escapeCell keeps a value inside one Markdown table cell: backslashes,
// pipes, newlines and carriage returns are escaped.
func escapeCell(s string) string { return escape(s, true) }

// escapeLine keeps a value on one line: backslashes, newlines and carriage
// returns are escaped.
func escapeLine(s string) string { return escape(s, false) }

func escape(s string, pipe bool) string {
	if !strings.ContainsAny(s, "\\\n\r") && !(pipe && strings.Contains(s, "|")) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '|' && pipe:
			b.WriteString(`\|`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
