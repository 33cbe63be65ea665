package search

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// ReplayReport is what a replay of a query set measured (see Replay).
type ReplayReport struct {
	// All scores every query, each before it was learned from.
	All Metrics `json:"all"`
	// Later scores the later half of the queries in their order, after
	// the bridge learned from the first half.
	Later Metrics `json:"later"`
	// Learned counts the runs learned from; Mistakes those of them that
	// ran a wrong tool, the right one not being among the cards.
	Learned  int `json:"learned"`
	Mistakes int `json:"mistakes"`
}

// Replay runs qs through s in order, as a model using discovery would,
// and learns from each when q.Learning is set: the simulated model runs
// the first relevant tool among the cards it is shown (q.Limit of them),
// else the first card, a mistake the bridge learns from all the same (it
// cannot tell). Each query is scored before it is learned from, so every
// figure is measured on queries after the ones learned from; the later
// half's figures show what learning reached. Replay writes learned runs
// to s's store: use a store made for it.
func Replay(ctx context.Context, s *Searcher, qs []EvalQuery, q Query, tools int) (ReplayReport, error) {
	var all, later tally
	var rep ReplayReport
	for i, eq := range qs {
		start := time.Now()
		rs, err := s.Search(ctx, eq.Query, q)
		took := time.Since(start)
		if err != nil {
			return rep, fmt.Errorf("replaying query %d %q: %w", i, eq.Query, err)
		}
		ranked := make([]ToolKey, len(rs))
		for j, r := range rs {
			ranked[j] = ToolKey{Server: r.Server, Name: r.Name}
		}
		all.add(ranked, eq.Relevant, anyConfident(rs), took)
		if i >= len(qs)/2 {
			later.add(ranked, eq.Relevant, anyConfident(rs), took)
		}
		if !q.Learning || len(rs) == 0 {
			continue
		}
		ran := rs[0]
		if j := slices.IndexFunc(ranked, func(k ToolKey) bool { return slices.Contains(eq.Relevant, k) }); j >= 0 {
			ran = rs[j]
		} else {
			rep.Mistakes++
		}
		if err := s.Learn(ctx, []Run{{Intent: eq.Query, Server: ran.Server, Tool: ran.Name, Hash: ran.Tool.Hash, Weight: 1}}); err != nil {
			return rep, fmt.Errorf("replaying query %d %q: %w", i, eq.Query, err)
		}
		rep.Learned++
	}
	rep.All, rep.Later = all.metrics(tools), later.metrics(tools)
	return rep, nil
}
