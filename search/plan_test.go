package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/store"
)

func TestWithinBudget(t *testing.T) {
	docs := map[string]int{
		"weather": 10, "forecast": 20, "city": 300, "get": 900, "data": 700,
		"number": 1236, "numbers": 179, "paris": 2,
	}
	tests := []struct {
		name   string
		words  []string
		budget int
		want   []string
	}{
		{"all within budget", []string{"weather", "forecast", "city"}, 500, []string{"weather", "forecast", "city"}},
		{"commonest past budget dropped", []string{"get", "weather", "forecast", "city", "data"}, 500,
			[]string{"weather", "forecast", "city"}},
		{"three rarest kept within twice the budget", []string{"get", "weather", "city"}, 500,
			[]string{"weather", "city"}},
		{"rarest kept alone", []string{"get", "data"}, 500, []string{"data"}},
		{"an inflection counts as its commonest form", []string{"numbers", "weather", "paris", "city"}, 500,
			[]string{"weather", "paris", "city"}},
		{"unknown words are kept", []string{"get", "data", "calender"}, 500, []string{"data", "calender"}},
		{"no budget keeps all", []string{"get", "data", "number"}, 0, []string{"get", "data", "number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withinBudget(tt.words, docs, tt.budget); !slices.Equal(got, tt.want) {
				t.Errorf("withinBudget(%v, %d) = %v, want %v", tt.words, tt.budget, got, tt.want)
			}
		})
	}
}

// TestTrigramQueryBoundsUnknownWords: past TrigramAllUpTo the trigram leg
// searches only the unknown words, and of those only the longest
// maxTrigramUnknown; a word the catalog holds is never among them.
func TestTrigramQueryBoundsUnknownWords(t *testing.T) {
	s, _ := fixtureSearcher(t, &Options{TrigramAllUpTo: -1, Corrections: -1})
	ctx := context.Background()
	for _, tt := range []struct{ intent, want string }{
		{"send an email", ""},
		{"send zorblat email", `"zorblat"`},
		{"zorblat quuxified email frob", `"quuxified" OR "zorblat"`},
	} {
		if got := s.trigramQuery(ctx, s.plan(ctx, tt.intent)); got != tt.want {
			t.Errorf("trigramQuery(%q) = %s, want %s", tt.intent, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"search", "search", 0},
		{"serach", "search", 1}, // one transposition
		{"calender", "calendar", 1},
		{"forcast", "forecast", 1},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"", "abc", 3},
		{"tset", "test", 1},
		{"übung", "übnug", 1}, // runes, not bytes
		{strings.Repeat("a", 40), strings.Repeat("a", 39) + "b", 1}, // past shortRunes
		{strings.Repeat("ab", 20), strings.Repeat("ba", 20), 2},     // a deletion and an insertion
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}

// TestCorrectionsReachTheWordsLeg: a misspelled word's correction is
// searched by the words leg (at the synonym weight) and counts in the
// boosts, so "get" alone does not outvote it.
func TestCorrectionsReachTheWordsLeg(t *testing.T) {
	s, _ := fixtureSearcher(t, &Options{TrigramAllUpTo: -1})
	ctx := context.Background()
	p := s.plan(ctx, "serach the inbox")
	p.awaitFixes()
	if !slices.Contains(p.fixes, "search") || !slices.Contains(termTexts(p.synTerms), "search") || !slices.Contains(p.meant, "search") {
		t.Errorf("plan(serach the inbox): fixes %v, synonym query %s, meant %v; want search in each", p.fixes, termTexts(p.synTerms), p.meant)
	}
	rs, err := s.Search(ctx, "serach inbox", Query{Limit: 3, Legs: []Leg{LegWords}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || rs[0].Name != "search_inbox" {
		t.Errorf("words leg alone for %q = %v, want search_inbox first", "serach inbox", names(rs))
	}
}

func TestUndoubled(t *testing.T) {
	tests := []struct {
		stem, want string
	}{
		{"committ", "commit"}, {"runn", "run"}, {"stopp", "stop"}, {"gett", "get"},
		{"call", ""}, {"press", ""}, {"buzz", ""}, // the word's own double
		{"add", ""},  // "ad" is too short to be the word
		{"need", ""}, // vowels
		{"list", ""},
	}
	for _, tt := range tests {
		got, ok := undoubled(tt.stem)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("undoubled(%q) = %q, %v; want %q", tt.stem, got, ok, tt.want)
		}
	}
}

// TestInflectionsAreNoTypos holds that a word whose stem the catalog
// holds, a doubled consonant undone, is searched as written and never
// "corrected" to another word ("committed" was read as "omitted").
func TestInflectionsAreNoTypos(t *testing.T) {
	s := laptopSearcher(t)
	for _, intent := range []string{"who committed to main", "stop the running container", "show the stopped pods"} {
		p := s.plan(context.Background(), intent)
		p.awaitFixes()
		if len(p.unknown) > 0 || len(p.fixes) > 0 {
			t.Errorf("%q: unknown %q, corrected to %q", intent, p.unknown, p.fixes)
		}
	}
}

// TestPlanRecall: a question to the assistant's memory searches "recall"
// (its synonyms standing beside it) and holds what it asks about as
// content, weak; the verb itself, asked about again, is no content.
func TestPlanRecall(t *testing.T) {
	s := laptopSearcher(t)
	for _, tt := range []struct {
		intent string
		weak   []string
	}{
		{"what did I tell you about the staging password?", []string{"password", "staging"}},
		{"recall what I said about recall policies", []string{"policies"}},
	} {
		p := s.plan(context.Background(), tt.intent)
		p.awaitFixes()
		var weak []string
		for w := range p.trailing {
			weak = append(weak, w)
		}
		slices.Sort(weak)
		if !slices.Equal(weak, tt.weak) || !slices.Equal(p.kept, []string{"recall"}) {
			t.Errorf("plan(%q): kept %v, weak %v; want [recall], %v", tt.intent, p.kept, weak, tt.weak)
		}
		if !slices.Contains(termTexts(p.wordTerms), "knowledge graph") {
			t.Errorf("plan(%q): words %q, want recall's synonyms beside it", tt.intent, termTexts(p.wordTerms))
		}
	}
}

// termTexts returns the texts of a words query's terms.
func termTexts(ts []store.WordTerm) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Text)
	}
	return out
}
