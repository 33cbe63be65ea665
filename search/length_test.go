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
// no lengths); the words leg ranks the terse one first by default and
// leaves them tied, in name order, with LengthNorm off.
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
		norm float64
		want []string
	}{
		{0, []string{"money/b_terse", "money/a_verbose"}},
		{-1, []string{"money/a_verbose", "money/b_terse"}},
	} {
		s := New(st, &Options{LengthNorm: tt.norm})
		rs, err := s.Search(ctx, "convert currency amounts", Query{Limit: 2, Legs: []Leg{LegWords}})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(rs); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("LengthNorm %v: ranked %v, want %v", tt.norm, got, tt.want)
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
