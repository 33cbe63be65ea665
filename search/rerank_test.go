package search

import "testing"

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
