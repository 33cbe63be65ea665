package search

import (
	"slices"
	"testing"
)

func TestWordsMatch(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"file", "file", true},
		{"files", "file", true},
		{"info", "information", true}, // a prefix spanning the shorter word
		{"calculate", "calculation", true},
		{"ads", "ad", true}, // a plural of a word too short for a prefix
		{"id", "ids", true},
		{"logins", "login", true}, // a joined phrasal verb's plural
		{"log", "login", false},   // but no prefix of it
		{"ad", "add", false},
		{"cat", "car", false},
		{"ab", "abc", false},
	}
	for _, tt := range tests {
		if got := wordsMatch(tt.a, tt.b); got != tt.want {
			t.Errorf("wordsMatch(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestPluralOf holds pluralOf to singulars, which it reads without
// allocating.
func TestPluralOf(t *testing.T) {
	words := []string{"", "s", "y", "es", "ies", "ad", "ads", "adses", "policy", "policies", "policys",
		"box", "boxes", "boxs", "bus", "buses", "login", "logins", "query", "queries", "quer", "querie", "querys"}
	for _, w := range words {
		for _, p := range words {
			if got, want := pluralOf(w, p), slices.Contains(singulars(p), w); got != want {
				t.Errorf("pluralOf(%q, %q) = %v, singulars says %v", w, p, got, want)
			}
		}
	}
}
