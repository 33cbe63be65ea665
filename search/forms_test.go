package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestFormIndexReadsAsWordSet holds formIndex to the simple model it
// replaced (wordSet, below: the text's every word and stem in a map):
// over every tool text of the laptop catalog and the words of the bench
// intents and the synonym table, the index finds a word exactly when the
// model holds it, and a synonym phrase exactly when the model holds all
// its words.
func TestFormIndexReadsAsWordSet(t *testing.T) {
	st := laptopSearcher(t).st
	tools, err := st.Tools(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) < 500 {
		t.Fatalf("%d tools", len(tools))
	}
	table := newSynonyms(synonymGroups)
	var wanted []string
	for _, q := range benchQueries(t)[:200] {
		wanted = append(wanted, queryWords(q)...)
	}
	for w := range table {
		wanted = append(wanted, w)
	}
	wanted = append(wanted, "flies", "fly", "making", "make", "used", "use", "uses", "boxes", "box", "ties", "ty")
	slices.Sort(wanted)
	wanted = slices.Compact(wanted)
	x := newFormIndex()
	slots := make([]int, len(wanted))
	for i, w := range wanted {
		slots[i] = x.slot()
		x.addForms(w, slots[i])
	}
	phrases := [][]string{table.of("remember"), table.of("login"), table.of("vacation")}
	synSlots := x.addSynonyms(phrases, func(int) bool { return true })
	for _, tool := range tools {
		d := tool.Doc
		model := textWords(d.Name, d.Desc, d.Params, d.Enums)
		found := make([]bool, x.n)
		x.scan(found, d.Name, d.Desc, d.Params, d.Enums)
		for i, w := range wanted {
			if got, want := found[slots[i]], model.holds(w); got != want {
				t.Fatalf("%s/%s: index finds %q: %v, model holds it: %v", tool.Server, tool.Name, w, got, want)
			}
		}
		for i, ps := range phrases {
			if got, want := allOf(found, synSlots[i]), model.holdsAny(ps); got != want {
				t.Fatalf("%s/%s: index finds a phrase of %q: %v, model: %v", tool.Server, tool.Name, ps, got, want)
			}
		}
	}
}

// wordSet is the distinct lower-cased words of some text, each also
// under the forms it may take without an inflection ending (see stems).
type wordSet map[string]bool

// textWords splits texts into a wordSet (see words).
func textWords(texts ...string) wordSet {
	set := make(wordSet)
	for _, t := range texts {
		for _, w := range words(t) {
			set[w] = true
			for _, st := range stems(w) {
				set[st] = true
			}
		}
	}
	return set
}

// holds reports whether the set has w, or a word that shares a form with
// it: files/file, created/create, queries/query. Looser prefix matches
// (gene/general, exam/example) are no evidence of a match.
func (ws wordSet) holds(w string) bool {
	if ws[w] {
		return true
	}
	for _, st := range stems(w) {
		if ws[st] {
			return true
		}
	}
	return false
}

// holdsAny reports whether the set holds one of these words or phrases
// (a phrase: all of its words).
func (ws wordSet) holdsAny(syns []string) bool {
	for _, s := range syns {
		all := true
		for _, w := range strings.Fields(s) {
			if !ws[w] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}
