package store

import (
	"context"
	"testing"
)

// TestRankWordsFollowsWrites: the keys and lengths RankWords caches are
// read again after a write changes a tool's text, and a tool removed is
// no longer found.
func TestRankWordsFollowsWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	weights := [5]float64{1, 1, 1, 1, 1}
	email := []WordTerm{{Text: "email"}}
	mustReplace(t, s, "mail", tool("send_message", "Send an email"))
	first, err := s.RankWords(ctx, email, weights, 5)
	if err != nil || len(first) != 1 {
		t.Fatalf("RankWords(email) = %v, %v; want send_message", first, err)
	}
	mustReplace(t, s, "mail", tool("send_message", "Send an email to everyone on a list"))
	again, err := s.RankWords(ctx, email, weights, 5)
	if err != nil || len(again) != 1 || again[0].ID != first[0].ID {
		t.Fatalf("after the description grew: %v, %v; want send_message again", again, err)
	}
	if want := first[0].Len + len(" to everyone on a list"); again[0].Len != want {
		t.Errorf("after the description grew, Len %d, want %d", again[0].Len, want)
	}
	fts, _ := s.MatchWords(ctx, `"email"`, weights, 5)
	if len(fts) != 1 || fts[0] != again[0] {
		t.Errorf("RankWords %v, MatchWords %v: want the same hit", again, fts)
	}
	mustReplace(t, s, "mail", tool("list_folders", "List mail folders"))
	if gone, err := s.RankWords(ctx, email, weights, 5); err != nil || len(gone) != 0 {
		t.Errorf("after send_message left: %v, %v; want nothing", gone, err)
	}
}

// TestRankWordsDamagedPostings: a posting list that cannot be read costs
// nothing but speed: the words query runs through FTS5.
func TestRankWordsDamagedPostings(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	weights := [5]float64{1, 1, 1, 1, 1}
	mustReplace(t, s, "mail", tool("send_message", "Send an email"), tool("list_folders", "List mail folders"))
	if _, err := s.db.Exec("UPDATE word_postings SET postings = x'80' WHERE term = 'email'"); err != nil {
		t.Fatal(err)
	}
	got, err := s.RankWords(ctx, []WordTerm{{Text: "email"}, {Text: "folders"}}, weights, 5)
	want, _ := s.MatchWords(ctx, `"email" OR "folders"`, weights, 5)
	if err != nil || len(got) != 2 || len(want) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("RankWords over a damaged list = %v, %v; want FTS5's %v", got, err, want)
	}
}

// TestPostingsAcrossBatches writes catalogs of real tools large enough
// that the index writer stores their postings in several batches (see
// maxPendingPostings), then changes half of them, then removes them: the
// postings equal FTS5's own after each write (checkIndex).
func TestPostingsAcrossBatches(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: writes 3,000 tools three times, no concurrent code (2 minutes under -race)")
	}
	ctx := context.Background()
	s, _ := openTemp(t)
	tools := benchTools(t, 3000)
	if err := s.ReplaceCatalog(ctx, Server{Name: "big"}, toolSeq(tools...)); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, s)
	for i := range tools {
		if i%2 == 0 {
			tools[i].Doc.Desc += " changed " + tools[(i+7)%len(tools)].Doc.Desc
		}
	}
	if err := s.ReplaceCatalog(ctx, Server{Name: "big"}, toolSeq(tools...)); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, s)
	if err := s.RemoveServer(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, s)
}
