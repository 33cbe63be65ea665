package search

import (
	"context"
	"fmt"

	"github.com/capbridge/capbridge/store"
)

// resolve turns fused candidates into results: the named tools first, then
// candidates in fused order, dropping tools out of scope, until limit
// results or the cut. complete says no wider candidate list could change
// the answer (the limit or the cut was reached).
func (s *Searcher) resolve(ctx context.Context, ranked []candidate, exact []store.Tool, answered [numLegs]bool, allowed func(server, tool string) bool, limit int) ([]Result, bool, error) {
	ceiling := s.fusion.ceiling(answered)
	fusedByID := make(map[int64]candidate, len(ranked))
	for _, c := range ranked {
		fusedByID[c.id] = c
	}
	var out []Result
	taken := make(map[int64]bool)
	for _, t := range exact {
		if len(out) == limit {
			return out, true, nil
		}
		c := fusedByID[t.ID]
		out = append(out, Result{ToolID: t.ID, Server: t.Server, Name: t.Name, Score: c.fused,
			Confidence: 1, Exact: true, Legs: c.legs, Tool: t})
		taken[t.ID] = true
	}
	best := -1.0
	chunk := max(2*limit, 8)
	for start := 0; start < len(ranked); start += chunk {
		part := ranked[start:min(start+chunk, len(ranked))]
		ids := make([]int64, 0, len(part))
		for _, c := range part {
			if !taken[c.id] {
				ids = append(ids, c.id)
			}
		}
		tools, err := s.st.ToolsByID(ctx, ids)
		if err != nil {
			return nil, false, fmt.Errorf("reading ranked tools: %w", err)
		}
		for _, t := range tools {
			if len(out) == limit {
				return out, true, nil
			}
			if t.Refusal != "" || (allowed != nil && !allowed(t.Server, t.Name)) {
				continue
			}
			c := fusedByID[t.ID]
			if best < 0 {
				best = c.fused
			}
			if c.fused < s.cut*best {
				return out, true, nil // the rest rank lower still
			}
			out = append(out, Result{ToolID: t.ID, Server: t.Server, Name: t.Name, Score: c.fused,
				Confidence: confidence(c.fused, ceiling), Legs: c.legs, Tool: t})
		}
	}
	return out, len(out) == limit, nil
}

// confidence is fused / ceiling, clamped to [0, 1].
func confidence(fused, ceiling float64) float64 {
	if ceiling <= 0 {
		return 0
	}
	return min(1, max(0, fused/ceiling))
}
