package search

import (
	"context"
	"slices"
	"testing"
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
