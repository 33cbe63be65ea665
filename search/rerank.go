package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// boostNames multiplies the fused score of the first depth candidates by
//
//	(1 + NameBoost * nameCoverage) * (1 + DescBoost * descCoverage)
//
// nameCoverage in [0, 1] is the share of the tool's name words (stop words
// aside), by their rarity among the candidates' names, that the intent
// holds: among near-duplicate tools (find_recipe, recipe_finder.find,
// get_vegan_recipe) it prefers the one whose whole name the intent spells
// out, and among a family (TwilioTrunkingV1--ListPhoneNumber,
// ...--CreatePhoneNumber) the one whose telling words it does. descCoverage in [0, 1] is the share, by
// rarity, of the intent's words that the tool's name and own description
// hold: BM25 divides by the whole text's length, so a tool described in
// one clear sentence but with many documented parameters loses to a terse
// one that merely names a common word; what the tool says it does should
// count first. A tool whose description says it is deprecated then has
// its score multiplied by deprecatedRank. The rows it reads (texts only:
// store.ToolDocs) are returned for resolve to reuse.
func (s *Searcher) boostNames(ctx context.Context, ranked []candidate, p *plan, depth int) (map[int64]store.Tool, error) {
	top := ranked[:min(depth, len(ranked))]
	if len(top) == 0 || (s.nameBoost <= 0 && s.descBoost <= 0) {
		return nil, nil
	}
	p.awaitFixes()
	ids := make([]int64, len(top))
	for i, c := range top {
		ids[i] = c.id
	}
	tools, err := s.st.ToolDocs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("reading ranked tools: %w", err)
	}
	byID := make(map[int64]store.Tool, len(tools))
	for _, t := range tools {
		byID[t.ID] = t
	}
	weights := s.rarity(ctx, p)
	contexts, err := s.serverContexts(ctx, p, weights)
	if err != nil {
		return nil, fmt.Errorf("reading servers' words: %w", err)
	}
	syns := make([][]string, len(p.meant))
	for i, w := range p.meant {
		syns[i] = s.syn.of(w)
	}
	forms := newFormIndex()
	synSlots := forms.addSynonyms(syns, func(i int) bool { return weights[i] != 0 })
	serverWords := make(map[string][]string) // each server's name words, split once
	// Each candidate's name words, and how many of the names hold each.
	names := make([][]string, len(top))
	nameDocs := make(map[string]int)
	for i, c := range top {
		if t, ok := byID[c.id]; ok {
			names[i] = nameTerms(t.Name)
			for _, w := range names[i] {
				nameDocs[w]++
			}
		}
	}
	for i := range top {
		t, ok := byID[top[i].id]
		if !ok {
			continue
		}
		if s.nameBoost > 0 {
			top[i].fused *= 1 + s.nameBoost*nameCoverage(names[i], p.meant, s.syn, nameDocs, len(top))
		}
		sw, ok := serverWords[t.Server]
		if !ok {
			sw = nameWords(t.Server)
			serverWords[t.Server] = sw
		}
		named := namesServer(sw, t.Name, p.words)
		if named {
			top[i].fused *= 1 + serverBoost
		}
		top[i].fused *= 1 + serverContext*contexts[t.Server]
		if s.descBoost > 0 {
			top[i].fused *= 1 + s.descBoost*descCoverage(t.Doc, p.meant, weights, forms, synSlots)
		}
		if demoted(t.Doc.Desc, named) {
			top[i].fused *= deprecatedRank
		}
		if destroysUnasked(names[i], p.words) {
			top[i].fused *= destructiveRank
		}
		if forManyUnasked(names[i], p.intent, p.docs) {
			top[i].fused *= manyRank
		}
		if readsWhenKept(names[i], p.verb) {
			top[i].fused *= readOnlyRank
		}
	}
	slices.SortStableFunc(ranked, func(a, b candidate) int { return cmp.Compare(b.fused, a.fused) })
	return byID, nil
}

// serverBoost lifts the tools of a server the intent names ("errors from
// sentry", "a contact in hubspot"): the user has said where to look.
const serverBoost = 0.5

// namesServer reports whether the intent's words hold a word of a
// server's name (its words sw) of three letters or more, other than the
// words every server name may carry (mcp, server, all). A server whose
// name is its tool's name is left to the name boost: naming it names the
// tool.
func namesServer(sw []string, tool string, intentWords []string) bool {
	for _, w := range sw {
		if utf8.RuneCountInString(w) < 3 || stopWords[w] || genericServerWords[w] || isNumber(w) {
			continue
		}
		if slices.Contains(intentWords, w) {
			return !slices.Equal(sw, nameWords(tool))
		}
	}
	return false
}

// genericServerWords are words of server names that name no product.
var genericServerWords = map[string]bool{"mcp": true, "server": true, "servers": true, "all": true}

// rarity weighs each of the plan's words as meant (corrected) by its
// inverse document frequency, ln(1 + N/docs), times clauseWeight for a
// word of a trailing relative clause; a word the catalog lacks weighs
// nothing.
func (s *Searcher) rarity(ctx context.Context, p *plan) []float64 {
	n, _ := s.catalogSize(ctx)
	out := make([]float64, len(p.meant))
	for i, w := range p.meant {
		if d := p.docs[w]; d > 0 {
			out[i] = math.Log(1 + float64(max(n, d))/float64(d))
		}
		if p.trailing[p.words[i]] {
			out[i] *= clauseWeight
		}
	}
	return out
}

// descCoverage is the weighted share of intent words that d's name or
// description holds (matched as by wordsMatch), a word held only by a
// synonym counting synonymCover as much: synSlots[i] are the slots in
// forms of intent word i's synonyms (see formIndex.addSynonyms). It scans
// the text once, allocating little: it runs on every candidate
// boostNames reads; the synonyms' check reads it again only when an
// uncovered word has synonyms.
func descCoverage(d store.Doc, intentWords []string, weights []float64, forms *formIndex, synSlots [][][]int) float64 {
	var total float64
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return 0
	}
	covered := make([]bool, len(intentWords))
	left := len(intentWords)
	var hit float64
	// Pieces of spaceless scripts are matched against the text's pieces.
	var docPieces []string
	for i, w := range intentWords {
		if !isPiece(w) {
			continue
		}
		if docPieces == nil {
			_, docPieces = store.SplitScripts(d.Name + " " + d.Desc)
			docPieces = append(docPieces, "") // looked up once, even if none
		}
		if slices.Contains(docPieces, w) {
			covered[i] = true
			hit += weights[i]
			left--
		}
	}
	if left == 0 {
		return hit / total
	}
	var starts initials
	for _, w := range intentWords {
		starts.add(w)
	}
	for _, text := range [...]string{d.Name, d.Desc} {
		for tok := range alnumRunSeq(text) {
			if !starts.may(tok) {
				continue // no intent word starts like it
			}
			tok = strings.ToLower(tok) // allocates only for a word with capitals
			for i, w := range intentWords {
				if !covered[i] && wordsMatch(w, tok) {
					covered[i] = true
					hit += weights[i]
					if left--; left == 0 {
						return hit / total
					}
				}
			}
		}
	}
	var found []bool
	for i := range intentWords {
		if covered[i] || len(synSlots[i]) == 0 || weights[i] == 0 {
			continue
		}
		if found == nil {
			found = make([]bool, forms.n)
			forms.scan(found, d.Name, d.Desc)
		}
		if allOf(found, synSlots[i]) {
			hit += synonymCover * weights[i]
		}
	}
	return hit / total
}

// holds reports whether the intent's words hold w: one of them matches it
// (see wordsMatch) or is a synonym of it.
func (s synonyms) holds(intentWords []string, w string) bool {
	return slices.ContainsFunc(intentWords, func(qw string) bool { return wordsMatch(w, qw) }) ||
		slices.ContainsFunc(s.of(w), func(o string) bool {
			return slices.ContainsFunc(intentWords, func(qw string) bool { return qw == o || pluralOf(o, qw) })
		})
}

// wordsMatch reports whether a and b are one word for the boosts: equal,
// one the other's plural (ads/ad, logins/login), or sharing a prefix of
// at least three runes that spans the shorter word or five runes. A
// joined phrasal verb (login) matches no other word by prefix (log).
func wordsMatch(a, b string) bool {
	if a == b || pluralOf(a, b) || pluralOf(b, a) {
		return true
	}
	// Compare the first min(runes(a), runes(b), 5) runes; at least 3.
	n := 0
	for x, y := a, b; n < 5 && x != "" && y != ""; n++ {
		rx, sx := utf8.DecodeRuneInString(x)
		ry, sy := utf8.DecodeRuneInString(y)
		if rx != ry {
			return false
		}
		x, y = x[sx:], y[sy:]
	}
	return n >= 3 && !joined(a) && !joined(b)
}

// pluralOf reports whether plural is w with an English plural ending
// (w is one of singulars(plural)), allocating nothing: it runs for every
// pair of a candidate's words and the intent's.
func pluralOf(w, plural string) bool {
	switch len(plural) - len(w) {
	case 1:
		return plural[len(w)] == 's' && strings.HasPrefix(plural, w)
	case 2:
		if strings.HasSuffix(plural, "ies") && strings.HasSuffix(w, "y") &&
			plural[:len(w)-1] == w[:len(w)-1] {
			return true
		}
		return strings.HasSuffix(plural, "es") && strings.HasPrefix(plural, w)
	}
	return false
}

// nameCoverage is the share of a name's words (see nameTerms) that
// match an intent word (equal, or sharing a prefix: info/information,
// calc/calculate; see wordsMatch) or its synonym (create_ticket for "open
// a case"; see synonyms.holds), each weighed by how rare it is among the
// n names compared (docs counts the names holding each word): ln(1 +
// n/docs). A word every candidate's name holds (a server's prefix:
// twilio, v2010; a family's verb: calculate) tells little; a word few
// hold tells which tool it is.
func nameCoverage(name []string, intentWords []string, syn synonyms, docs map[string]int, n int) float64 {
	var total, hit float64
	for _, nw := range name {
		w := math.Log(1 + float64(max(n, 1))/float64(max(docs[nw], 1)))
		total += w
		if syn.holds(intentWords, nw) {
			hit += w
		}
	}
	if total == 0 {
		return 0
	}
	return hit / total
}

// nameTerms returns the distinct words of a tool's name, stop words and
// numbers aside: distinctWords for a text of a few words, deduplicated
// without a map.
func nameTerms(name string) []string {
	ws := nameWords(name)
	out := ws[:0]
	for _, w := range ws {
		if !stopWords[w] && !isNumber(w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
