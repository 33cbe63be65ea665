package store

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTermsOf(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"sendMessage to_user-id", "sendmessage user"},
		{"Crème Brûlée ÉCLAIR", "crème brûlée éclair"},
		{"a an the", "the"},
		{"日本語のテキスト", "日本語のテキスト"},
		{"v2 api2 x" + strings.Repeat("y", 40), "api2"},
		{"", ""},
		{"cafe\u0301 हिन्दी", "cafe\u0301 हिन्दी"},
	}
	for _, tt := range tests {
		if got := strings.Join(termsOf(tt.text), " "); got != tt.want {
			t.Errorf("termsOf(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// FuzzTermsOf: tool descriptions are untrusted; every word kept must be
// lowercase letters and digits within the length bounds.
func FuzzTermsOf(f *testing.F) {
	f.Add("Send a message to #general")
	f.Add("ÀÉÎÕÜ straße İstanbul")
	f.Fuzz(func(t *testing.T, text string) {
		for _, w := range termsOf(text) {
			n := utf8.RuneCountInString(w)
			if n < minTermRunes || n > maxTermRunes {
				t.Fatalf("term %q has %d runes", w, n)
			}
			if strings.ToLower(w) != w && utf8.ValidString(w) {
				t.Fatalf("term %q not lowercase", w)
			}
			for _, r := range w {
				if notWordRune(r) {
					t.Fatalf("term %q holds %q", w, r)
				}
			}
		}
	})
}
