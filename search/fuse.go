package search

import (
	"cmp"
	"slices"
)

// Leg is one way of ranking tools for an intent.
type Leg int

// The legs, in the order results report them.
const (
	LegWords    Leg = iota // BM25 over words, porter-stemmed (store.RankWords)
	LegTrigrams            // FTS5 trigrams: typos and fragments
	LegVectors             // sqlite-vec KNN over embeddings
	numLegs
)

// AllLegs lists every leg, for callers that run them one at a time.
var AllLegs = []Leg{LegWords, LegTrigrams, LegVectors}

func (l Leg) String() string {
	switch l {
	case LegWords:
		return "words"
	case LegTrigrams:
		return "trigrams"
	case LegVectors:
		return "vectors"
	}
	return "unknown"
}

// LegHit is where one leg placed a result: its 1-based rank and its raw
// score in that leg (higher is better: -bm25 for the FTS5 legs,
// 1/(1+distance) for vectors).
type LegHit struct {
	Leg   Leg
	Rank  int
	Score float64
}

// hit is one leg's answer for one tool, before fusion. It mirrors
// store.Hit so that fusion can be tested without a database.
type hit struct {
	id    int64
	score float64
	key   string // store.Hit.Key: server and name, for ties
}

// candidate is one tool after fusion.
type candidate struct {
	id    int64
	key   string // server and name, for ties; "" if no leg gave it
	fused float64
	legs  []LegHit
}

// fusion holds the tuning of the reciprocal-rank fusion.
type fusion struct {
	weights [numLegs]float64
	k       float64
}

// fuse merges the legs' ranked hits by score-weighted reciprocal-rank
// fusion: a tool at rank r (1-based) in leg l with score s earns
//
//	weight[l] * (s / best[l]) / (k + r)
//
// where best[l] is the top score of that leg for this intent, and its fused
// score is the sum over legs. Scaling by s/best keeps RRF's robustness to
// incomparable score scales while letting a clear gap inside a leg show in
// the fused score, which is what the cut below the best result measures.
// Legs with no positive score fall back to plain RRF. Hits of equal score
// share the rank of the first of them, so that tools a leg cannot tell
// apart fuse alike whatever order it listed them in. The result is in
// fused order, ties broken by the words leg, then by key (server and
// name) and id, never by indexing order alone.
func (f fusion) fuse(legs [numLegs][]hit) []candidate {
	total := 0
	for _, hits := range legs {
		total += len(hits)
	}
	byID := make(map[int64]int, total)
	out := make([]candidate, 0, total)
	for l, hits := range legs {
		if len(hits) == 0 {
			continue
		}
		best := hits[0].score
		for _, h := range hits {
			best = max(best, h.score)
		}
		rank := 0
		for i, h := range hits {
			if i == 0 || h.score != hits[i-1].score {
				rank = i + 1
			}
			q := 1.0
			if best > 0 && h.score > 0 {
				q = h.score / best
			} else if best > 0 {
				q = 0
			}
			j, ok := byID[h.id]
			if !ok {
				j = len(out)
				byID[h.id] = j
				out = append(out, candidate{id: h.id})
			}
			c := &out[j]
			if c.key == "" {
				c.key = h.key
			}
			c.fused += f.weights[l] * q / (f.k + float64(rank))
			c.legs = append(c.legs, LegHit{Leg: Leg(l), Rank: rank, Score: h.score})
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int {
		if c := cmp.Compare(b.fused, a.fused); c != 0 {
			return c
		}
		if c := cmp.Compare(a.wordsRank(), b.wordsRank()); c != 0 {
			return c
		}
		return a.tieBreak(b)
	})
	return out
}

// tieBreak orders candidates of equal standing by key (server, name),
// then id.
func (c candidate) tieBreak(o candidate) int {
	if r := cmp.Compare(c.key, o.key); r != 0 {
		return r
	}
	return cmp.Compare(c.id, o.id)
}

// wordsRank is the candidate's rank in the words leg, or a large number.
func (c candidate) wordsRank() int {
	for _, h := range c.legs {
		if h.Leg == LegWords {
			return h.Rank
		}
	}
	return 1 << 30
}
