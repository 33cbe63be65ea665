package search

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/capbridge/capbridge/store"
)

// resolve turns fused candidates into results: the named tools first, then
// candidates in fused order, dropping tools out of scope, until limit
// results or the cut. complete says no wider candidate list could change
// the answer (the limit or the cut was reached). Ranking reads only the
// tools' texts (store.ToolDocs); the results' whole rows are read last,
// beside the count of their texts' words, and each result's confidence
// is measured on its whole text (see confidenceScale), or is the tool's
// learned evidence when that is more (see learn.go: the model chose it
// for a request in these words before); a tool the intent names keeps
// confidence 1. The ranked results are then ordered by score and
// confidence together (see confidenceRank).
func (s *Searcher) resolve(ctx context.Context, ranked []candidate, read map[int64]store.Tool, exact []store.Tool, scale confidenceScale, learned map[int64]float64, allowed func(server, tool string) bool, limit int) ([]Result, bool, error) {
	out, complete, err := s.choose(ctx, ranked, read, exact, allowed, limit)
	if err != nil || len(out) == 0 {
		return out, complete, err
	}
	ids := make([]int64, len(out))
	textWords := make(map[int64][]string, len(out))
	var texts []string
	for i, r := range out {
		ids[i] = r.ToolID
		// choose read the name and description the words come from.
		textWords[r.ToolID] = distinctWords(r.Tool.Name, r.Tool.Doc.Desc)
		texts = append(texts, textWords[r.ToolID]...)
	}
	var tools []store.Tool
	var readErr error
	var rows sync.WaitGroup
	rows.Go(func() { tools, readErr = s.st.ToolsByID(ctx, ids) })
	docs, err := s.termDocs(ctx, texts)
	rows.Wait()
	if readErr != nil {
		return nil, false, fmt.Errorf("reading ranked tools: %w", readErr)
	}
	if err != nil {
		return nil, false, fmt.Errorf("weighing result texts: %w", err)
	}
	byID := make(map[int64]store.Tool, len(tools))
	for _, t := range tools {
		byID[t.ID] = t
	}
	kept := out[:0]
	for _, r := range out {
		t, ok := byID[r.ToolID]
		if !ok {
			continue // replaced by a re-index since it was ranked
		}
		r.Tool = t
		r.Learned = learned[t.ID]
		if !r.Exact {
			r.Confidence = scale.of(t.Name, t.Doc, textWords[t.ID], docs)
			if demoted(t.Doc.Desc, namesServer(nameWords(t.Server), t.Name, scale.words)) {
				// It sends the caller elsewhere: no close match.
				r.Confidence *= deprecatedRank
			}
			r.Confidence = max(r.Confidence, r.Learned)
		}
		kept = append(kept, r)
	}
	// Among the results the legs ranked, the match's own measure has a
	// say in their order (see confidenceRank); those the intent names
	// stay first.
	named := 0
	for named < len(kept) && kept[named].Exact {
		named++
	}
	slices.SortStableFunc(kept[named:], func(a, b Result) int {
		return cmp.Compare(b.Score*(1+confidenceRank*b.Confidence), a.Score*(1+confidenceRank*a.Confidence))
	})
	return kept, complete, nil
}

// confidenceRank weighs confidence in the order of the results: each is
// placed by Score times 1 + confidenceRank times its Confidence. The legs
// and boosts rank the catalog; among the few results they put close
// together, how much of the intent each covers, and of it the intent, is
// the better judge ("list collections in mongodb": list-collections, a
// full match, before rename-collection, whose description holds the
// words more often). Tuned on the even halves of the bench sets (MRR:
// BFCL .792 -> .795, MetaTool .531 -> .537; 1 and 3 did as well or
// less); on the held-out odd halves .770 -> .773 and .539 -> .551.
const confidenceRank = 2

// choose is resolve on the tools' texts: its Results' Tool rows lack
// Record, Card and hashes, and their confidence is not yet measured.
func (s *Searcher) choose(ctx context.Context, ranked []candidate, read map[int64]store.Tool, exact []store.Tool, allowed func(server, tool string) bool, limit int) ([]Result, bool, error) {
	var out []Result
	taken := make(map[int64]bool)
	for _, t := range exact {
		if len(out) == limit {
			return out, true, nil
		}
		c := candidateOf(ranked, t.ID)
		out = append(out, Result{ToolID: t.ID, Server: t.Server, Name: t.Name, Score: c.fused,
			Confidence: 1, Exact: true, Legs: c.legs, Tool: t})
		taken[t.ID] = true
	}
	best := -1.0
	chunk := max(2*limit, 8)
	for start := 0; start < len(ranked); start += chunk {
		part := ranked[start:min(start+chunk, len(ranked))]
		tools, err := s.tools(ctx, part, read, taken)
		if err != nil {
			return nil, false, err
		}
		for _, t := range tools {
			if len(out) == limit {
				return out, true, nil
			}
			if t.Refusal != "" || (allowed != nil && !allowed(t.Server, t.Name)) {
				continue
			}
			c := candidateOf(part, t.ID)
			if best < 0 {
				best = c.fused
			}
			if c.fused < s.cut*best {
				return out, true, nil // the rest rank lower still
			}
			out = append(out, Result{ToolID: t.ID, Server: t.Server, Name: t.Name, Score: c.fused,
				Legs: c.legs, Tool: t})
		}
	}
	return out, len(out) == limit, nil
}

// candidateOf returns the candidate of cs with id, or none (a tool the
// legs did not find). cs is short: a chunk of the ranking, or the ranking
// searched once for each tool the intent names.
func candidateOf(cs []candidate, id int64) candidate {
	for _, c := range cs {
		if c.id == id {
			return c
		}
	}
	return candidate{}
}

// tools returns the rows of part's candidates not taken, in order, from
// read when it holds them, else from the store.
func (s *Searcher) tools(ctx context.Context, part []candidate, read map[int64]store.Tool, taken map[int64]bool) ([]store.Tool, error) {
	var missing []int64
	for _, c := range part {
		if _, ok := read[c.id]; !ok && !taken[c.id] {
			missing = append(missing, c.id)
		}
	}
	if len(missing) > 0 {
		got, err := s.st.ToolDocs(ctx, missing)
		if err != nil {
			return nil, fmt.Errorf("reading ranked tools: %w", err)
		}
		if read == nil {
			read = make(map[int64]store.Tool, len(got))
		}
		for _, t := range got {
			read[t.ID] = t
		}
	}
	out := make([]store.Tool, 0, len(part))
	for _, c := range part {
		if t, ok := read[c.id]; ok && !taken[c.id] {
			out = append(out, t)
		}
	}
	return out, nil
}
