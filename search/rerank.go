package search

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/capbridge/capbridge/store"
)

// boostNames multiplies the fused score of the first depth candidates by
// 1 + boost * coverage, where coverage in [0, 1] is the share of the
// tool's name words (stop words aside) that the intent holds. Among
// near-duplicate tools (find_recipe, recipe_finder.find, get_vegan_recipe)
// it prefers the one whose whole name the intent spells out. The rows it
// reads are returned for resolve to reuse.
func (s *Searcher) boostNames(ctx context.Context, ranked []candidate, words []string, depth int) (map[int64]store.Tool, error) {
	top := ranked[:min(depth, len(ranked))]
	if len(top) == 0 || s.nameBoost <= 0 {
		return nil, nil
	}
	ids := make([]int64, len(top))
	for i, c := range top {
		ids[i] = c.id
	}
	tools, err := s.st.ToolsByID(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("reading ranked tools: %w", err)
	}
	byID := make(map[int64]store.Tool, len(tools))
	for _, t := range tools {
		byID[t.ID] = t
	}
	for i := range top {
		if t, ok := byID[top[i].id]; ok {
			top[i].fused *= 1 + s.nameBoost*nameCoverage(t.Name, words)
		}
	}
	slices.SortStableFunc(ranked, func(a, b candidate) int { return cmp.Compare(b.fused, a.fused) })
	return byID, nil
}

// nameCoverage is the share of name's words (stop words aside) that match
// a word of the intent: equal, or sharing a prefix of at least three runes
// that spans the shorter word or five runes (info/information,
// calc/calculate, find/finder).
func nameCoverage(name string, intentWords []string) float64 {
	seen := make(map[string]bool)
	total, hit := 0, 0
	for _, nw := range nameWords(name) {
		if stopWords[nw] || seen[nw] {
			continue
		}
		seen[nw] = true
		total++
		for _, qw := range intentWords {
			if wordsMatch(nw, qw) {
				hit++
				break
			}
		}
	}
	if total == 0 {
		return 0
	}
	return float64(hit) / float64(total)
}

func wordsMatch(a, b string) bool {
	if a == b {
		return true
	}
	ra, rb := []rune(a), []rune(b)
	need := min(len(ra), len(rb), 5)
	if need < 3 {
		return false
	}
	for i := range need {
		if ra[i] != rb[i] {
			return false
		}
	}
	return true
}
