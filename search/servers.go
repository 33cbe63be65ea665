package search

import (
	"context"
	"strings"

	"github.com/capbridge/capbridge/internal/stem"
)

// Server context: a server is for something, and its tools share the
// words that say what. A request whose words the tools of one server hold
// again and again (a file and a folder to the servers that work on this
// machine's files, a page and a click to the browsers) belongs to that
// server more than to one whose single tool happens to hold them: the
// server's share of an intent word is the share of its searchable tools
// whose name or description holds it, counted over serverPrior more tools
// than it has, and only the tool's siblings count: one holder less, as
// the tool's own words are weighed by the boosts already (so a server of
// one tool has no context, and a catalog of a server a tool, MetaTool,
// ranks as before). The intent's context for a server is the mean of its shares of
// the intent's words, each weighed by rarity in the catalog (see
// Searcher.rarity: a word every tool holds tells nothing), a word's share
// being its own or, at synonymCover, its synonyms' (a folder to the
// servers whose tools say directory). boostNames
// lifts each candidate by 1 + serverContext times its server's context.
//
// The evidence is the catalog's own words, not a rule per request or per
// tool, so it weighs alike in any catalog; a catalog of one server (BFCL)
// lifts every tool alike. serverContext was chosen on the tuned everyday
// requests (testdata/everyday/tuned.jsonl: among five .790 -> .823, first
// .677 -> .694, flat from 2 to 6) with the bench sets' even halves
// unchanged.
const (
	serverPrior   = 2.0
	serverContext = 3.0
)

// serverContexts returns each server's context for the plan's words as
// meant, weighed by weights (see rarity), for the servers holding any.
func (s *Searcher) serverContexts(ctx context.Context, p *plan, weights []float64) (map[string]float64, error) {
	var total float64
	var toks []string
	// Each intent word's token and its synonyms' tokens (one-word ones).
	words := make(map[string]string)
	syns := make(map[string][]string)
	for i, w := range p.meant {
		if weights[i] == 0 || isPiece(w) {
			continue
		}
		tok := stem.Porter(w)
		if _, dup := words[tok]; dup {
			continue
		}
		words[tok] = w
		toks = append(toks, tok)
		total += weights[i]
		for _, o := range s.syn.of(w) {
			if !strings.Contains(o, " ") {
				st := stem.Porter(o)
				syns[tok] = append(syns[tok], st)
				toks = append(toks, st)
			}
		}
	}
	if total == 0 {
		return nil, nil
	}
	sw, err := s.st.ServerWords(ctx, toks)
	if err != nil {
		return nil, err
	}
	// A tool's own words are its own evidence (the boosts weigh them):
	// the server's share counts the others, one holder less.
	share := func(tok, server string) float64 {
		return float64(max(sw.Holding[tok][server]-1, 0)) / (float64(sw.Tools[server]-1) + serverPrior)
	}
	out := make(map[string]float64)
	for i, w := range p.meant {
		tok := stem.Porter(w)
		if words[tok] != w || weights[i] == 0 {
			continue // a repeat, or a word the catalog lacks
		}
		best := make(map[string]float64)
		for server := range sw.Holding[tok] {
			best[server] = share(tok, server)
		}
		for _, st := range syns[tok] {
			for server := range sw.Holding[st] {
				best[server] = max(best[server], synonymCover*share(st, server))
			}
		}
		for server, b := range best {
			out[server] += weights[i] * b / total
		}
	}
	return out, nil
}
