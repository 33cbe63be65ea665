package search

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// plan is what an intent becomes before the legs run: its words and the
// FTS5 expression of the words leg. The trigram leg builds its own
// expression (trigramQuery), typo corrections included, inside its
// goroutine, so their lookups overlap the words leg.
type plan struct {
	intent    string
	words     []string // query words, stop words removed
	wordsExpr string
}

func (p *plan) empty() bool { return len(p.words) == 0 }

// Typo correction bounds.
const (
	// maxCorrections is the default bound on out-of-vocabulary words looked up per intent.
	maxCorrections = 4
	// nearTermsAsked is how many near catalog words each lookup returns.
	nearTermsAsked = 8
	// minTrigramRunes: shorter words have no trigram.
	minTrigramRunes = 3
	// minFixRunes: shorter out-of-vocabulary words are left alone; a short
	// word one edit from a catalog word is more often another word than a typo.
	minFixRunes = 5
)

func (s *Searcher) plan(intent string) *plan {
	p := &plan{intent: intent, words: queryWords(intent)}
	p.wordsExpr = orQuery(p.words)
	return p
}

// trigramQuery is the trigram leg's expression: the intent's words of
// three runes or more, plus, for each word the catalog does not hold, its
// nearest catalog word (so `calender` also searches `calendar`), each
// matched as a substring.
func (s *Searcher) trigramQuery(ctx context.Context, words []string) (expr string, corrected []string) {
	var terms []string
	for _, w := range words {
		if utf8.RuneCountInString(w) >= minTrigramRunes {
			terms = append(terms, w)
		}
	}
	corrected = s.corrections(ctx, words)
	return orQuery(append(terms, corrected...)), corrected
}

// corrections maps out-of-vocabulary words (letters, minFixRunes or more,
// at most Options.Corrections of them) to their nearest catalog word, if
// one is near enough. A failed lookup only loses the correction.
func (s *Searcher) corrections(ctx context.Context, words []string) []string {
	if s.fixes <= 0 {
		return nil
	}
	var asked []string
	for _, w := range words {
		if utf8.RuneCountInString(w) >= minFixRunes && !isNumber(w) {
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
		if known[w] > 0 || tried == s.fixes {
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
//
// A word that is an inflection of a catalog word (one holds the other's
// whole stem: papers/paper, reviewed/review) is not a typo: porter
// stemming already finds it, and no correction is made.
func nearest(w string, near []store.Term) (string, bool) {
	best, bestD, bestDocs := "", maxEdits(w)+1, 0
	for _, t := range near {
		if inflection(w, t.Text) {
			return "", false
		}
		d := editDistance(w, t.Text)
		if d < bestD || (d == bestD && t.Docs > bestDocs) {
			best, bestD, bestDocs = t.Text, d, t.Docs
		}
	}
	return best, best != "" && best != w
}

// inflection reports whether a and b share all but at most the last rune
// of the shorter one, over four runes or more.
func inflection(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	n := min(len(ra), len(rb))
	p := 0
	for p < n && ra[p] == rb[p] {
		p++
	}
	return p >= 4 && p >= n-1
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
