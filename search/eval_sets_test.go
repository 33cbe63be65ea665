package search

import (
	"context"
	"testing"
)

// TestEvalTargets runs discovery over both bench sets and holds the odd
// (held-out) half to the targets. It runs 4,000 searches over two
// real catalogs: skipped in -short mode and under the race detector, which
// makes it take minutes (the figures do not depend on either).
func TestEvalTargets(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("heavy: 4,000 searches; run without -short and -race")
	}
	tests := []struct {
		set          string
		recall3, mrr float64
	}{
		// Issue 15's floors: BFCL MRR >= .77, MetaTool recall@3 >= .59.
		{"retrieval_bfcl", 0.80, 0.77},
		{"retrieval_metatool", 0.59, 0},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			st := openStore(t)
			tools, qs := loadSet(t, st, tt.set)
			s := New(st, nil)
			for _, half := range []string{"even", "odd"} {
				hq, _ := Half(qs, half)
				m, err := Evaluate(context.Background(), s, hq, Query{Limit: 5}, tools)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s %s: %+v", tt.set, half, m)
				if half == "odd" && (m.Recall3 < tt.recall3 || m.MRR < tt.mrr) {
					t.Errorf("%s odd half: recall@3 %.3f (want >= %.2f), MRR %.3f (want >= %.2f)", tt.set, m.Recall3, tt.recall3, m.MRR, tt.mrr)
				}
			}
		})
	}
}
