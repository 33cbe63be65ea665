package search

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestHumps(t *testing.T) {
	tests := []struct {
		run  string
		want []string
	}{
		{"get", []string{"get"}},
		{"get2", []string{"get2"}},
		{"Get", []string{"get"}},
		{"getUserID", []string{"get", "user", "id"}},
		{"HTTPServer", []string{"http", "server"}},
		{"v2Api", []string{"v2", "api"}},
		{"ABC", []string{"abc"}},
		{"ÉtatCivil", []string{"état", "civil"}},
		{"naïveBayes", []string{"naïve", "bayes"}},
	}
	for _, tt := range tests {
		if got := humps(tt.run); !slices.Equal(got, tt.want) {
			t.Errorf("humps(%q) = %q, want %q", tt.run, got, tt.want)
		}
	}
}

// FuzzHumps holds humps' byte-wise reading of ASCII runs to the rune-wise
// one every other run gets.
func FuzzHumps(f *testing.F) {
	for _, s := range []string{"getUserID", "HTTPServer", "a1B2c3", "XMLHttpRequest", "x", "ÉtatCivil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for _, run := range alnumRuns(s) {
			got, want := humps(run), runeHumps(run)
			if !slices.Equal(got, want) {
				t.Fatalf("humps(%q) = %q, runeHumps = %q", run, got, want)
			}
			if w := words(run); !slices.Equal(w, want) {
				t.Fatalf("words(%q) = %q, want %q", run, w, want)
			}
		}
	})
}
