package search

import (
	"strings"
)

// orQuery joins terms into an FTS5 expression that matches any of them:
// `"a" OR "b"`. Every term is a quoted string with inner quotes doubled, so
// no operator, column filter, prefix star or parenthesis in the intent can
// reach the FTS5 parser; an empty term list gives "" (run no query).
func orQuery(terms []string) string {
	var b strings.Builder
	for _, t := range terms {
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString(quote(t))
	}
	return b.String()
}

// quote makes t one FTS5 string token.
func quote(t string) string {
	return `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
}

// namePhrase is an FTS5 expression matching the words of a tool name, in
// order, in the name column only: `name : "get weather"`.
func namePhrase(name string) string {
	ws := nameWords(name)
	if len(ws) == 0 {
		return ""
	}
	return "name : " + quote(strings.Join(ws, " "))
}
