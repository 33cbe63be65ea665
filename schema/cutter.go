package schema

import (
	"slices"
	"strings"
)

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
	spans []string        // flagged sentences
	names map[string]bool // flagged name-like texts: tool or property names, enum values
	read  []string        // the texts the detector read
	left  []string        // sentences the card's own lure test left out
}

func newSpanCutter(sc *toolScan) *spanCutter {
	c := &spanCutter{names: map[string]bool{}, read: sc.read}
	for _, f := range sc.found {
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

// lureIn is the lure test for card text made from src, a text the
// detector has read (its flagged sentences cut): a sentence found word
// for word in src or another text it read was judged already; others
// (made by removing markup, decoding entities or joining fields) are
// judged now. Either way a sentence that addresses the model (see
// addressesModel) is left out. Each sentence left out is recorded for
// Withheld.
func (c *spanCutter) lureIn(src string) func(string) bool {
	return func(sentence string) bool { return c.judge(sentence, strings.Contains(src, sentence)) }
}

func (c *spanCutter) judge(sentence string, read bool) bool {
	if c == nil {
		return isLure(sentence) || addressesModel(sentence)
	}
	read = read || c.wasRead(sentence)
	if (read || !isLure(sentence)) && !addressesModel(sentence) {
		return false
	}
	c.left = append(c.left, sentence)
	return true
}

// addressed reports an enum value that addresses the model (see
// addressesModel), and records it as left out.
func (c *spanCutter) addressed(value string) bool {
	if !strings.ContainsAny(value, " \t") || !addressesModel(value) {
		return false // one word addresses no one
	}
	if c != nil {
		c.left = append(c.left, value)
	}
	return true
}

// searchLure is the lure test for search text, which no model reads: a
// sentence the detector read was judged already, and nothing is recorded.
func (c *spanCutter) searchLure(sentence string) bool {
	return !c.wasRead(sentence) && isLure(sentence)
}

func (c *spanCutter) wasRead(sentence string) bool {
	if c == nil {
		return false
	}
	for _, t := range c.read {
		if strings.Contains(t, sentence) {
			return true
		}
	}
	return false
}

// withheld lists what the card leaves out: flagged sentences and names,
// then the sentences its lure test left out, each cut to MaxFlagSpan
// characters, each once.
func (c *spanCutter) withheld() []string {
	if c == nil {
		return nil
	}
	var out []string
	add := func(s string) {
		if s = cutSpan(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, s := range c.spans {
		add(s)
	}
	for _, s := range c.left {
		add(s)
	}
	return out
}

// removedNote is the card note for a tool whose text was cut.
const removedNote = "text that addressed the model rather than describing the tool was removed"
