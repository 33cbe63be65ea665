package search

import (
	"context"
	"math"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// ftsExpr is the FTS5 query of a words query's terms, written apart from
// the store's own.
func ftsExpr(ts []store.WordTerm) string {
	var plain, names []string
	for _, t := range ts {
		if t.NameOnly {
			names = append(names, t.Text)
		} else {
			plain = append(plain, t.Text)
		}
	}
	expr := orQuery(plain)
	for _, n := range names {
		if expr != "" {
			expr += " OR "
		}
		expr += "name : " + quote(n)
	}
	return expr
}

// TestRankWordsMatchesFTS5 scores every words and synonym query that the
// public sets' requests make over the laptop catalog twice: from the
// store's posting lists (RankWords) and by FTS5's bm25 (MatchWords). The
// tools, their order and their scores must agree, whole and cut at the
// search's candidate count.
func TestRankWordsMatchesFTS5(t *testing.T) {
	ctx := context.Background()
	s := laptopSearcher(t)
	queries := benchQueries(t)
	if testing.Short() || raceEnabled {
		queries = queries[:100] // -race: the words leg is no concurrent code
	}
	compared := 0
	for _, q := range queries {
		p := s.plan(ctx, q)
		p.awaitFixes()
		for _, ts := range [][]store.WordTerm{p.wordTerms, p.synTerms, append(p.wordTerms, store.WordTerm{Text: "files", NameOnly: true})} {
			if len(ts) == 0 {
				continue
			}
			for _, limit := range []int{0, s.cands} {
				got, err := s.st.RankWords(ctx, ts, s.columns, limit)
				if err != nil {
					t.Fatal(err)
				}
				want, err := s.st.MatchWords(ctx, ftsExpr(ts), s.columns, limit)
				if err != nil {
					t.Fatal(err)
				}
				compared++
				if len(got) != len(want) {
					t.Errorf("%q %v limit %d: %d hits, FTS5 %d", q, ts, limit, len(got), len(want))
					continue
				}
				for i := range got {
					g, w := got[i], want[i]
					if g.ID != w.ID || g.Key != w.Key || g.Len != w.Len || math.Abs(g.Score-w.Score) > 1e-9*math.Abs(w.Score) {
						t.Errorf("%q %v limit %d: hit %d is %+v, FTS5 %+v", q, ts, limit, i, g, w)
						break
					}
				}
			}
		}
	}
	t.Logf("%d queries compared", compared)
}
