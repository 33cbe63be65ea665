package search

import (
	"slices"
	"strings"
	"testing"
	"unicode"
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
		if got := appendHumps(nil, tt.run); !slices.Equal(got, tt.want) {
			t.Errorf("appendHumps(%q) = %q, want %q", tt.run, got, tt.want)
		}
	}
}

// FuzzHumps holds appendHumps, which reads a run in place, to
// humpsByRunes, the reading of a run copied to runes it replaced.
func FuzzHumps(f *testing.F) {
	for _, s := range []string{"getUserID", "HTTPServer", "a1B2c3", "XMLHttpRequest", "x", "ÉtatCivil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, run := range alnumRuns(s) {
			got, want := appendHumps(nil, run), humpsByRunes(run)
			if !slices.Equal(got, want) {
				t.Fatalf("appendHumps(%q) = %q, humpsByRunes = %q", run, got, want)
			}
			if w := words(run); !slices.Equal(w, want) {
				t.Fatalf("words(%q) = %q, want %q", run, w, want)
			}
		}
	})
}

// FuzzAlnumRuns holds alnumRunSeq to strings.FieldsFunc with notAlnum,
// whose runs it reads faster.
func FuzzAlnumRuns(f *testing.F) {
	for _, s := range []string{"get_user ID", "  a-b  ", "ÉtatCivil,x", "日本語 text", "\xff\xfeab", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := alnumRuns(s), strings.FieldsFunc(s, notAlnum); !slices.Equal(got, want) {
			t.Fatalf("alnumRuns(%q) = %q, strings.FieldsFunc = %q", s, got, want)
		}
	})
}

// humpsByRunes is the reference reading of a run: copied to runes, split
// where appendHumps splits, each part lower-cased.
func humpsByRunes(run string) []string {
	rs := []rune(run)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		split := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur)
		if !split && unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
			split = true
		}
		if split {
			out = append(out, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	return append(out, strings.ToLower(string(rs[start:])))
}

func TestInitials(t *testing.T) {
	var in initials
	for _, w := range []string{"file", "état", ""} {
		in.add(w)
	}
	for w, want := range map[string]bool{
		"files": true, "Files": true, "FILE": true, // any case
		"read": false, "Read": false, "42": false,
		"étude": true, "Éclair": true, // not ASCII: always a closer look
		"": true,
	} {
		if got := in.may(w); got != want {
			t.Errorf("may(%q) = %v, want %v", w, got, want)
		}
	}
}
