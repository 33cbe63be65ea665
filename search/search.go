// Package search ranks catalog tools for a free-text intent. A [Searcher]
// runs up to three legs over the store side by side (FTS5 words with BM25,
// FTS5 trigrams for typos and fragments, and optional sqlite-vec embeddings
// from an OpenAI-compatible endpoint through an [Embedder]) and fuses them
// by reciprocal-rank fusion into [Result]s. [Ingest] normalizes a server's
// raw tools and stores them with their search text ([Document]) and
// embeddings; [Evaluate] measures a Searcher on a labelled query set, or
// on [NameQueries], the catalog's own tool names written as intents.
package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/capbridge/capbridge/store"
	"golang.org/x/sync/errgroup"
)

// Options configure a Searcher. A nil *Options, and any zero field, means
// the default.
type Options struct {
	// Logger receives warnings (an embedder going down); default discard.
	Logger *slog.Logger
	// Embedder enables the vector leg; nil runs words and trigrams only.
	Embedder *Embedder
	// ColumnWeights weight the BM25 columns name, description, parameter
	// names, parameter descriptions and enum values. Default 2, 1, 2, 0.3, 2.
	ColumnWeights [5]float64
	// LegWeights weight each leg's reciprocal ranks in the fusion, indexed
	// by Leg. Default words 1, trigrams 0.6 (tuned on the even halves of the
	// bench sets), vectors 1 (untuned: no embedding model was at hand).
	LegWeights [numLegs]float64
	// RRFK is the rank offset k of reciprocal-rank fusion. Default 60.
	RRFK float64
	// Candidates is how many tools each leg returns before fusion. Default 50.
	Candidates int
	// Corrections is how many out-of-vocabulary words of an intent are
	// mapped to their nearest catalog word (typo repair). Default 1;
	// negative turns correction off.
	Corrections int
	// MatchBudget bounds the words leg's work: the most common words of an
	// intent are left out while the document counts of its words sum past
	// this share of the catalog, and past 500 (see withinBudget); the
	// synonym query gets what they leave. Default 0.1 (a 5,000-tool
	// catalog: 500, as on the bench sets; BM25 costs ~2µs a matched row);
	// negative keeps every word.
	MatchBudget float64
	// NameBoost multiplies a candidate's fused score by 1 + NameBoost times
	// the share of its name's words the intent holds, or a synonym of
	// them (see boostNames). Default 0.5; negative turns it off.
	NameBoost float64
	// TrigramAllUpTo: on a catalog of at most this many tools the trigram
	// leg searches every word, not only the unknown ones. Default 2000;
	// negative never.
	TrigramAllUpTo int
	// SynonymWeight weighs the words leg's synonym query (see expand.go)
	// against the intent's own words. Default 0.1; negative turns
	// synonyms off.
	SynonymWeight float64
	// DescBoost multiplies a candidate's fused score by 1 + DescBoost
	// times the share (by rarity) of the intent's words its name and own
	// description hold (see descCoverage). Default 0.5; negative turns it off.
	DescBoost float64
	// LengthNorm is BM25's b for the words leg, applied to the
	// candidates it returns: the word table's BM25 leaves length out
	// (store migration 5), and each candidate's score is then multiplied
	// by (1+k1) / (1 + k1*(1 - b + b*len/meanLen)), len the length of its
	// search text (store.Hit.Len), k1 = 1.2. Default 0.4 (tuned on the
	// even halves of the bench sets and of a 3,859-tool mix of them with
	// the shared catalogs); negative leaves length out.
	LengthNorm float64
	// Cut drops results whose fused score is below Cut times the best
	// result's: a weak tail is left out instead of padding. Default 0.2;
	// negative keeps every result up to the limit.
	Cut float64
}

// Defaults, documented on Options.
var (
	defaultColumnWeights = [5]float64{2, 1, 2, 0.3, 2}
	defaultLegWeights    = [numLegs]float64{LegWords: 1, LegTrigrams: 0.6, LegVectors: 1}
)

const (
	defaultRRFK        = 60
	defaultCandidates  = 50
	defaultCut         = 0.2
	defaultMatchBudget = 0.1
	// minBudgetDocs floors the words leg's budget: on a small catalog every
	// word is cheap, and a share of a few tools would drop useful words.
	minBudgetDocs         = 500
	defaultNameBoost      = 0.5
	defaultSynonymWeight  = 0.1
	defaultDescBoost      = 0.5
	defaultTrigramAllUpTo = 2000
	defaultLengthNorm     = 0.4
	// minBoostDepth is the fewest candidates boostNames looks at.
	minBoostDepth = 20
	// toolCountTTL is how long the catalog size behind MatchBudget and
	// TrigramAllUpTo is reused.
	toolCountTTL = 10 * time.Second
	// maxCandidates bounds the widening of a scoped search.
	maxCandidates = 3200
)

// Searcher ranks the tools of one store. It is safe for concurrent use.
type Searcher struct {
	st         *store.Store
	logger     *slog.Logger
	embedder   *Embedder
	columns    [5]float64
	fusion     fusion
	cands      int
	cut        float64
	fixes      int
	budget     float64
	nameBoost  float64
	trigramAll int
	syn        synonyms
	synWeight  float64
	descBoost  float64
	lengthB    float64

	mu        sync.Mutex // guards the catalog size cache below
	toolCount int
	meanLen   float64
	countedAt time.Time

	vocabMu sync.Mutex // guards vocab
	vocab   *vocabIndex

	learnCache learnedCache // the learned runs, indexed (see learn.go)

	mapMu    sync.Mutex             // guards the server map's words below
	mapWords map[string]serverWords // each server's tool-name words (see toolNameWords)
	mapAt    time.Time              // when mapWords was read

	termsMu sync.Mutex     // guards the word counts below
	terms   map[string]int // how many tools hold each word asked of termDocs
	termsAt time.Time      // when terms was started
}

// New returns a Searcher over st.
func New(st *store.Store, opts *Options) *Searcher {
	var o Options
	if opts != nil {
		o = *opts
	}
	s := &Searcher{
		st:         st,
		logger:     o.Logger,
		embedder:   o.Embedder,
		columns:    o.ColumnWeights,
		fusion:     fusion{weights: o.LegWeights, k: o.RRFK},
		cands:      o.Candidates,
		cut:        o.Cut,
		fixes:      o.Corrections,
		budget:     o.MatchBudget,
		nameBoost:  o.NameBoost,
		trigramAll: o.TrigramAllUpTo,
		syn:        newSynonyms(synonymGroups),
		synWeight:  o.SynonymWeight,
		descBoost:  o.DescBoost,
		lengthB:    o.LengthNorm,
	}
	if s.lengthB == 0 {
		s.lengthB = defaultLengthNorm
	}
	if s.synWeight == 0 {
		s.synWeight = defaultSynonymWeight
	}
	if s.descBoost == 0 {
		s.descBoost = defaultDescBoost
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if s.columns == [5]float64{} {
		s.columns = defaultColumnWeights
	}
	if s.fusion.weights == [numLegs]float64{} {
		s.fusion.weights = defaultLegWeights
	}
	if s.fusion.k <= 0 {
		s.fusion.k = defaultRRFK
	}
	if s.cands <= 0 {
		s.cands = defaultCandidates
	}
	if s.fixes == 0 {
		s.fixes = maxCorrections
	}
	if s.budget == 0 {
		s.budget = defaultMatchBudget
	}
	if s.nameBoost == 0 {
		s.nameBoost = defaultNameBoost
	}
	if s.trigramAll == 0 {
		s.trigramAll = defaultTrigramAllUpTo
	}
	if s.cut == 0 {
		s.cut = defaultCut
	}
	return s
}

// Query shapes one search.
type Query struct {
	// Limit is the most results returned; <= 0 means 3, discovery's default.
	Limit int
	// Allowed reports whether a tool is in the request's scope; nil allows
	// every tool. Tools out of scope are dropped before the limit and the
	// cut apply.
	Allowed func(server, tool string) bool
	// Legs runs only these legs (evaluation runs each alone); nil runs all
	// that are available. The exact-name rule applies whatever the legs.
	Legs []Leg
	// Learning lifts the tools the model chose for similar intents before
	// (see Searcher.Learn and learn.go).
	Learning bool
}

// Result is one ranked tool.
type Result struct {
	ToolID int64
	Server string
	Name   string
	// Score is the fused score (see fusion.fuse and boostNames); higher is
	// better. Results are ordered by it and their confidence together
	// (see confidenceRank). A tool placed first because the intent names
	// it keeps the score the legs gave it (0 if they did not find it).
	Score float64
	// Confidence in [0, 1] measures the match itself, not the rank: the
	// share of the intent, its words weighed by rarity, that the tool's
	// name, description and parameters cover (see confidenceScale), or
	// its Learned evidence when that is more. At ConfidentAt or above the
	// tool is a close match. A tool the intent names exactly has
	// confidence 1.
	Confidence float64
	// Exact says the intent named this tool (its name or server/name).
	Exact bool
	// Learned is the tool's evidence, in [0, 1], from the runs the model
	// made for similar intents (see learn.go); 0 without Query.Learning.
	Learned float64
	// Legs says where each leg that found the tool placed it.
	Legs []LegHit
	// Tool is the stored row (record and card included).
	Tool store.Tool
}

// Search ranks the tools in scope for intent, best first: at most q.Limit
// results, fewer when the rest score far below the best (see Options.Cut).
// A tool the intent names exactly comes first. A failing vector leg is
// logged and skipped; a failing words or trigram leg fails the search.
func (s *Searcher) Search(ctx context.Context, intent string, q Query) ([]Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 3
	}
	legs := s.legSet(q.Legs)
	// The tools the intent names are looked up beside the plan and the legs.
	var exact []store.Tool
	named, nctx := errgroup.WithContext(ctx)
	named.Go(func() (err error) {
		exact, err = s.exactTools(nctx, intent, q.Allowed)
		return err
	})
	plan := s.plan(ctx, intent)
	if plan.empty() {
		if err := named.Wait(); err != nil || len(exact) == 0 {
			return nil, err // nothing to search for: stop words, punctuation, emoji
		}
	}
	// Confidence's weights (a typo lookup among them) are measured beside
	// the legs; resolve waits for them.
	var scale confidenceScale
	var scaled sync.WaitGroup
	defer scaled.Wait()
	scaled.Go(func() { scale = s.scale(ctx, plan) })
	var learned map[int64]float64
	if q.Learning {
		var err error
		if learned, err = s.learned(ctx, intent); err != nil {
			named.Wait()
			return nil, fmt.Errorf("reading learned runs: %w", err)
		}
	}
	for cands := s.cands; ; cands *= 4 {
		ranked, full, err := s.rank(ctx, plan, legs, cands)
		if err != nil {
			named.Wait()
			return nil, err
		}
		ranked = s.lift(ranked, learned)
		read, err := s.boostNames(ctx, ranked, plan, max(4*limit, minBoostDepth))
		if err != nil {
			named.Wait()
			return nil, err
		}
		if err := named.Wait(); err != nil {
			return nil, err
		}
		scaled.Wait()
		out, complete, err := s.resolve(ctx, ranked, read, exact, scale, learned, q.Allowed, limit)
		if err != nil {
			return nil, err
		}
		// A narrow scope may have filtered every candidate: widen the legs.
		if complete || !full || cands >= maxCandidates {
			return out, nil
		}
	}
}

// legSet turns Query.Legs into a set, dropping the vector leg without an embedder.
func (s *Searcher) legSet(want []Leg) [numLegs]bool {
	var set [numLegs]bool
	for _, l := range AllLegs {
		set[l] = want == nil || slices.Contains(want, l)
	}
	if s.embedder == nil {
		set[LegVectors] = false
	}
	return set
}

// rank runs the chosen legs side by side and fuses them. full says some
// leg filled cands, so a wider call could find more.
func (s *Searcher) rank(ctx context.Context, p *plan, legs [numLegs]bool, cands int) (ranked []candidate, full bool, err error) {
	var hits [numLegs][]hit
	var legErr [numLegs]error
	g, gctx := errgroup.WithContext(ctx)
	for _, l := range AllLegs {
		if !legs[l] {
			continue
		}
		g.Go(func() error {
			hits[l], legErr[l] = s.runLeg(gctx, l, p, cands)
			if l == LegVectors || errors.Is(legErr[l], errLegIdle) {
				return nil // optional: logged by the embedder, never fatal
			}
			return legErr[l]
		})
	}
	if err := g.Wait(); err != nil {
		return nil, false, err
	}
	for _, l := range AllLegs {
		full = full || len(hits[l]) >= cands
	}
	return s.fusion.fuse(hits), full, nil
}

// errLegIdle says a leg had nothing to search for (the trigram leg on an
// intent whose words the catalog all knows); it is not an error.
var errLegIdle = errors.New("search: leg has nothing to search for")

// runLeg runs one leg for the plan.
func (s *Searcher) runLeg(ctx context.Context, l Leg, p *plan, cands int) ([]hit, error) {
	var hs []store.Hit
	var err error
	switch l {
	case LegWords:
		hs, err = s.wordHits(ctx, p, cands)
	case LegTrigrams:
		expr := s.trigramQuery(ctx, p)
		if expr == "" {
			return nil, errLegIdle
		}
		hs, err = s.st.MatchTrigrams(ctx, expr, cands)
	case LegVectors:
		hs, err = s.vectorHits(ctx, p.intent, cands)
	}
	if err != nil {
		return nil, fmt.Errorf("search leg %s: %w", l, err)
	}
	out := make([]hit, len(hs))
	for i, h := range hs {
		out[i] = hit{id: h.ID, score: h.Score, key: h.Key}
	}
	return out, nil
}

// budgetDocs is the words leg's budget of document counts
// (Options.MatchBudget of the catalog), or 0 for none. The catalog
// size is cached for toolCountTTL; a stale size only shifts the bound.
func (s *Searcher) budgetDocs(ctx context.Context) int {
	if s.budget < 0 {
		return 0
	}
	n, err := s.catalogSize(ctx)
	if err != nil {
		return 0
	}
	return max(minBudgetDocs, int(s.budget*float64(n)))
}

// trigramEvery reports whether the catalog is small enough for the trigram
// leg to search every word (Options.TrigramAllUpTo).
func (s *Searcher) trigramEvery(ctx context.Context) bool {
	if s.trigramAll < 0 {
		return false
	}
	n, err := s.catalogSize(ctx)
	return err == nil && n <= s.trigramAll
}

// catalogSize is the number of searchable tools, cached for toolCountTTL.
func (s *Searcher) catalogSize(ctx context.Context) (int, error) {
	n, _, err := s.textStats(ctx)
	return n, err
}

// termDocs returns how many tools hold each of words (store.Terms). The
// words of the tools a search returns are counted for every search
// (confidence weighs them): counts are kept for toolCountTTL, and only the
// words not yet counted are asked of the store. The words come from the
// catalog's own texts, so the counts kept are bounded by its vocabulary.
func (s *Searcher) termDocs(ctx context.Context, words []string) (map[string]int, error) {
	s.termsMu.Lock()
	defer s.termsMu.Unlock()
	if s.terms == nil || time.Since(s.termsAt) > toolCountTTL {
		s.terms, s.termsAt = make(map[string]int), time.Now()
	}
	out := make(map[string]int, len(words))
	var missing []string
	for _, w := range words {
		if n, ok := s.terms[w]; ok {
			out[w] = n
		} else {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	got, err := s.st.Terms(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, w := range missing {
		s.terms[w] = got[w] // 0 when no tool holds it
		out[w] = got[w]
	}
	return out, nil
}

// textStats is the number of searchable tools and the mean length of
// their search texts (store.TextStats), cached for toolCountTTL.
func (s *Searcher) textStats(ctx context.Context) (int, float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.countedAt) > toolCountTTL {
		n, mean, err := s.st.TextStats(ctx)
		if err != nil {
			s.logger.Warn("search: counting tools failed", "err", err)
			return 0, 0, err
		}
		s.toolCount, s.meanLen, s.countedAt = n, mean, time.Now()
	}
	return s.toolCount, s.meanLen, nil
}
