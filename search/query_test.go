package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/store"
)

func TestQueryWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Create a calendar event, please!", []string{"create", "calendar", "event"}},
		{"getUserID from HTTPServer", []string{"get", "user", "id", "http", "server"}},
		{"AclApi.add_mapping kebab-case", []string{"acl", "api", "add", "mapping", "kebab", "case"}},
		{`"unbalanced (quote AND NOT`, []string{"unbalanced", "quote"}},
		{"col:value NEAR(a b) * ^x", []string{"col", "value", "near", "b", "x"}},
		// Text in a script written without spaces: its two- and three-letter pieces.
		{"東京の天気 🌧️ weather", []string{"weather", "東京", "京の", "の天", "天気", "東京の", "京の天", "の天気"}},
		{"can you help me", nil},
		{"repeat repeat REPEAT", []string{"repeat"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := queryWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("queryWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hostileIntents are intents that would break an FTS5 query built by
// pasting text: operators, quotes, column filters, stars, brackets,
// unbalanced input, non-Latin scripts, emoji, control bytes, invalid UTF-8.
var hostileIntents = []string{
	`"`, `""`, `"""`, `'`, `a"b`, `(`, `)`, `((a)`, `*`, `a*`, `*a`, `^a`, `:`, `a:b`, `name:send`,
	`{name desc}: x`, `AND`, `OR`, `NOT`, `NEAR`, `a AND`, `OR b`, `NOT NOT`, `NEAR(a b, 2)`,
	`a + b`, `-a`, `a OR OR b`, `"send email" AND (calendar OR`, `\`, `\"`, `%`, `_`, `$1`, `;DROP TABLE tools;--`,
	`東京の天気`, `Привет мир`, `مرحبا`, `🚀🔥`, `e\u0301`, "\x00\x01\x1f", "\xff\xfe", `a/b/c`, `/`, `files/`,
	strings.Repeat("x", 5000), strings.Repeat("word ", 500), `calender`, `send_email`, `deleteEvent`,
}

func TestHostileIntents(t *testing.T) {
	s, _ := fixtureSearcher(t, nil)
	for _, intent := range hostileIntents {
		for _, legs := range [][]Leg{nil, {LegWords}, {LegTrigrams}} {
			if _, err := s.Search(context.Background(), intent, Query{Limit: 5, Legs: legs}); err != nil {
				t.Errorf("Search(%q, legs %v): %v", intent, legs, err)
			}
		}
	}
}

func TestOrQueryQuotes(t *testing.T) {
	tests := []struct {
		terms []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, `"a"`},
		{[]string{"a", "", "b"}, `"a" OR "b"`},
		{[]string{`x"y`}, `"x""y"`},
	}
	for _, tt := range tests {
		if got := orQuery(tt.terms); got != tt.want {
			t.Errorf("orQuery(%q) = %s, want %s", tt.terms, got, tt.want)
		}
	}
}

// FuzzQuery builds the words, trigram and typo-lookup expressions from
// arbitrary intents and runs them on a real store: none may raise an
// SQL error.
func FuzzQuery(f *testing.F) {
	for _, s := range hostileIntents[:len(hostileIntents)-4] {
		f.Add(s)
	}
	st := openStore(f)
	ctx := context.Background()
	raws := fixtureRaws(f, "calendar")
	if _, err := Ingest(ctx, st, store.Server{Name: "calendar"}, raws, nil); err != nil {
		f.Fatal(err)
	}
	s := New(st, nil)
	f.Fuzz(func(t *testing.T, intent string) {
		ws := queryWords(intent)
		if _, err := st.MatchWords(ctx, orQuery(ws), s.columns, 5); err != nil {
			t.Fatalf("words expression of %q: %v", intent, err)
		}
		if _, err := st.MatchTrigrams(ctx, orQuery(ws), 5); err != nil {
			t.Fatalf("trigram expression of %q: %v", intent, err)
		}
		for _, n := range namings(intent) {
			if _, err := st.MatchWords(ctx, nameQuery(n.written), s.columns, 5); err != nil {
				t.Fatalf("name query of %q: %v", n.written, err)
			}
		}
		if _, err := s.Search(ctx, intent, Query{Limit: 5}); err != nil {
			t.Fatalf("Search(%q): %v", intent, err)
		}
	})
}
