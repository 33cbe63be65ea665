package search

import (
	"testing"

	"github.com/capbridge/capbridge/store"
)

func TestFuse(t *testing.T) {
	f := fusion{weights: [numLegs]float64{LegWords: 1, LegTrigrams: 0.5, LegVectors: 1}, k: 60}
	tests := []struct {
		name  string
		legs  [numLegs][]hit
		order []int64
	}{
		{"one leg keeps its order", [numLegs][]hit{LegWords: {{1, 9, ""}, {2, 5, ""}, {3, 1, ""}}}, []int64{1, 2, 3}},
		{"agreement wins", [numLegs][]hit{
			LegWords:   {{1, 10, ""}, {2, 9.9, ""}},
			LegVectors: {{2, 0.9, ""}, {3, 0.8, ""}},
		}, []int64{2, 1, 3}},
		{"a lighter leg breaks no strong lead", [numLegs][]hit{
			LegWords:    {{1, 10, ""}, {2, 2, ""}},
			LegTrigrams: {{2, 5, ""}},
		}, []int64{1, 2}},
		{"ties go to the words rank", [numLegs][]hit{
			LegWords:   {{5, 2, "b"}, {4, 1, "a"}},
			LegVectors: {{4, 2, "a"}, {5, 1, "b"}},
		}, []int64{5, 4}},
		{"equal scores share a rank, then the key decides, not the id", [numLegs][]hit{
			LegWords:   {{5, 1, "a\x00x"}, {4, 1, "b\x00x"}},
			LegVectors: {{4, 1, "b\x00x"}, {5, 1, "a\x00x"}},
		}, []int64{5, 4}},
		{"equal scores listed in either order fuse alike", [numLegs][]hit{
			LegWords: {{4, 1, "b\x00x"}, {5, 1, "a\x00x"}},
		}, []int64{5, 4}},
		{"without keys, the id", [numLegs][]hit{
			LegWords: {{5, 1, ""}, {4, 1, ""}},
		}, []int64{4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := f.fuse(tt.legs)
			if len(got) != len(tt.order) {
				t.Fatalf("fuse = %+v, want ids %v", got, tt.order)
			}
			for i, c := range got {
				if c.id != tt.order[i] {
					t.Fatalf("fuse order = %+v, want ids %v", got, tt.order)
				}
				if i > 0 && c.fused > got[i-1].fused {
					t.Errorf("fused scores not descending: %+v", got)
				}
			}
		})
	}
}

func TestNearest(t *testing.T) {
	tests := []struct {
		word string
		near []string
		want string
	}{
		{"calender", []string{"calendar", "calends"}, "calendar"},
		{"papers", []string{"paper"}, ""}, // an inflection: stemming finds it
		{"forcast", []string{"forecast"}, "forecast"},
		{"totally", []string{"total"}, ""},                 // "total" is its stem
		{"kubernetes", []string{"kubectl"}, ""},            // too far
		{"serach", []string{"search", "starch"}, "search"}, // a transposition is one edit
		{"closing", []string{"close"}, ""},
		{"libraries", []string{"library"}, ""},
		{"headwa", []string{"headway"}, "headway"}, // no English ending
		{"recor", []string{"record"}, "record"},
		{"believe", []string{"retrieve"}, ""}, // three edits, past the bound of two
		{"budget", []string{"gadget"}, ""},    // two edits, past a six-letter word's one
	}
	for _, tt := range tests {
		var terms []store.Term
		for _, n := range tt.near {
			terms = append(terms, store.Term{Text: n, Docs: 1})
		}
		got, _ := nearest(tt.word, terms)
		if got.Text != tt.want {
			t.Errorf("nearest(%q, %v) = %q, want %q", tt.word, tt.near, got.Text, tt.want)
		}
	}
}
