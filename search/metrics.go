package search

import (
	"math"
	"slices"
	"time"
)

// ToolKey names one tool across servers.
type ToolKey struct {
	Server string `json:"server"`
	Name   string `json:"name"`
}

// Metrics are retrieval figures averaged over a query set, defined as in
// ../shared/bench/eval_bm25_reference.py: recall@k = |top-k ∩ relevant| /
// |relevant|; hit@5 = 1 if any relevant tool is in the top 5; MRR = 1 / rank
// of the first relevant tool among the returned results (0 if none). The
// reference ranks 100 tools; here the ranked list is what Search returned
// for the evaluation limit, exactly what discovery would show.
//
// A query whose relevant list is empty is an absent case: no tool of the
// catalog serves it, and the right answer is no close match (no result at
// ConfidentAt or above). Recall, hit@5 and MRR average over the present
// queries only; RightFirst and RightFive count both kinds.
type Metrics struct {
	Recall1 float64 `json:"recall@1"`
	Recall3 float64 `json:"recall@3"`
	Recall5 float64 `json:"recall@5"`
	Hit5    float64 `json:"hit@5"`
	MRR     float64 `json:"mrr"`
	P50ms   float64 `json:"p50_ms"`
	P95ms   float64 `json:"p95_ms"`
	Queries int     `json:"queries"`
	Tools   int     `json:"tools"`
	// Absent counts the absent cases among Queries.
	Absent int `json:"absent,omitempty"`
	// RightFirst is the share of queries answered right by the first
	// result: a relevant tool, or for an absent case no close match.
	RightFirst float64 `json:"right_first"`
	// RightFive is the same with a relevant tool among the first five.
	RightFive float64 `json:"right_five"`
}

// tally accumulates Metrics one query at a time.
type tally struct {
	sum       Metrics
	latencies []time.Duration
}

// add scores one query: ranked is what the search returned, best first;
// confident says some result reached ConfidentAt.
func (t *tally) add(ranked []ToolKey, relevant []ToolKey, confident bool, took time.Duration) {
	rel := make(map[ToolKey]bool, len(relevant))
	for _, r := range relevant {
		rel[r] = true
	}
	t.sum.Queries++
	t.latencies = append(t.latencies, took)
	if len(rel) == 0 {
		t.sum.Absent++
		if !confident {
			t.sum.RightFirst++
			t.sum.RightFive++
		}
		return
	}
	recall := func(k int) float64 {
		seen := make(map[ToolKey]bool)
		for _, r := range ranked[:min(k, len(ranked))] {
			if rel[r] {
				seen[r] = true
			}
		}
		return float64(len(seen)) / float64(len(rel))
	}
	t.sum.Recall1 += recall(1)
	t.sum.Recall3 += recall(3)
	t.sum.Recall5 += recall(5)
	if recall(5) > 0 {
		t.sum.Hit5++
		t.sum.RightFive++
	}
	if recall(1) > 0 {
		t.sum.RightFirst++
	}
	for i, r := range ranked {
		if rel[r] {
			t.sum.MRR += 1 / float64(i+1)
			break
		}
	}
}

// metrics returns the averages, with latency percentiles in milliseconds.
func (t *tally) metrics(tools int) Metrics {
	m := t.sum
	m.Tools = tools
	if n := float64(m.Queries - m.Absent); n > 0 {
		m.Recall1 = round4(m.Recall1 / n)
		m.Recall3 = round4(m.Recall3 / n)
		m.Recall5 = round4(m.Recall5 / n)
		m.Hit5 = round4(m.Hit5 / n)
		m.MRR = round4(m.MRR / n)
	}
	if n := float64(m.Queries); n > 0 {
		m.RightFirst = round4(m.RightFirst / n)
		m.RightFive = round4(m.RightFive / n)
	}
	m.P50ms = percentileMS(t.latencies, 50)
	m.P95ms = percentileMS(t.latencies, 95)
	return m
}

// Percentile is the nearest-rank percentile p (0 to 100) of ds; 0 for no
// samples. ds is left as it is.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// percentileMS is [Percentile] in milliseconds rounded to microseconds.
func percentileMS(ds []time.Duration, p float64) float64 {
	return math.Round(float64(Percentile(ds, p).Microseconds())) / 1000
}

// round4 rounds to four decimals, as the reference script prints.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
