package search

import (
	"maps"
	"slices"
	"testing"
)

func TestTrailingWords(t *testing.T) {
	tests := []struct {
		intent string
		want   []string
	}{
		{"open a case for a customer who can't log in", []string{"login"}},
		{"find the user whose invoice failed", []string{"failed", "invoice"}},
		{"list files which are older than a week", []string{"older", "week"}},
		{"who is jane@acme.com in our CRM", nil},                         // a question, not a clause
		{"which calendar has my meetings", nil},                          // likewise
		{"note that I spoke to the client", nil},                         // "that" opens the content
		{"email the customer who asked for an email", []string{"asked"}}, // a head word is no trailing word
		{"send a reminder to everyone WHO missed the meeting", []string{"meeting", "missed"}},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.intent, func(t *testing.T) {
			got := slices.Sorted(maps.Keys(trailingWords(tt.intent)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("trailingWords(%q) = %q, want %q", tt.intent, got, tt.want)
			}
		})
	}
}

func TestContentClause(t *testing.T) {
	tests := []struct {
		intent, verb string
		content      []string
	}{
		{"remember that Alice works at Acme", "remember", []string{"acme", "alice", "works"}},
		{"Please note that the deploy moved to Friday", "note", []string{"deploy", "friday", "moved"}},
		{"check that the pods are running", "", nil}, // checking: the clause is the topic
		{"remember this", "", nil},
		{"the note that Alice wrote", "", nil}, // not a request opening with the verb
		{"Remember That myProject uses Go", "remember", []string{"go", "project", "uses"}}, // humps split as written
		// A keep verb needs no "that".
		{"remember my favorite color is blue", "remember", []string{"blue", "color", "favorite"}},
		{"Memorize: Bob's birthday is May 3", "memorize", []string{"3", "birthday", "bob"}},
		{"jot down that Bob likes tea", "jot", []string{"bob", "down", "likes", "tea"}},
		{"write down that the deploy moved", "write", []string{"deploy", "down", "moved"}},
		{"write that report to disk", "", nil}, // "write" keeps only with "down"
		{"log the error", "", nil},             // without "that", what to act on
		{"record the meeting", "", nil},
		// What to forget is content too.
		{"forget that Bob likes tea", "forget", []string{"bob", "likes", "tea"}},
		{"forget my old address", "forget", []string{"address", "old"}},
	}
	for _, tt := range tests {
		verb, content := contentClause(tt.intent)
		got := slices.Sorted(maps.Keys(content))
		if verb != tt.verb || !slices.Equal(got, tt.content) {
			t.Errorf("contentClause(%q) = %q, %q; want %q, %q", tt.intent, verb, got, tt.verb, tt.content)
		}
	}
}
