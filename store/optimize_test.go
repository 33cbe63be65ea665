package store

import (
	"context"
	"fmt"
	"testing"
)

// TestSearchIndexMerged stores a catalog one server at a time, then
// removes and refreshes servers: after each write every search table's
// index is one segment, and it still answers.
func TestSearchIndexMerged(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	segments := func(t *testing.T) {
		t.Helper()
		for _, table := range []string{"tool_words", "tool_trigrams"} {
			if n := count(t, s, "SELECT count(DISTINCT segid) FROM "+table+"_idx"); n != 1 {
				t.Errorf("%s has %d index segments, want 1", table, n)
			}
		}
	}
	steps := []struct {
		name  string
		write func() error
		found int // tools holding "weather" after it
	}{
		{"stored one server at a time", func() error {
			for i := range 20 {
				srv := Server{Name: fmt.Sprintf("srv%02d", i)}
				if err := s.ReplaceCatalog(ctx, srv, toolSeq(tool(fmt.Sprintf("tool_%d", i), "sends weather reports"))); err != nil {
					return err
				}
			}
			return nil
		}, 20},
		{"server removed", func() error { return s.RemoveServer(ctx, "srv03") }, 19},
		{"server refreshed unchanged", func() error {
			return s.ReplaceCatalog(ctx, Server{Name: "srv04"}, toolSeq(tool("tool_4", "sends weather reports")))
		}, 19},
		{"server changed", func() error {
			return s.ReplaceCatalog(ctx, Server{Name: "srv05"}, toolSeq(tool("tool_5", "forecasts rain")))
		}, 18},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := st.write(); err != nil {
				t.Fatal(err)
			}
			segments(t)
			hits, err := s.MatchWords(ctx, `"weather"`, [5]float64{1, 1, 1, 1, 1}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != st.found {
				t.Errorf("MatchWords(weather) found %d tools, want %d", len(hits), st.found)
			}
		})
	}
}
