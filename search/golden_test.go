package search

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestRankingsGolden records what discovery ranks, and how confident it
// is, for a few intents over the fixture catalog: any change to tuning or
// fusion shows up here as a reviewable diff (go test -run Golden -update).
func TestRankingsGolden(t *testing.T) {
	s, _ := fixtureSearcher(t, nil)
	intents := []string{
		"create a calendar event for tomorrow at 10",
		"send an email to my boss",
		"what's the weather in Paris",
		"open a suport tiket about my broken laptop",
		"remove the file /tmp/x.txt",
		"calender",
		"use helpdesk/close_ticket",
		"list everything in the spam folder",
		"can you help me please",
	}
	var b strings.Builder
	for _, intent := range intents {
		rs, err := s.Search(context.Background(), intent, Query{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\n", intent)
		for _, r := range rs {
			var legs []string
			for _, l := range r.Legs {
				legs = append(legs, fmt.Sprintf("%s#%d", l.Leg, l.Rank))
			}
			fmt.Fprintf(&b, "  %-24s confidence %.2f exact=%v %s\n", r.Server+"/"+r.Name, r.Confidence, r.Exact, strings.Join(legs, " "))
		}
	}
	path := filepath.Join("testdata", "rankings.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("rankings differ from %s (run with -update if intended):\n%s", path, got)
	}
}
