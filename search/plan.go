package search

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// plan is what an intent becomes before the legs run: its words, the
// catalog words its misspelled words were mapped to, and one FTS5
// expression per FTS5 leg.
type plan struct {
	intent      string
	words       []string // query words, stop words removed
	corrected   []string // catalog words standing in for out-of-vocabulary ones
	wordsExpr   string
	trigramExpr string
}

func (p *plan) empty() bool { return p.wordsExpr == "" && p.trigramExpr == "" }

// Typo correction bounds.
const (
	// maxCorrections bounds the out-of-vocabulary words looked up per intent.
	maxCorrections = 4
	// nearTermsAsked is how many near catalog words each lookup returns.
	nearTermsAsked = 8
	// minTrigramRunes: shorter words have no trigram.
	minTrigramRunes = 3
)

// plan builds the leg expressions for intent. Words the catalog does not
// hold are looked up among its vocabulary by trigrams and replaced, in
// addition, by the nearest word within a small edit distance: `calender`
// also searches `calendar`. A failed lookup only loses the correction.
func (s *Searcher) plan(ctx context.Context, intent string, legs [numLegs]bool) *plan {
	p := &plan{intent: intent, words: queryWords(intent)}
	if legs[LegWords] || legs[LegTrigrams] {
		p.corrected = s.corrections(ctx, p.words)
	}
	terms := append(append([]string(nil), p.words...), p.corrected...)
	if legs[LegWords] {
		p.wordsExpr = orQuery(terms)
	}
	if legs[LegTrigrams] {
		var long []string
		for _, t := range terms {
			if utf8.RuneCountInString(t) >= minTrigramRunes {
				long = append(long, t)
			}
		}
		p.trigramExpr = orQuery(long)
	}
	return p
}

// corrections maps each out-of-vocabulary word (letters, three runes or
// more) to its nearest catalog word, if one is near enough.
func (s *Searcher) corrections(ctx context.Context, words []string) []string {
	var asked []string
	for _, w := range words {
		if utf8.RuneCountInString(w) >= minTrigramRunes && !isNumber(w) {
			asked = append(asked, w)
		}
	}
	if len(asked) == 0 {
		return nil
	}
	known, err := s.st.Terms(ctx, asked)
	if err != nil {
		s.logger.Warn("search: vocabulary lookup failed", "err", err)
		return nil
	}
	var out []string
	tried := 0
	for _, w := range asked {
		if known[w] > 0 || tried == maxCorrections {
			continue
		}
		tried++
		near, err := s.st.NearTerms(ctx, trigramsExpr(w), nearTermsAsked)
		if err != nil {
			s.logger.Warn("search: near-term lookup failed", "word", w, "err", err)
			continue
		}
		if c, ok := nearest(w, near); ok {
			out = append(out, c)
		}
	}
	return out
}

// nearest picks the candidate closest to w by edit distance, within
// maxEdits(w); ties go to the word more tools hold.
func nearest(w string, near []store.Term) (string, bool) {
	best, bestD, bestDocs := "", maxEdits(w)+1, 0
	for _, t := range near {
		d := editDistance(w, t.Text)
		if d < bestD || (d == bestD && t.Docs > bestDocs) {
			best, bestD, bestDocs = t.Text, d, t.Docs
		}
	}
	return best, best != "" && best != w
}

// maxEdits is the edit distance a correction of w may have: one for
// words up to six runes, two beyond.
func maxEdits(w string) int {
	if utf8.RuneCountInString(w) <= 6 {
		return 1
	}
	return 2
}

// trigramsExpr ORs the distinct trigrams of w: an FTS5 trigram query that
// finds words sharing any three-rune piece with w.
func trigramsExpr(w string) string {
	rs := []rune(w)
	seen := make(map[string]bool)
	var ts []string
	for i := 0; i+minTrigramRunes <= len(rs); i++ {
		t := string(rs[i : i+minTrigramRunes])
		if !seen[t] {
			seen[t] = true
			ts = append(ts, t)
		}
	}
	return orQuery(ts)
}

// isNumber reports whether w is only digits.
func isNumber(w string) bool {
	return strings.TrimFunc(w, func(r rune) bool { return r >= '0' && r <= '9' }) == ""
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
