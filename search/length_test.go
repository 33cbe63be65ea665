package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestWordsLegWeighsLength: two tools that hold the intent's words alike,
// one of them described at length, tie in the word table's BM25 (it keeps
// no lengths); the words leg scores the terse one higher by default and
// leaves them tied with LengthNorm off. (Their order also weighs their
// confidence: see confidenceRank.)
func TestWordsLegWeighsLength(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	raws := []json.RawMessage{
		rawTool(t, "a_verbose", "Convert currency amounts. "+strings.Repeat("Rates come from a daily feed kept offline. ", 12)),
		rawTool(t, "b_terse", "Convert currency amounts."),
	}
	for i := range 20 { // a catalog for the mean length to mean something
		raws = append(raws, rawTool(t, fmt.Sprintf("other_%02d", i), "Unrelated tool number "+fmt.Sprint(i)+" of the set."))
	}
	if _, err := Ingest(ctx, st, storeServer("money"), raws, nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		norm      float64
		terseWins bool // else tied
	}{
		{0, true},
		{-1, false},
	} {
		s := New(st, &Options{LengthNorm: tt.norm})
		rs, err := s.Search(ctx, "convert currency amounts", Query{Limit: 2, Legs: []Leg{LegWords}})
		if err != nil {
			t.Fatal(err)
		}
		score := make(map[string]float64)
		for _, r := range rs {
			score[r.Name] = r.Score
		}
		terse, verbose := score["b_terse"], score["a_verbose"]
		if len(rs) != 2 || terse == 0 || verbose == 0 {
			t.Fatalf("LengthNorm %v: ranked %v, want both tools", tt.norm, names(rs))
		}
		if tt.terseWins && terse <= verbose || !tt.terseWins && terse != verbose {
			t.Errorf("LengthNorm %v: scores terse %v, verbose %v; want the terse one %s", tt.norm, terse, verbose,
				map[bool]string{true: "higher", false: "tied"}[tt.terseWins])
		}
	}
}

func rawTool(t *testing.T, name, desc string) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{"type": "object"}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
