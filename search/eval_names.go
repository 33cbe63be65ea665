package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// NameForm says how [NameQueries] writes a tool's name as an intent.
type NameForm string

// The forms an intent may give a tool's name words.
const (
	NamesSpaced NameForm = "spaced" // "calculate bmi"
	NamesCamel  NameForm = "camel"  // "calculateBmi"
	NamesKebab  NameForm = "kebab"  // "calculate-bmi"
	NamesTypo   NameForm = "typo"   // "calculate bmi" with one typo in its longest word
)

// ErrBadNameForm is returned by [ParseNameForm] for an unknown form.
var ErrBadNameForm = errors.New("names must be spaced, camel, kebab or typo")

// ParseNameForm returns the form named s.
func ParseNameForm(s string) (NameForm, error) {
	switch f := NameForm(s); f {
	case NamesSpaced, NamesCamel, NamesKebab, NamesTypo:
		return f, nil
	}
	return "", fmt.Errorf("name form %q: %w", s, ErrBadNameForm)
}

// NameQueries makes one query per searchable tool of st: its name words
// (see nameWords) written in form, with that tool alone relevant. The typo
// form makes one edit in the longest word (the first of equal length): a
// deletion, a transposition of two different adjacent letters or a
// substitution, with the kind and place chosen by a random source seeded
// with seed, so a seed gives the same queries every run.
func NameQueries(ctx context.Context, st *store.Store, form NameForm, seed uint64) ([]EvalQuery, error) {
	tools, err := st.Tools(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("making name queries: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []EvalQuery
	for _, t := range tools {
		ws := nameWords(t.Name)
		if t.Refusal != "" || len(ws) == 0 {
			continue
		}
		out = append(out, EvalQuery{
			Query:    writeName(ws, form, rng),
			Relevant: []ToolKey{{Server: t.Server, Name: t.Name}},
		})
	}
	return out, nil
}

// writeName writes name words ws in form.
func writeName(ws []string, form NameForm, rng *rand.Rand) string {
	switch form {
	case NamesCamel:
		var b strings.Builder
		for i, w := range ws {
			if i > 0 {
				r, n := utf8.DecodeRuneInString(w)
				b.WriteRune(unicode.ToUpper(r))
				w = w[n:]
			}
			b.WriteString(w)
		}
		return b.String()
	case NamesKebab:
		return strings.Join(ws, "-")
	case NamesTypo:
		longest := 0
		for i, w := range ws {
			if utf8.RuneCountInString(w) > utf8.RuneCountInString(ws[longest]) {
				longest = i
			}
		}
		ws = append([]string(nil), ws...)
		ws[longest] = typo(ws[longest], rng)
	}
	return strings.Join(ws, " ")
}

// typo makes one edit in w: a deletion, a transposition of two adjacent
// different runes, or a substitution by another lower-case letter. A word
// of one rune, or one whose runes are all alike, is substituted.
func typo(w string, rng *rand.Rand) string {
	rs := []rune(w)
	if len(rs) == 0 {
		return w
	}
	var swaps []int
	for i := 0; i+1 < len(rs); i++ {
		if rs[i] != rs[i+1] {
			swaps = append(swaps, i)
		}
	}
	kind := rng.IntN(3)
	switch {
	case kind == 0 && len(rs) > 1:
		i := rng.IntN(len(rs))
		return string(append(rs[:i:i], rs[i+1:]...))
	case kind == 1 && len(swaps) > 0:
		i := swaps[rng.IntN(len(swaps))]
		rs[i], rs[i+1] = rs[i+1], rs[i]
		return string(rs)
	}
	i := rng.IntN(len(rs))
	r := rs[i]
	for r == rs[i] {
		r = 'a' + rune(rng.IntN(26))
	}
	rs[i] = r
	return string(rs)
}
