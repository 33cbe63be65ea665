package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"
	"unicode/utf8"
)

// ServerAbout says what one server's tools work on, for a discovery that
// found no close match: the model may ask again in these words.
type ServerAbout struct {
	Server string
	// Tools counts its searchable tools.
	Tools int
	// Words are the words its tools' names share that tell it from the
	// other servers (file, directory; entities, relations), at most
	// maxAboutWords, the most telling first.
	Words []string
}

// Bounds of a server map.
const (
	maxAboutWords = 5
	minAboutRunes = 3
)

// ServerMap says what each server allowed is for (see ServerAbout), the
// servers whose tools share the intent's words first (see serverContexts),
// then those with most tools. A word of a server's tool names is telling
// when several of its tools' names hold it and few other servers' do: it
// weighs the share of the server's tools holding it times ln(1 + n/m)
// squared, n servers of which m hold it; a word more than half the servers
// hold (get, list, create) tells none from another and is left out, as
// are words of the server's own name, stop words, numbers, words under
// minAboutRunes runes, and a plural beside its singular.
func (s *Searcher) ServerMap(ctx context.Context, intent string, allowed func(server string) bool) ([]ServerAbout, error) {
	all, err := s.toolNameWords(ctx)
	if err != nil {
		return nil, fmt.Errorf("mapping servers: %w", err)
	}
	// Each allowed server's name words, and how many servers hold each.
	held := make(map[string]serverWords)
	servers := make(map[string]int)
	for server, sw := range all {
		if allowed != nil && !allowed(server) {
			continue
		}
		held[server] = sw
		for w := range sw.counts {
			servers[w]++
		}
	}
	var contexts map[string]float64
	if p := s.plan(ctx, intent); !p.empty() {
		p.awaitFixes()
		if contexts, err = s.serverContexts(ctx, p, s.rarity(ctx, p)); err != nil {
			return nil, fmt.Errorf("mapping servers: %w", err)
		}
	}
	out := make([]ServerAbout, 0, len(held))
	for server, sw := range held {
		counts, n := sw.counts, sw.tools
		type scored struct {
			w string
			s float64
		}
		var ws []scored
		for w, c := range counts {
			if c < 2 && n > 2 {
				continue // one tool's word says what that tool does
			}
			if 2*servers[w] > len(held) && len(held) >= 3 {
				continue
			}
			if slices.ContainsFunc(singulars(w), func(sg string) bool { return counts[sg] > 0 }) {
				continue // files beside file
			}
			idf := math.Log(1 + float64(len(held))/float64(servers[w]))
			ws = append(ws, scored{w, float64(c) / float64(n) * idf * idf})
		}
		slices.SortFunc(ws, func(a, b scored) int {
			if c := cmp.Compare(b.s, a.s); c != 0 {
				return c
			}
			return cmp.Compare(a.w, b.w)
		})
		about := ServerAbout{Server: server, Tools: n}
		for _, x := range ws[:min(len(ws), maxAboutWords)] {
			about.Words = append(about.Words, x.w)
		}
		out = append(out, about)
	}
	slices.SortFunc(out, func(a, b ServerAbout) int {
		if c := cmp.Compare(contexts[b.Server], contexts[a.Server]); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Tools, a.Tools); c != 0 {
			return c
		}
		return cmp.Compare(a.Server, b.Server)
	})
	return out, nil
}

// serverWords is what one server's tool names hold, for its line of the
// map: how many of its tools hold each word (of minAboutRunes runes or
// more, not of the server's own name), of how many tools.
type serverWords struct {
	counts map[string]int
	tools  int
}

// toolNameWords returns each server's serverWords over its searchable tools,
// reused for toolCountTTL like the catalog's size: splitting every tool
// name of a large catalog on each discovery that finds no close match
// cost more than the search itself (5,000 tools: ~1.3 MB and tens of
// milliseconds a discovery).
func (s *Searcher) toolNameWords(ctx context.Context) (map[string]serverWords, error) {
	s.mapMu.Lock()
	defer s.mapMu.Unlock()
	if s.mapWords != nil && time.Since(s.mapAt) <= toolCountTTL {
		return s.mapWords, nil
	}
	names, err := s.st.ToolNames(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]serverWords, len(names))
	for server, tools := range names {
		own := nameWords(server)
		counts := make(map[string]int)
		for _, tool := range tools {
			for _, w := range nameTerms(tool) {
				if utf8.RuneCountInString(w) >= minAboutRunes && !slices.Contains(own, w) {
					counts[w]++
				}
			}
		}
		out[server] = serverWords{counts: counts, tools: len(tools)}
	}
	s.mapWords, s.mapAt = out, time.Now()
	return out, nil
}
