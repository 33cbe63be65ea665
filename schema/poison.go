package schema

import (
	"regexp"
	"strings"
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
	res, tight  []*regexp.Regexp
	lits, tlits [][]string
}

// detector holds the compiled rules and the index from word beginnings to
// the rules they make worth trying. Built once, never changed.
type detector struct {
	rules []rule
	stems map[string]uint64 // word beginning (first four letters) or whole word -> bit set of rules
}

var poison = compileDetector(ruleSources)

func compileDetector(sources []ruleSource) *detector {
	d := &detector{stems: map[string]uint64{}}
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
				c.res = append(c.res, regexp.MustCompile(p))
				c.lits = append(c.lits, requiredLiterals(p))
				t := tightPattern(p)
				c.tight = append(c.tight, regexp.MustCompile(t))
				c.tlits = append(c.tlits, requiredLiterals(t))
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

// scanText checks one text of a tool, sentence by sentence, and appends a
// finding per flagged sentence. A tag like <IMPORTANT> flags everything up
// to its closing tag.
func (d *detector) scanText(field, text string, out []finding) []finding {
	if strings.TrimSpace(text) == "" {
		return out
	}
	segs := splitSegments(text)
	for i := 0; i < len(segs); i++ {
		s := text[segs[i].start:segs[i].end]
		name := d.match(s, 1)
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
		out = append(out, finding{rule: name, field: field, text: text[start:end]})
	}
	return out
}

// scanName checks a name-like text (a tool or property name, an enum
// value) as written and as words ("ignore_previous_instructions").
func (d *detector) scanName(field, name string, out []finding) []finding {
	if name == "" {
		return out
	}
	if r := d.match(name, 1); r != "" {
		return append(out, finding{rule: r, field: field, text: name})
	}
	if words := nameWords(name); words != "" && words != strings.ToLower(name) {
		if r := d.match(words, 1); r != "" {
			return append(out, finding{rule: r, field: field, text: name})
		}
	}
	return out
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
	return ""
}

// candidates is the bit set of rules whose words occur in text; every rule
// when text holds CJK characters, which are not split into words.
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

// matches checks every pattern's literals first, then runs the patterns.
func (c *clause) matches(s string, tight bool) bool {
	res, lits := c.res, c.lits
	if tight {
		res, lits = c.tight, c.tlits
	}
	for _, l := range lits {
		if l != nil && !containsAny(s, l) {
			return false
		}
	}
	for _, re := range res {
		if !re.MatchString(s) {
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
func (d *detector) detectTool(tool *node) []finding {
	var out []finding
	out = d.scanName("name", tool.get("name").str(), out)
	out = d.scanText("title", bounded(tool.get("title").str()), out)
	out = d.scanText("description", bounded(tool.get("description").str()), out)
	if a := tool.get("annotations"); a != nil {
		out = d.scanText("annotations.title", bounded(a.get("title").str()), out)
	}
	if in := tool.get("inputSchema"); in != nil {
		out = d.walkSchema("inputSchema", in, out)
	}
	return out
}

func bounded(s string) string { return truncateRunes(s, maxScanChars) }

// walkSchema checks the texts of one schema and the schemas under it.
func (d *detector) walkSchema(path string, n *node, out []finding) []finding {
	switch n.kind {
	case kindArray:
		for _, v := range n.vals {
			out = d.walkSchema(path, v, out)
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
						out = d.scanName(field+"."+name, name, out)
					}
					out = d.walkSchema(field+"."+name, val.vals[j], out)
				}
			case "description", "title", "$comment":
				out = d.scanText(field, bounded(val.str()), out)
			case "enum", "examples", "default", "const", "example":
				out = d.scanValue(field, val, out)
			case "required":
			default:
				if val.kind == kindObject || val.kind == kindArray {
					out = d.walkSchema(field, val, out)
				}
			}
		}
	}
	return out
}

// scanValue checks every string inside a JSON value: a word-like one as a
// name, a sentence as text.
func (d *detector) scanValue(field string, v *node, out []finding) []finding {
	switch v.kind {
	case kindString:
		if strings.ContainsAny(v.text, " \n\t") {
			return d.scanText(field, bounded(v.text), out)
		}
		return d.scanName(field, bounded(v.text), out)
	case kindArray, kindObject:
		for _, item := range v.vals {
			out = d.scanValue(field, item, out)
		}
	}
	return out
}

// flagsOf turns findings into the record's flags.
func flagsOf(fs []finding) []Flag {
	if len(fs) == 0 {
		return nil
	}
	out := make([]Flag, len(fs))
	for i, f := range fs {
		out[i] = f.flag()
	}
	return out
}

// spanCutter removes flagged sentences from the texts a card is built from.
type spanCutter struct {
	spans []string        // flagged sentences, longest first
	names map[string]bool // flagged name-like texts: tool or property names, enum values
}

func newSpanCutter(fs []finding) *spanCutter {
	c := &spanCutter{names: map[string]bool{}}
	for _, f := range fs {
		c.names[f.text] = true
		if t := strings.TrimSpace(f.text); t != "" {
			c.spans = append(c.spans, t)
		}
	}
	return c
}

// cut removes every flagged sentence from s.
func (c *spanCutter) cut(s string) string {
	if c == nil || len(c.spans) == 0 || s == "" {
		return s
	}
	for _, span := range c.spans {
		if strings.Contains(s, span) {
			s = strings.ReplaceAll(s, span, " ")
		}
	}
	return s
}

// flagged reports a name-like text (tool or property name, enum value)
// that was itself flagged or holds a flagged sentence.
func (c *spanCutter) flagged(s string) bool {
	if c == nil || len(c.spans) == 0 {
		return false
	}
	return c.names[s] || c.cut(s) != s
}

// removedNote is the card note for a tool whose text was cut.
const removedNote = "text that addressed the model rather than describing the tool was removed"

// Lure reports whether one sentence breaks a detector rule, and which.
func Lure(sentence string) (rule string, ok bool) {
	r := poison.match(sentence, 1)
	return r, r != ""
}
