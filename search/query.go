package search

import (
	"slices"
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

// nameQuery is an FTS5 expression matching the tools whose name column
// starts with the words of a name, in order, or with the same words with
// letters and digits apart (see digitsApart): `name : ^ "get weather"`.
// "" for a name without words.
func nameQuery(name string) string {
	ws := nameWords(name)
	if len(ws) == 0 {
		return ""
	}
	expr := "name : ^ " + quote(strings.Join(ws, " "))
	if split := digitsApart(ws); !slices.Equal(split, ws) {
		expr += " OR name : ^ " + quote(strings.Join(split, " "))
	}
	return expr
}
