package schema

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// rule is one compiled detector rule (see ruleSources).
type rule struct {
	name    string
	marks   []string       // substrings that also make the rule worth trying
	drop    *regexp.Regexp // removed from the text before the rule reads it; may be nil
	clauses []clause
}

// clause is one way a rule matches: all its patterns match the sentence.
// Each pattern has the literals one of which its matches must hold (nil
// when unknown), checked before it runs; tight patterns read text whose
// spaced-out letters were joined.
type clause struct {
	checks []check
}

// check is one condition of a clause: a pattern (with the literals one of
// which its matches hold, nil when unknown), a lexicon, or a literal set.
// A pattern's tight form is compiled on first use: only text with
// spaced-out letters reads it, and compiling every one up front doubled
// the detector's compile cost.
type check struct {
	// re is the pattern compiled on first use, and lits the literals one
	// of which its matches hold, read at once: text holding none of them
	// never compiles it. Compiled, the rules' patterns hold ~9 MB, which
	// scanning ordinary text never needs.
	re    func() *regexp.Regexp // nil for a lexicon or a literal set
	lits  []string
	tight func() pattern // nil for a lexicon or a literal set
	lex   *lexicon
	any   []string // "?a|b": one of these substrings
}

// pattern is a compiled pattern and the literals one of which its matches
// hold (nil when unknown).
type pattern struct {
	re   *regexp.Regexp
	lits []string
}

// lexicon is a compiled set of words and substrings.
type lexicon struct {
	words map[string]bool
	parts []string
}

func (l *lexicon) in(text string, tight bool) bool {
	for _, p := range l.parts {
		if strings.Contains(text, p) {
			return true
		}
	}
	if tight {
		for w := range l.words {
			if len(w) >= 4 && strings.Contains(text, w) {
				return true
			}
		}
		return false
	}
	start := -1
	for i, r := range text {
		letter := unicode.IsLetter(r)
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			if l.words[text[start:i]] {
				return true
			}
			start = -1
		}
	}
	return start >= 0 && l.words[text[start:]]
}

func (c *check) holds(text string, tight bool) bool {
	switch {
	case c.lex != nil:
		return c.lex.in(text, tight)
	case c.any != nil:
		for _, a := range c.any {
			if tight {
				a = strings.ReplaceAll(a, " ", "")
			}
			if strings.Contains(text, a) {
				return true
			}
		}
		return false
	}
	if tight {
		t := c.tight()
		if t.lits != nil && !containsAny(text, t.lits) {
			return false
		}
		return t.re.MatchString(text)
	}
	if c.lits != nil && !containsAny(text, c.lits) {
		return false
	}
	return c.re().MatchString(text)
}

func compileLexicons(all map[string]lexiconSource, names []string) *lexicon {
	l := &lexicon{words: map[string]bool{}}
	for _, name := range names {
		src, ok := all[name]
		if !ok {
			panic("schema: unknown lexicon " + name)
		}
		for _, w := range strings.Fields(src.words) {
			l.words[w] = true
		}
		for _, p := range strings.Fields(src.parts) {
			l.parts = append(l.parts, strings.ReplaceAll(p, "_", " "))
			if strings.Contains(p, "_") { // "api sleutel" is also written "api-sleutel"
				l.parts = append(l.parts, strings.ReplaceAll(p, "_", "-"))
			}
		}
	}
	return l
}

func compileRuleCheck(p string, lex map[string]lexiconSource) check {
	switch {
	case strings.HasPrefix(p, "@"):
		names, ok := lexiconSets[p]
		if !ok {
			panic("schema: unknown lexicon set " + p)
		}
		return check{lex: compileLexicons(lex, names)}
	case strings.HasPrefix(p, "?"):
		return check{any: strings.Split(p[1:], "|")}
	}
	tight := sync.OnceValue(func() pattern {
		t := tightPattern(p)
		return pattern{re: regexp.MustCompile(t), lits: requiredLiterals(t)}
	})
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(p) })
	return check{re: re, lits: requiredLiterals(p), tight: tight}
}

// detector holds the compiled rules and the index from word beginnings to
// the rules they make worth trying. Built once, never changed.
type detector struct {
	rules []rule
	stems map[string]uint64 // word beginning (first four letters) or whole word -> bit set of rules
}

// poison is the detector, compiled on first use: compiling takes tens of
// milliseconds and megabytes that a process which never normalizes a tool
// (serve answering from its stored catalog) should not pay at start.
var poison = sync.OnceValue(func() *detector {
	return compileDetector(slices.Concat(ruleSources, plainRuleSources))
})

// propertyNames is the detector of property names' own rules (see
// paramNameRuleSources), compiled with poison.
var propertyNames = sync.OnceValue(func() *detector { return compileDetector(paramNameRuleSources) })

func compileDetector(sources []ruleSource) *detector {
	d := &detector{stems: map[string]uint64{}}
	lex := wordLexicons()
	if len(sources) > 64 {
		panic("schema: more detector rules than a rule set holds")
	}
	for i, src := range sources {
		r := rule{name: src.name}
		if src.marks != "" {
			r.marks = strings.Split(src.marks, " ")
		}
		if src.drop != "" {
			r.drop = regexp.MustCompile(src.drop)
		}
		for _, patterns := range src.any {
			var c clause
			for _, p := range patterns {
				c.checks = append(c.checks, compileRuleCheck(p, lex))
			}
			r.clauses = append(r.clauses, c)
		}
		d.rules = append(d.rules, r)
		for _, s := range src.stems {
			d.stems[s] |= 1 << i
		}
	}
	return d
}

// tightPattern makes the gaps between words optional, for text whose
// spaced-out letters were joined without knowing where words end.
func tightPattern(p string) string {
	p = strings.ReplaceAll(p, `\s+`, `\s*`)
	p = strings.ReplaceAll(p, `\b`, ``)
	return p
}

// stemOf is the shorter key a word is looked up by: its first four
// letters.
func stemOf(word string) string {
	n := 0
	for i := range word {
		if n == 4 {
			return word[:i]
		}
		n++
	}
	return word
}

// segment is one sentence of a field's text, as byte offsets into it.
type segment struct{ start, end int }

// finding is one flagged sentence: the rule, the field and the whole
// sentence as sent (Flag.Span is its first MaxFlagSpan characters).
type finding struct {
	rule, field, text string
}

func (f finding) flag() Flag {
	return Flag{Rule: f.rule, Field: f.field, Span: cutSpan(f.text)}
}

// cutSpan trims a flagged sentence to MaxFlagSpan characters.
func cutSpan(s string) string {
	return truncateRunes(strings.TrimSpace(s), MaxFlagSpan)
}

// toolScan gathers what the detector finds in one tool, and the texts it
// read (so sanitizing them later need not read them again).
type toolScan struct {
	d     *detector
	memo  detectMemo // may be nil
	found []finding
	read  []string
	// fields are the fields of read, one each: the neighbours check
	// (see Neighbours) reads the texts again for names.
	fields []string
}

// detectMemo keeps what the detector found in each text of one catalog, by
// the text: servers repeat the same parameter descriptions across many
// tools. Keys of name-like texts start with a NUL byte.
type detectMemo map[string][]spanHit

// spanHit is one flagged piece of a text, as byte offsets into it.
type spanHit struct {
	rule       string
	start, end int
}

// text checks one text of a tool, sentence by sentence, and records a
// finding per flagged sentence. A tag like <IMPORTANT> flags everything up
// to its closing tag.
func (sc *toolScan) text(field, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	sc.read = append(sc.read, text)
	sc.fields = append(sc.fields, field)
	hits, ok := sc.memo[text]
	if !ok {
		hits = sc.d.scanText(text, false)
		if sc.memo != nil {
			sc.memo[text] = hits
		}
	}
	for _, h := range hits {
		sc.found = append(sc.found, finding{rule: h.rule, field: field, text: text[h.start:h.end]})
	}
}

// scanText finds the flagged sentences of one text.
func (d *detector) scanText(text string, fields bool) []spanHit {
	var hits []spanHit
	segs := splitSegments(text)
	if fields {
		segs = splitFields(text, segs)
	}
	for i := 0; i < len(segs); i++ {
		name := d.match(text[segs[i].start:segs[i].end], 1)
		if name == "" {
			continue
		}
		start, end := segs[i].start, segs[i].end
		if name == RuleTag {
			end = tagBlockEnd(text, start)
			for i+1 < len(segs) && segs[i+1].start < end {
				i++
			}
		}
		hits = append(hits, spanHit{rule: name, start: start, end: end})
	}
	// A conversation written into the text ("Human: ... Assistant: Sure,
	// I will.") spans sentences by design: such a text is also read whole,
	// and a hit flags the whole of it.
	if len(hits) == 0 && len(segs) > 1 && chatTurns(text) {
		if name := d.match(bounded(text), 1); name != "" {
			hits = append(hits, spanHit{rule: name, end: len(text)})
		}
	}
	return hits
}

// chatTurns reports text that writes an assistant's turn after a human's,
// a user's or a system's, as chat transcripts label them.
func chatTurns(text string) bool {
	if !strings.Contains(text, "ssistant:") && !strings.Contains(text, "SSISTANT:") {
		return false // most texts: no lower-cased copy
	}
	l := strings.ToLower(text)
	i := strings.Index(l, "assistant:")
	if i < 0 {
		return false
	}
	before := l[:i]
	return strings.Contains(before, "human:") || strings.Contains(before, "user:") || strings.Contains(before, "system:")
}

// name checks a name-like text (a tool or property name, an enum value)
// as words ("ignore_previous_instructions"), and as written when it is not
// a plain identifier.
func (sc *toolScan) name(field, name string) {
	if name == "" {
		return
	}
	key := "\x00" + name
	hits, ok := sc.memo[key]
	if !ok {
		if r := sc.d.scanName(name); r != "" {
			hits = []spanHit{{rule: r, end: len(name)}}
		}
		if sc.memo != nil {
			sc.memo[key] = hits
		}
	}
	for _, h := range hits {
		sc.found = append(sc.found, finding{rule: h.rule, field: field, text: name})
	}
}

// property checks a property name against the rules of property names
// (see paramNameRuleSources), read as words.
func (sc *toolScan) property(field, name string) {
	key := "\x01" + name
	hits, ok := sc.memo[key]
	if !ok {
		if words := nameWords(name); strings.Contains(words, " ") {
			if r := propertyNames().matchEvery(words); r != "" {
				hits = []spanHit{{rule: r, end: len(name)}}
			}
		}
		if sc.memo != nil {
			sc.memo[key] = hits
		}
	}
	for _, h := range hits {
		sc.found = append(sc.found, finding{rule: h.rule, field: field, text: name})
	}
}

// matchEvery is match with every rule tried, whatever words the text
// holds, over the plain and Latin views: for a detector of few rules.
func (d *detector) matchEvery(s string) string {
	v := textViews(s, 0)
	for _, text := range []string{v.plain, v.latin} {
		if text == "" {
			continue
		}
		if r := d.matchView(text, ^uint64(0), false); r != "" {
			return r
		}
	}
	return ""
}

// scanName returns the rule a name-like text breaks, or "".
func (d *detector) scanName(name string) string {
	words := nameWords(name)
	if isASCII(name) && len(name) < minBlobChars && !strings.Contains(words, " ") {
		return "" // one plain word: no rule reads a single word
	}
	if !clearName.MatchString(name) || words == "" {
		if r := d.match(name, 1); r != "" {
			return r
		}
	}
	if words != "" {
		return d.match(words, 1)
	}
	return ""
}

// match returns the name of the first rule one sentence breaks, or "".
func (d *detector) match(s string, depth int) string {
	v := textViews(s, depth)
	for _, text := range []string{v.plain, v.latin} {
		if text == "" {
			continue
		}
		if r := d.matchView(text, d.candidates(text), false); r != "" {
			return r
		}
	}
	if v.tight != "" {
		if r := d.matchView(v.tight, ^uint64(0), true); r != "" {
			return r
		}
	}
	for _, payload := range v.decoded {
		if d.match(payload, depth-1) != "" {
			return RulePayload
		}
	}
	if v.obfuscated != "" {
		return RuleObfuscated
	}
	return ""
}

// candidates is the bit set of rules whose words occur in text; every rule
// when text holds CJK characters, which are not split into words, or
// Devanagari or Thai, whose words marks split.
func (d *detector) candidates(text string) uint64 {
	var bits uint64
	for i, r := range d.rules {
		for _, m := range r.marks {
			if strings.Contains(text, m) {
				bits |= 1 << i
				break
			}
		}
	}
	start := -1
	for i, r := range text {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if letter && r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return ^uint64(0)
		}
		if r >= 0x0900 && r < 0x0E80 && unicode.In(r, unicode.Devanagari, unicode.Thai) {
			return ^uint64(0) // vowel signs are marks, which split its words apart
		}
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			bits |= d.wordBits(text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		bits |= d.wordBits(text[start:])
	}
	return bits
}

func (d *detector) wordBits(w string) uint64 {
	if s := stemOf(w); len(s) < len(w) {
		return d.stems[s] | d.stems[w]
	}
	return d.stems[w]
}

// matchSingle is match with only the clauses that are one pattern (with
// the literals it needs), over the plain and Latin views.
func (d *detector) matchSingle(s string) string {
	v := textViews(s, 0)
	for _, text := range []string{v.plain, v.latin} {
		if text == "" {
			continue
		}
		bits := d.candidates(text)
		for i := range d.rules {
			if bits&(1<<i) == 0 {
				continue
			}
			for _, c := range d.rules[i].clauses {
				if c.single() && c.matches(text, false) {
					return d.rules[i].name
				}
			}
		}
	}
	return ""
}

// single reports a clause that is one pattern, perhaps with literals it
// needs: a clause that can be read across sentences.
func (c *clause) single() bool {
	n := 0
	for _, ch := range c.checks {
		if ch.any == nil {
			n++
		}
	}
	return n == 1
}

func (d *detector) matchView(text string, bits uint64, tight bool) string {
	for i := range d.rules {
		if bits&(1<<i) == 0 {
			continue
		}
		r := &d.rules[i]
		t := text
		if r.drop != nil {
			t = r.drop.ReplaceAllString(t, " ")
		}
		for _, c := range r.clauses {
			if c.matches(t, tight) {
				return r.name
			}
		}
	}
	return ""
}

// matches runs the clause's checks in order, cheapest written first.
func (c *clause) matches(s string, tight bool) bool {
	for i := range c.checks {
		if !c.checks[i].holds(s, tight) {
			return false
		}
	}
	return true
}

// splitSegments cuts text into sentences: at line breaks, at sentence
// ends, and after CJK full stops.
func splitSegments(text string) []segment {
	var out []segment
	lineStart := 0
	for lineStart <= len(text) {
		lineEnd := strings.IndexAny(text[lineStart:], "\n\r\u2028\u2029")
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += lineStart
		}
		line := text[lineStart:lineEnd]
		for at := 0; at < len(line); {
			end := sentenceBreak(line[at:])
			if i := strings.IndexAny(line[at:at+end], "。！？"); i >= 0 {
				_, n := utf8.DecodeRuneInString(line[at+i:])
				end = i + n
			}
			if strings.TrimSpace(line[at:at+end]) != "" {
				out = append(out, segment{lineStart + at, lineStart + at + end})
			}
			at += end
		}
		if lineEnd == len(text) {
			break
		}
		_, n := utf8.DecodeRuneInString(text[lineEnd:])
		lineStart = lineEnd + n
	}
	return out
}

// fieldEnd matches where a JSON string ends a member's name or value: the
// closing quote and the comma, colon or bracket after it.
var fieldEnd = regexp.MustCompile(`"\s*[,:}\]]`)

// splitFields cuts each segment of text at the ends of JSON strings, so
// that the fields of a record a tool returned are read apart: a ticket
// whose description says "password reset" and whose requester has an
// email address is not one sentence that sends a password to an address.
func splitFields(text string, segs []segment) []segment {
	var out []segment
	for _, sg := range segs {
		at := sg.start
		for _, m := range fieldEnd.FindAllStringIndex(text[sg.start:sg.end], -1) {
			end := sg.start + m[1]
			if strings.TrimSpace(text[at:end]) != "" {
				out = append(out, segment{at, end})
			}
			at = end
		}
		if strings.TrimSpace(text[at:sg.end]) != "" {
			out = append(out, segment{at, sg.end})
		}
	}
	return out
}

// tagOpen finds an opening tag the tag rule names, to find its close.
var tagOpen = regexp.MustCompile(`(?i)<\s*([a-z_]+)[^<>]{0,80}>`)

// tagBlockEnd is where the tag block that starts in the sentence at start
// ends: after its closing tag, or at the end of the text when it is never
// closed.
func tagBlockEnd(text string, start int) int {
	m := tagOpen.FindStringSubmatchIndex(text[start:])
	if m == nil {
		return sentenceAfter(text, start)
	}
	name := text[start+m[2] : start+m[3]]
	closeRe := regexp.MustCompile(`(?i)<\s*/\s*` + regexp.QuoteMeta(name) + `\s*>`)
	if c := closeRe.FindStringIndex(text[start+m[1]:]); c != nil {
		return start + m[1] + c[1]
	}
	return len(text)
}

// sentenceAfter is the end of the sentence starting at start.
func sentenceAfter(text string, start int) int {
	for _, s := range splitSegments(text[start:]) {
		return start + s.end
	}
	return len(text)
}

// maxScanChars bounds the characters of one text the detector reads; the
// card never shows more than MaxProseChars of a description.
const maxScanChars = 16 * MaxProseChars

// detectTool checks every text of a tool that can reach a card or a
// model-facing message: name, titles, description, and in the input schema
// property names, descriptions, titles, enum values, defaults, constants
// and examples, nested ones included.
// memo, when not nil, is shared by the tools of one catalog.
func (d *detector) detectTool(tool *node, memo detectMemo) *toolScan {
	sc := &toolScan{d: d, memo: memo}
	sc.name("name", tool.get("name").str())
	sc.text("title", bounded(tool.get("title").str()))
	sc.text("description", bounded(tool.get("description").str()))
	if a := tool.get("annotations"); a != nil {
		sc.text("annotations.title", bounded(a.get("title").str()))
	}
	if in := tool.get("inputSchema"); in != nil {
		sc.schema("inputSchema", in)
	}
	return sc
}

func bounded(s string) string { return truncateRunes(s, maxScanChars) }

// schema checks the texts of one schema and the schemas under it.
func (sc *toolScan) schema(path string, n *node) {
	switch n.kind {
	case kindArray:
		for _, v := range n.vals {
			sc.schema(path, v)
		}
	case kindObject:
		for i, key := range n.keys {
			val := n.vals[i]
			field := path + "." + key
			switch key {
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
				if val.kind != kindObject {
					continue
				}
				for j, name := range val.keys {
					if key == "properties" {
						sc.name(field+"."+name, name)
						sc.property(field+"."+name, name)
					}
					sc.schema(field+"."+name, val.vals[j])
				}
			case "description", "title", "$comment":
				sc.text(field, bounded(val.str()))
			case "enum", "examples", "default", "const", "example":
				sc.value(field, val)
			case "required":
			default:
				if val.kind == kindObject || val.kind == kindArray {
					sc.schema(field, val)
				}
			}
		}
	}
}

// value checks every string inside a JSON value: a word-like one as a
// name, a sentence as text.
func (sc *toolScan) value(field string, v *node) {
	switch v.kind {
	case kindString:
		if strings.ContainsAny(v.text, " \n\t") {
			sc.text(field, bounded(v.text))
		} else {
			sc.name(field, bounded(v.text))
		}
	case kindArray, kindObject:
		for _, item := range v.vals {
			sc.value(field, item)
		}
	}
}
