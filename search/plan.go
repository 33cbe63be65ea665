package search

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// plan is what an intent becomes before the legs run.
//
// The words leg searches the intent's words, less the most common ones
// when together they would make BM25 score a large share of the catalog
// (Options.MatchBudget). The trigram leg searches, as substrings,
// only the words the catalog's vocabulary lacks (typos, fragments, glued
// words) plus the nearest catalog word of each (typo repair): a clean
// intent does not pay for it. The corrections join the words leg's
// synonym query too, at its weight: a misspelled word is then no longer
// outvoted by the intent's common words ("get dividnds" ranking every
// get_ tool). They are looked up only for an intent with a word that may
// be a typo, beside the words leg's main query, which does not need them:
// what reads them waits for them (see plan.awaitFixes).
type plan struct {
	intent string
	words  []string       // query words, stop words removed
	docs   map[string]int // how many tools hold each known word or synonym
	// kept are the words the words leg searches: words less the
	// commonest ones past its budget (see withinBudget).
	kept []string
	// wordTerms is the words leg's query: any of them (see
	// store.RankWords).
	wordTerms []store.WordTerm
	// synTerms is the words leg's second, low-weight query: synonyms of
	// the words (see synonyms.expand); none for none.
	synTerms []store.WordTerm
	unknown  []string // words of three runes or more the vocabulary lacks
	// trailing are the words only a trailing relative clause holds
	// (see trailingWords).
	trailing map[string]bool
	// verb is the intent's content verb, if it opens with one (see
	// contentClause): "remember", "note", "forget"...
	verb string
	// fixable are the unknown words that may be typos of catalog words
	// (see typoCandidate).
	fixable []string
	// fixes are the catalog words nearest the fixable ones (see corrections).
	fixes []string
	// meant are words with each corrected word replaced by its correction:
	// what the boosts compare with a tool's name and description.
	meant []string
	// fixed is closed once fixes, meant, synTerms and the corrections'
	// counts in docs are set; nil when they were set with the plan.
	fixed chan struct{}
}

// anyOf makes words a words query's terms, leaving out empty ones.
func anyOf(words []string) []store.WordTerm {
	var out []store.WordTerm
	for _, w := range words {
		if w != "" {
			out = append(out, store.WordTerm{Text: w})
		}
	}
	return out
}

// awaitFixes waits until the plan's corrections are in (see plan.fixed).
func (p *plan) awaitFixes() {
	if p.fixed != nil {
		<-p.fixed
	}
}

func (p *plan) empty() bool { return len(p.words) == 0 }

// Typo correction bounds.
const (
	// maxTrigramUnknown bounds the unknown words the trigram leg searches
	// for as substrings on a large catalog: each is a phrase of its
	// trigrams, and common trigrams have long lists. An intent with many
	// (long prose, names) cost most; past two they changed no recall on
	// a 3,859-tool mix of the bench sets and the shared catalogs.
	maxTrigramUnknown = 2
	// maxCorrections is the default bound on out-of-vocabulary words looked up per intent.
	maxCorrections = 1
	// minTrigramRunes: shorter words have no trigram.
	minTrigramRunes = 3
	// minFixRunes: shorter out-of-vocabulary words are left alone; a short
	// word one edit from a catalog word is more often another word than a typo.
	minFixRunes = 5
)

// plan looks the intent's words up in the catalog's vocabulary (one
// query) and builds the words leg's expression. If the lookup fails, every
// word is searched and none counts as unknown.
func (s *Searcher) plan(ctx context.Context, intent string) *plan {
	p := &plan{intent: intent}
	intent = asTextMessage(asRemember(intent)) // idioms: "store in memory that ...", "text mom ..."
	intent, recall, about := asRecall(intent)  // "what did I tell you about ..."
	values := readValues(intent)
	p.words, p.trailing = intentWords(values), trailingWords(intent)
	// A content clause ("remember that Alice works at Acme") is no topic:
	// its words weigh as a trailing clause's, and are searched as weak
	// words only.
	verb, content := contentClause(intent)
	if recall {
		verb = "recall" // its synonyms stand beside it
	}
	p.verb = verb
	if about != "" {
		// What is asked about is what to look up in what keeps it: a
		// value, as a content clause is.
		content = make(map[string]bool)
		for _, w := range queryWords(about) {
			if w != verb {
				content[w] = true
			}
		}
	}
	for w := range content {
		if p.trailing == nil {
			p.trailing = make(map[string]bool)
		}
		p.trailing[w] = true
	}
	p.meant = p.words
	if len(p.words) == 0 {
		return p
	}
	// The names inside values are searched as synonyms are, at most.
	syns := append(s.syn.expand(p.words), weakWords(values.weak, p.words)...)
	asked := slices.Clone(p.words)
	for _, w := range p.words {
		asked = append(asked, stems(w)...)
	}
	for _, w := range syns {
		asked = append(asked, strings.Fields(w)...) // a phrase's words
	}
	compounds := compoundCandidates(values.text)
	asked = append(asked, compounds...)
	docs, err := s.st.Terms(ctx, asked)
	if err != nil {
		s.logger.Warn("search: vocabulary lookup failed", "err", err)
		p.kept = p.words
		p.wordTerms = anyOf(p.words)
		return p
	}
	p.docs = docs
	// Two words the catalog writes as one join the intent as that word.
	for _, c := range compounds {
		if docs[c] > 0 && !slices.Contains(p.words, c) {
			p.words = append(p.words, c)
		}
	}
	named := writtenAsNames(intent)
	for _, w := range p.words {
		if !knownForm(w, docs) && utf8.RuneCountInString(w) >= minTrigramRunes && !isNumber(w) && !isPiece(w) {
			p.unknown = append(p.unknown, w)
			if typoCandidate(w, named) {
				p.fixable = append(p.fixable, w)
			}
		}
	}
	budget := s.budgetDocs(ctx)
	// A piece no tool holds matches nothing (the vocabulary holds every
	// piece of every tool): it is not searched. An abbreviation's short
	// form is searched at full weight in tool names only, and elsewhere
	// as a synonym of the long form that follows it: searched in every
	// column, "repos" made each tool taking a repo parameter and saying
	// "repository" count twice over search_repositories, which says the
	// long form alone.
	var shorts []string
	for _, w := range p.words {
		if _, short := abbreviations[w]; short {
			shorts = append(shorts, w)
		}
	}
	kept := withinBudget(slices.DeleteFunc(slices.Clone(p.words), func(w string) bool {
		_, known := docs[w]
		return slices.Contains(shorts, w) || !known && isPiece(w) || content[w]
	}), docs, budget)
	syns = append(syns, shorts...)
	p.kept = kept
	stand := s.standIns(ctx, p.words, docs, named)
	if verb != "" && stand == nil {
		// The verb is all the request asks: its synonyms stand beside it.
		stand = heldSynonyms(s.syn.of(verb), p.words, docs)
	}
	for _, w := range p.words {
		if content[w] {
			syns = append(syns, w) // the content is searched as weak words, in order
		}
	}
	p.wordTerms = anyOf(append(slices.Clone(kept), stand...))
	for _, w := range shorts {
		if len(p.wordTerms) > 0 {
			p.wordTerms = append(p.wordTerms, store.WordTerm{Text: w, NameOnly: true}) // get_stock_info, clone_repo
		}
	}
	syns = slices.DeleteFunc(syns, func(w string) bool { return slices.Contains(stand, w) })
	p.meant = p.words
	var synBase []string
	if s.synWeight > 0 {
		synBase = synonymsWithin(syns, docs, kept, budget)
		p.synTerms = anyOf(synBase)
	}
	if len(p.fixable) == 0 {
		return p
	}
	p.fixed = make(chan struct{})
	go func() {
		defer close(p.fixed)
		fixed := s.corrections(ctx, p.fixable)
		if len(fixed) == 0 {
			return
		}
		p.meant = slices.Clone(p.words)
		for i, w := range p.meant {
			if t, ok := fixed[w]; ok {
				p.meant[i] = t.Text
				p.docs[t.Text] = t.Docs
				p.fixes = append(p.fixes, t.Text)
			}
		}
		if s.synWeight > 0 {
			p.synTerms = anyOf(append(synBase, p.fixes...))
		}
	}()
	return p
}

// standIns returns the synonyms the catalog holds of the words it all
// but lacks (at most one tool holds them), searched at full weight beside
// those words, not only in the low-weight synonym query that any tool
// holding another of the intent's words outvotes. The catalog then says
// the thing in other words: "remember" against a knowledge graph's tools,
// whose only "remember" is a login form's label; "a fact" against tools
// that add "observations" to a "knowledge graph", whose only "fact" is an
// idiom ("after the fact"). In a short intent (shortIntent words or
// fewer) every such word is stood in for. In a longer one only the first
// word (its action, as a request is mostly written: "remember that ...",
// "memorize ..."), and only when no tool's name or description holds it:
// standing in for every rare word put generic synonyms (list for "view",
// edit for "change") into long chatty requests, and cost MetaTool
// queries.
func (s *Searcher) standIns(ctx context.Context, ws []string, docs map[string]int, named map[string]bool) []string {
	short := len(ws) <= shortIntent
	var out []string
	for i, w := range ws {
		if i > 0 && !short {
			break
		}
		syns := s.syn.of(w)
		if named[w] || isNumber(w) || len(syns) == 0 {
			continue
		}
		if formDocs(w, docs) > 1 {
			continue
		}
		if !short {
			described, err := s.st.Described(ctx, w)
			if err != nil {
				s.logger.Warn("search: described-word lookup failed", "err", err)
				return nil
			}
			if described {
				continue
			}
		}
		for _, o := range heldSynonyms(syns, ws, docs) {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// shortIntent is the most words (stop words aside) of an intent whose
// every rare word is stood in for (see standIns).
const shortIntent = 3

// heldSynonyms returns the synonyms in syns that the catalog holds and ws
// does not.
func heldSynonyms(syns, ws []string, docs map[string]int) []string {
	var out []string
	for _, o := range syns {
		if heldSynonymDocs(o, docs) > 0 && !slices.Contains(ws, o) {
			out = append(out, o)
		}
	}
	return out
}

// heldSynonymDocs returns how many tools hold syn, a phrase counted as
// its rarest word of three runes or more (as synonymsWithin counts it),
// or 0 if the catalog lacks it.
func heldSynonymDocs(syn string, docs map[string]int) int {
	n := 0
	for _, w := range strings.Fields(syn) {
		if utf8.RuneCountInString(w) < minTrigramRunes {
			continue
		}
		d, ok := docs[w]
		if !ok || d == 0 {
			return 0
		}
		if n == 0 || d < n {
			n = d
		}
	}
	return n
}

// weakWords returns the distinct words of weak that are not stop words,
// numbers or among words.
func weakWords(weak, words []string) []string {
	var out []string
	for _, w := range weak {
		if !stopWords[w] && !isNumber(w) && !slices.Contains(words, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// stems returns shorter forms w may take without an English inflection
// ending: meetings -> meeting, closing -> clos, close, committed ->
// committ, committe, commit (see singulars and undoubled).
// formIndex.mark spells the same rules out without allocating, on the
// search's hot path; TestFormIndexReadsAsWordSet holds the two together.
func stems(w string) []string {
	out := singulars(w)
	for _, suf := range [...]string{"ing", "ed"} {
		if b, ok := strings.CutSuffix(w, suf); ok && utf8.RuneCountInString(b) >= minTrigramRunes {
			out = append(out, b, b+"e")
			if u, ok := undoubled(b); ok {
				out = append(out, u)
			}
		}
	}
	return out
}

// undoubled returns b without the last of the two consonants it ends in,
// as English doubles one before -ed and -ing (committed, running:
// commit, run), if the rest is a word of three letters or more. A double
// l, s or z is the word's own (called, pressed, buzzing).
func undoubled(b string) (string, bool) {
	n := len(b)
	if n < minTrigramRunes+1 || b[n-1] != b[n-2] {
		return "", false
	}
	switch c := b[n-1]; {
	case c < 'a' || c > 'z', strings.IndexByte("aeiouylsz", c) >= 0:
		return "", false
	}
	return b[:n-1], true
}

// knownForm reports whether the vocabulary holds w or one of its stems:
// such a word is no typo (porter stemming finds its other forms), so it
// needs neither the trigram leg nor a correction.
func knownForm(w string, docs map[string]int) bool {
	if _, ok := docs[w]; ok {
		return true
	}
	for _, st := range stems(w) {
		if _, ok := docs[st]; ok {
			return true
		}
	}
	return false
}

// formDocs returns how many tools hold w's commonest form (w or one of
// its stems), by docs: porter stemming matches every form, so that is
// how common the word is to the search.
func formDocs(w string, docs map[string]int) int {
	d := docs[w]
	for _, st := range stems(w) {
		d = max(d, docs[st])
	}
	return d
}

// Words the words leg keeps past its budget: the rarest always, and up to
// minKeptWords of the rarest while their document counts stay within
// keptOverBudget times the budget.
const (
	minKeptWords   = 3
	keptOverBudget = 2
)

// withinBudget returns words, in their order, less the most common known
// ones while the document counts of those kept sum past budget: BM25 costs
// about 2µs a matched row, and a common word adds many rows and little
// score. The rarest word, the minKeptWords rarest within keptOverBudget
// times budget, and the words the vocabulary lacks (counts unknown:
// inflections the stemmer finds, or typos) are kept. budget <= 0 keeps
// every word.
//
// A word counts as its commonest form: porter stemming matches every
// form, and "numbers" (179 tools of a 5,000-tool mix) also matches the
// 1,236 that say "number".
func withinBudget(words []string, docs map[string]int, budget int) []string {
	if budget <= 0 {
		return words
	}
	count := make(map[string]int, len(words))
	for _, w := range words {
		count[w] = formDocs(w, docs)
	}
	byDocs := slices.Clone(words)
	slices.SortStableFunc(byDocs, func(a, b string) int { return count[a] - count[b] })
	drop := make(map[string]bool)
	sum := 0
	for i, w := range byDocs {
		sum += count[w]
		if i > 0 && (sum > keptOverBudget*budget || (i >= minKeptWords && sum > budget)) {
			drop[w] = true
		}
	}
	var kept []string
	for _, w := range words {
		if !drop[w] {
			kept = append(kept, w)
		}
	}
	return kept
}

// synonymShare: the synonym query may match at most 1/synonymShare of the
// words leg's budget; at weight 0.1 it adds little, and matched rows
// cost BM25 time. An eighth (was a quarter) left recall unchanged on both
// bench sets and on a 3,859-tool mix, and halves the query's rows.
const synonymShare = 8

// synonymsWithin returns the synonyms worth a query, rarest first, while
// the document counts they add stay within what the kept words of the
// intent left of budget, and within budget/synonymShare (budget <= 0: no
// bound). A synonym the catalog
// lacks is left out; a phrase counts as its rarest word of three runes
// or more (shorter ones are not in the vocabulary).
func synonymsWithin(syns []string, docs map[string]int, kept []string, budget int) []string {
	left := budget
	for _, w := range kept {
		left -= docs[w]
	}
	left = min(left, budget/synonymShare)
	byDocs := slices.Clone(syns)
	slices.SortStableFunc(byDocs, func(a, b string) int { return heldSynonymDocs(a, docs) - heldSynonymDocs(b, docs) })
	var out []string
	for _, w := range byDocs {
		n := heldSynonymDocs(w, docs)
		if n == 0 || (budget > 0 && n > left) {
			continue
		}
		left -= n
		out = append(out, w)
	}
	return out
}

// trigramQuery is the trigram leg's expression: the unknown words and the
// nearest catalog word of each, as substrings; "" when all words are known.
// On a catalog of at most Options.TrigramAllUpTo tools every word the
// words leg keeps, of three runes or more, is searched too: a second,
// unstemmed ranking that lifts MRR by about 0.01 on both bench sets, at a
// cost that grows with the catalog (the words past the budget add rows
// and, as measured, no recall). On a larger catalog only the
// maxTrigramUnknown longest unknown words are searched. It waits for the
// plan's corrections.
func (s *Searcher) trigramQuery(ctx context.Context, p *plan) string {
	p.awaitFixes()
	if s.trigramEvery(ctx) {
		var terms []string
		for _, w := range p.kept {
			if utf8.RuneCountInString(w) >= minTrigramRunes {
				terms = append(terms, w)
			}
		}
		return orQuery(append(terms, p.fixes...))
	}
	if len(p.unknown) == 0 {
		return ""
	}
	unknown := slices.Clone(p.unknown)
	if len(unknown) > maxTrigramUnknown {
		slices.SortStableFunc(unknown, func(a, b string) int {
			return utf8.RuneCountInString(b) - utf8.RuneCountInString(a)
		})
		unknown = unknown[:maxTrigramUnknown]
	}
	return orQuery(append(unknown, p.fixes...))
}

// typoCandidate reports whether unknown word w may be a misspelled
// catalog word worth a near-term lookup: minFixRunes or longer, no digit
// (units and ids: 10cm, brca1), and not written as a name (Melbourne,
// GPS): names are not misspelled tool words, and they are most of the
// unknown words of real intents.
func typoCandidate(w string, named map[string]bool) bool {
	return utf8.RuneCountInString(w) >= minFixRunes && !named[w] &&
		!strings.ContainsFunc(w, unicode.IsDigit)
}

// writtenAsNames returns the words of intent, lowercased, that it writes
// with a capital initial anywhere but first (the first word's capital
// says nothing).
func writtenAsNames(intent string) map[string]bool {
	out := make(map[string]bool)
	for i, run := range alnumRuns(intent) {
		if r, _ := utf8.DecodeRuneInString(run); i > 0 && unicode.IsUpper(r) {
			out[strings.ToLower(run)] = true
		}
	}
	return out
}

// corrections maps unknown words (minFixRunes or more, at most
// Options.Corrections of them) to their nearest catalog word, if one is
// near enough. A failed lookup only loses the correction.
func (s *Searcher) corrections(ctx context.Context, unknown []string) map[string]store.Term {
	var out map[string]store.Term
	var vocab *vocabIndex
	tried := 0
	for _, w := range unknown {
		if tried >= s.fixes {
			break
		}
		if utf8.RuneCountInString(w) < minFixRunes {
			continue
		}
		tried++
		if vocab == nil {
			var err error
			if vocab, err = s.vocabulary(ctx); err != nil {
				s.logger.Warn("search: near-term lookup failed", "word", w, "err", err)
				return out
			}
		}
		// Only the words within reach are counted. A swapped pair in a
		// short word can leave it no trigram of the word meant
		// (serach/search): its swaps are looked up whole.
		n, edits := utf8.RuneCountInString(w), maxEdits(w)
		within := slices.DeleteFunc(vocab.near(w, n-edits, n+edits), func(t string) bool {
			return editDistance(w, t) > edits
		})
		swapped := swaps(w)
		docs, err := s.st.Terms(ctx, append(slices.Clone(within), swapped...))
		if err != nil {
			s.logger.Warn("search: near-term lookup failed", "word", w, "err", err)
			continue
		}
		slices.Sort(within)
		var near []store.Term
		for _, t := range append(within, swapped...) {
			if d, ok := docs[t]; ok {
				near = append(near, store.Term{Text: t, Docs: d})
			}
		}
		if c, ok := nearest(w, near); ok {
			if out == nil {
				out = make(map[string]store.Term)
			}
			out[w] = c
		}
	}
	return out
}

// swaps returns w with each pair of adjacent different runes swapped.
func swaps(w string) []string {
	rs := []rune(w)
	var out []string
	for i := 0; i+1 < len(rs); i++ {
		if rs[i] != rs[i+1] {
			rs[i], rs[i+1] = rs[i+1], rs[i]
			out = append(out, string(rs))
			rs[i], rs[i+1] = rs[i+1], rs[i]
		}
	}
	return out
}

// nearest picks the candidate closest to w by edit distance, within
// maxEdits(w); ties go to the word more tools hold.
//
// When an inflection of w (one holds the other's whole stem: papers/paper,
// reviewed/review) is among the closest, w is no typo: porter stemming
// already finds it, and no correction is made.
func nearest(w string, near []store.Term) (store.Term, bool) {
	var best store.Term
	limit := maxEdits(w)
	bestD := limit + 1
	for _, t := range near {
		d := editDistance(w, t.Text)
		if d > limit {
			continue
		}
		if d < bestD || (d == bestD && t.Docs > best.Docs) {
			best, bestD = t, d
		}
	}
	for _, t := range near {
		if inflection(w, t.Text) && editDistance(w, t.Text) <= bestD {
			return store.Term{}, false
		}
	}
	return best, best.Text != "" && best.Text != w
}

// inflection reports whether one of a and b is the other with an English
// inflection ending, over a stem of four runes or more: papers/paper,
// reviewed/review, closing/close, libraries/library, totally/total. Such a
// pair is no typo: porter stemming finds one from the other. Any other
// pair is (headwa/headway, recor/record).
func inflection(a, b string) bool {
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	p := 0
	for p < len(short) && short[p] == long[p] {
		p++
	}
	if utf8.RuneCountInString(short[:p]) < 4 {
		return false
	}
	switch rest, end := short[p:], long[p:]; rest {
	case "":
		return slices.Contains(inflectionEndings, end) || (end == "d" && strings.HasSuffix(short, "e"))
	case "e":
		return end == "ing" || end == "ed" || end == "er" || end == "ers"
	case "y":
		return end == "ies" || end == "ied" || end == "ier"
	}
	return false
}

// inflectionEndings are the endings inflection recognizes on a whole stem.
var inflectionEndings = []string{"s", "es", "ed", "ing", "ings", "er", "ers", "est", "ly"}

// maxEdits is the edit distance a correction of w may have: one for
// words up to six runes, two beyond.
func maxEdits(w string) int {
	if utf8.RuneCountInString(w) <= 6 {
		return 1
	}
	return 2
}

// isNumber reports whether w is only digits.
func isNumber(w string) bool {
	return strings.TrimFunc(w, func(r rune) bool { return r >= '0' && r <= '9' }) == ""
}

// shortRunes is the longest word editDistance measures without allocating.
const shortRunes = 32

// appendRunes appends the runes of s to dst.
func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// editDistance is the optimal string alignment distance between a and b,
// in runes: the fewest insertions, deletions, substitutions and swaps of
// two adjacent runes (no substring edited twice) that turn a into b. A
// transposed pair ("serach") is one edit, as people make it.
// It runs on every near term of every corrected word: words up to
// shortRunes long are measured in arrays on the stack.
func editDistance(a, b string) int {
	var aBuf, bBuf [shortRunes]rune
	ra, rb := appendRunes(aBuf[:0], a), appendRunes(bBuf[:0], b)
	var rowBuf [3 * (shortRunes + 1)]int
	rows := rowBuf[:]
	if n := 3 * (len(rb) + 1); n > len(rows) {
		rows = make([]int, n)
	}
	n := len(rb) + 1
	prev2, prev, cur := rows[:n], rows[n:2*n], rows[2*n:3*n] // rows i-2, i-1, i
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
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
