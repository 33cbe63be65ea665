package search

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// TestLearningLiftsTheChosenTool: over the laptop catalog, a tool the
// model ran for an intent comes first for a similar later one with
// Query.Learning, and only then; an unrelated intent is ranked as before.
func TestLearningLiftsTheChosenTool(t *testing.T) {
	ctx := context.Background()
	s := laptopSearcher(t)
	const intent = "open the file README.md"
	first := func(intent string, learning bool) Result {
		t.Helper()
		rs, err := s.Search(ctx, intent, Query{Limit: 5, Learning: learning})
		if err != nil || len(rs) == 0 {
			t.Fatalf("Search(%q) = %v, %v", intent, rs, err)
		}
		return rs[0]
	}
	if r := first(intent, true); r.Name == "read_text_file" {
		t.Fatalf("%q already finds read_text_file first before learning: the test shows nothing", intent)
	}
	unrelated := first("list my stripe customers", false)
	chosen := readTool(t, s, "filesystem", "read_text_file")
	if err := s.Learn(ctx, []Run{
		{Intent: "open the file notes.md", Server: "filesystem", Tool: "read_text_file", Hash: chosen.Hash, Weight: 1},
		{Intent: "open the file todo.txt", Server: "filesystem", Tool: "read_text_file", Hash: chosen.Hash, Weight: 1},
	}); err != nil {
		t.Fatal(err)
	}
	if r := first(intent, true); r.Server != "filesystem" || r.Name != "read_text_file" || r.Learned <= 0 {
		t.Errorf("after learning, %q finds %s/%s first (learned %.2f), want filesystem/read_text_file", intent, r.Server, r.Name, r.Learned)
	}
	if r := first(intent, false); r.Name == "read_text_file" || r.Learned != 0 {
		t.Errorf("without Query.Learning, %q finds %s first (learned %.2f): learning leaked", intent, r.Name, r.Learned)
	}
	if r := first("list my stripe customers", true); r.ToolID != unrelated.ToolID || r.Learned != 0 {
		t.Errorf("an unrelated intent now finds %s (learned %.2f), want %s as before", r.Name, r.Learned, unrelated.Name)
	}
}

// TestLearningFollowsTheDefinition: what was learned for a tool holds for
// the definition its card showed, not for one that changed since.
func TestLearningFollowsTheDefinition(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := New(st, nil)
	load := func(desc string) {
		t.Helper()
		raws := []string{`{"name":"fetch_page","description":"Fetch a web page","inputSchema":{"type":"object"}}`,
			`{"name":"read_text_file","description":"` + desc + `","inputSchema":{"type":"object"}}`}
		if _, err := Ingest(ctx, st, storeServer("files"), rawTools(raws...), nil); err != nil {
			t.Fatal(err)
		}
	}
	load("Read a text file")
	old := readTool(t, s, "files", "read_text_file")
	if err := s.Learn(ctx, []Run{{Intent: "show me the quarterly numbers", Server: "files", Tool: "read_text_file", Hash: old.Hash, Weight: 1}}); err != nil {
		t.Fatal(err)
	}
	lifted := func() bool {
		rs, err := s.Search(ctx, "show me the quarterly numbers", Query{Limit: 3, Learning: true})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(rs, func(r Result) bool { return r.Name == "read_text_file" && r.Learned > 0 })
	}
	if !lifted() {
		t.Fatal("a learned tool no leg finds is not among the results")
	}
	load("Read a text file, changed")
	if lifted() {
		t.Error("learning still lifts a tool whose definition changed since it was chosen")
	}
}

// TestLearnWords: learning compares stemmed words, stop words and numbers
// aside.
func TestLearnWords(t *testing.T) {
	got := learnWords("Please open the files in /tmp/reports for 2024")
	for _, w := range []string{"open", "file"} {
		if !slices.Contains(got, w) {
			t.Errorf("learnWords = %v, want %q", got, w)
		}
	}
	for _, w := range []string{"please", "the", "2024", "files"} {
		if slices.Contains(got, w) {
			t.Errorf("learnWords = %v, holds %q", got, w)
		}
	}
}

// readTool reads a stored tool of s's store.
func readTool(t *testing.T, s *Searcher, server, name string) *store.Tool {
	t.Helper()
	tl, err := s.st.Tool(context.Background(), server, name)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// rawTools makes a tools/list's tools of JSON texts.
func rawTools(texts ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(texts))
	for i, s := range texts {
		out[i] = json.RawMessage(s)
	}
	return out
}

func TestSimilar(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"read the file notes.md", "read the file notes.md please", true},
		{"read the file notes.md", "read notes.md", true},
		{"read the file notes.md", "send an email to Bob", false},
		{"read the file notes.md", "", false},
	} {
		if got := Similar(tt.a, tt.b); got != tt.want {
			t.Errorf("Similar(%q, %q) = %v, want %v (words %v, %v)", tt.a, tt.b, got, tt.want, learnWords(tt.a), learnWords(tt.b))
		}
	}
}
