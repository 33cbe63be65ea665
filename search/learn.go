package search

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/capbridge/capbridge/internal/stem"
	"github.com/capbridge/capbridge/store"
)

// Learning from use. Each run the model makes after a discovery says
// which tool it chose for which intent (a Run); the store keeps the last
// store.MaxLearned of them, on this machine only, for the tool's
// definition as it was (store.Learned). A search with Query.Learning
// lifts the tools chosen for similar intents before.
//
// The runs are gathered by tool: a tool's learned words are the stemmed
// words of the intents it was chosen for, each counted by its runs'
// weights (1 for a run that succeeded, less for weaker evidence: see
// Run.Weight), a weight halved for every learnHalfLife of the run's age.
// A tool's evidence for an intent is the share of the intent's words that
// its learned words hold, each intent word weighed by how few tools'
// learned words hold it, ln(1 + n/df) (a word every learned intent holds,
// "find" or "data", tells little of which tool was meant), and counted
// tf/(tf+learnSaturation) of its weight, tf its weight among the tool's
// learned words: one run of a word counts two thirds, three runs six
// sevenths. Evidence under minLearnedSim counts nothing, and only the
// learnTop tools with most evidence are lifted: their fused score gains
// learnLift times the evidence of a first place in one leg, 1/(k+1), and
// a tool no leg found joins the candidates so.
//
// Tuned on the even half of MetaTool replayed in order (capbridge eval
// --replay), where learning moves recall@3 of the later half by about a
// hundredth: its requests for one tool are paraphrases sharing few
// words, so what was learned from one seldom covers the next. A request
// asked again in the same words is what it lifts.
const (
	learnHalfLife   = 30 * 24 * time.Hour
	minLearnedSim   = 0.2
	learnLift       = 2.0
	learnSaturation = 0.5
	learnTop        = 3
)

// Run is one run the model made after a discovery.
type Run struct {
	// Intent is what the discovery that showed the tool's card asked.
	Intent string
	// Server, Tool and Hash name the tool and its definition as its card
	// showed it.
	Server, Tool, Hash string
	// Weight is the evidence, in (0, 1]: 1 for a run that succeeded.
	Weight float64
	// At is when it ran; zero means now.
	At time.Time
}

// Learn stores runs for later searches with Query.Learning. A run whose
// intent has no word worth keeping is left out.
func (s *Searcher) Learn(ctx context.Context, runs []Run) error {
	var ls []store.Learned
	for _, r := range runs {
		ws := learnWords(r.Intent)
		if len(ws) == 0 {
			continue
		}
		ls = append(ls, store.Learned{At: r.At, Words: ws, Server: r.Server, Tool: r.Tool, Hash: r.Hash, Weight: r.Weight})
	}
	if len(ls) == 0 {
		return nil
	}
	if err := s.st.AddLearned(ctx, ls); err != nil {
		return fmt.Errorf("learning: %w", err)
	}
	return nil
}

// learnWords returns the words of intent learning compares: the search's
// words (stop words aside, values read for what they imply), numbers
// aside, stemmed, each once.
func learnWords(intent string) []string {
	var out []string
	for _, w := range queryWords(intent) {
		if isNumber(w) {
			continue
		}
		if st := stem.Porter(w); !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	return out
}

// learnedIndex is the learned runs of one store version, gathered by
// tool: each tool's learned words are those of the intents it was chosen
// for, each counted by its runs' weights.
type learnedIndex struct {
	tools  map[int64]map[string]float64 // each tool's words, weighed
	byWord map[string][]int64           // the tools holding each word
}

func newLearnedIndex() *learnedIndex {
	return &learnedIndex{tools: make(map[int64]map[string]float64), byWord: make(map[string][]int64)}
}

// add gathers uses by tool, decaying each run's weight to now.
func (x *learnedIndex) add(uses []store.LearnedUse, now time.Time) {
	for _, u := range uses {
		age := max(now.Sub(u.At), 0)
		weight := u.Weight * math.Exp2(-float64(age)/float64(learnHalfLife))
		words := x.tools[u.ToolID]
		if words == nil {
			words = make(map[string]float64)
			x.tools[u.ToolID] = words
		}
		for _, w := range u.Words {
			if words[w] == 0 {
				x.byWord[w] = append(x.byWord[w], u.ToolID)
			}
			words[w] += weight
		}
	}
}

// idf weighs a word by how few tools' learned words hold it: a word none
// holds weighs as one a single tool holds.
func (x *learnedIndex) idf(w string) float64 {
	return math.Log(1 + float64(len(x.tools))/float64(max(len(x.byWord[w]), 1)))
}

// evidence returns each tool's evidence for an intent of words (see
// learnWords), for the tools that have some: the share of the intent's
// words, by their idf, that the tool's learned words hold, each word
// counting tf/(tf+learnSaturation) of its weight, tf its runs' weight.
func (x *learnedIndex) evidence(words []string) map[int64]float64 {
	if x == nil || len(x.tools) == 0 || len(words) == 0 {
		return nil
	}
	var total float64
	idfs := make([]float64, len(words))
	for i, w := range words {
		idfs[i] = x.idf(w)
		total += idfs[i]
	}
	got := make(map[int64]float64)
	for i, w := range words {
		for _, id := range x.byWord[w] {
			tf := x.tools[id][w]
			got[id] += idfs[i] * tf / (tf + learnSaturation)
		}
	}
	out := make(map[int64]float64)
	for id, g := range got {
		if e := g / total; e >= minLearnedSim {
			out[id] = e
		}
	}
	if len(out) > learnTop {
		es := slices.Sorted(maps.Values(out))
		cut := es[len(es)-learnTop]
		maps.DeleteFunc(out, func(_ int64, e float64) bool { return e < cut })
	}
	return out
}

// learnedCache holds the index of the learned runs as last read.
type learnedCache struct {
	mu     sync.Mutex
	index  *learnedIndex
	base   string    // the version's base the index was read at
	newest int64     // the newest run it holds
	read   time.Time // when it was read whole: decay is measured from then
}

// learnedReread bounds how long a learned index decays its runs from the
// time it was read whole before it is read again.
const learnedReread = time.Hour

// learned returns each tool's evidence for intent from the learned runs,
// reading the newer runs when some were added, and all of them again when
// one was deleted, the catalog changed or learnedReread passed.
func (s *Searcher) learned(ctx context.Context, intent string) (map[int64]float64, error) {
	v, err := s.st.LearnedVersion(ctx)
	if err != nil {
		return nil, err
	}
	c := &s.learnCache
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	whole := c.index == nil || v.Base != c.base || v.Newest < c.newest || now.Sub(c.read) > learnedReread
	if whole || v.Newest > c.newest {
		after := c.newest
		if whole {
			after = 0
		}
		read, uses, err := s.st.LearnedSince(ctx, after)
		if err != nil {
			return nil, err
		}
		if whole || read.Base != c.base {
			if after != 0 { // changed meanwhile: read it all
				if read, uses, err = s.st.LearnedSince(ctx, 0); err != nil {
					return nil, err
				}
			}
			c.index, c.read = newLearnedIndex(), now
		}
		c.index.add(uses, c.read)
		c.base, c.newest = read.Base, read.Newest
	}
	return c.index.evidence(learnWords(intent)), nil
}

// lift adds each tool's learned evidence to the fused ranking: learnLift
// times its evidence times a first place's share, 1/(k+1). A tool the
// legs did not find joins the candidates. ranked is re-sorted.
func (s *Searcher) lift(ranked []candidate, evidence map[int64]float64) []candidate {
	if len(evidence) == 0 {
		return ranked
	}
	first := 1 / (s.fusion.k + 1)
	seen := make(map[int64]bool, len(evidence))
	for i := range ranked {
		if e, ok := evidence[ranked[i].id]; ok {
			ranked[i].fused += learnLift * e * first
			seen[ranked[i].id] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(evidence)) {
		if !seen[id] {
			ranked = append(ranked, candidate{id: id, fused: learnLift * evidence[id] * first})
		}
	}
	slices.SortStableFunc(ranked, func(a, b candidate) int { return cmp.Compare(b.fused, a.fused) })
	return ranked
}

// Similar reports whether two intents ask in mostly the same words: half
// or more of their words (see learnWords) are shared. The bridge reads a
// discovery soon after a run that asks much as the run's did as a sign
// the run did not do what was wanted.
func Similar(a, b string) bool {
	wa, wb := learnWords(a), learnWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	shared := 0
	for _, w := range wa {
		if slices.Contains(wb, w) {
			shared++
		}
	}
	return 2*shared >= len(wa)+len(wb)-shared
}
