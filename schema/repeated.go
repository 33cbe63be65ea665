package schema

import (
	"strings"
	"unicode"
)

// A sentence that most of a server's tools repeat word for word in their
// descriptions ("Twilio - Api: This is the public Twilio REST API.", "Only
// works within allowed directories.", "Error Responses: 400: Bad
// request") says what the server is, or how all its tools behave, not
// what one of them does. It fills each card with words that tell the
// tools apart from nothing, and its words are found in every tool of the
// server by any intent that holds one ("make" in Twilio's "the account
// used to make the request", "paths" in every desktop command).
// NormalizeCatalog takes such sentences out of the cards' summaries and
// hands them to the search text apart ([Tool.Described]); the record
// keeps the whole description, and the definition its hash covers is the
// one listed.
const (
	// minRepeatTools is the smallest listing whose shared sentences are
	// taken out: in a smaller one, half the tools is one or two.
	minRepeatTools = 4
	// minRepeatHolders is the fewest tools that must hold a sentence.
	minRepeatHolders = 3
	// minSentenceWords: shorter pieces ("Parameters:", "- path") are
	// headings and list marks, left in place.
	minSentenceWords = 2
	// maxSentenceKeys bounds the distinct sentences a listing's count
	// holds: a hostile listing of 16 MB of distinct sentences would
	// otherwise hold millions. Past it, only sentences already seen are
	// counted; a sentence most tools repeat is seen among the first.
	maxSentenceKeys = 1 << 16
)

// repeatedSentences is the set of sentences (see sentenceKey), and of
// asides that end sentences (see trailingAside), held by at least half a
// listing's tools; nil when there are none.
type repeatedSentences map[string]bool

// sentenceCounter counts, for each sentence, how many descriptions hold it.
type sentenceCounter struct {
	tools  int
	counts map[string]int
	seen   map[string]bool // the current description's sentences
}

// add counts the sentences of one tool's description, each once, within
// the MaxProseChars that the card and the search text keep of it.
func (c *sentenceCounter) add(desc string) {
	c.tools++
	desc = truncateRunes(desc, MaxProseChars)
	if desc == "" {
		return
	}
	if c.counts == nil {
		c.counts = make(map[string]int)
		c.seen = make(map[string]bool)
	}
	clear(c.seen)
	count := func(k string) {
		if k == "" || c.seen[k] {
			return
		}
		if _, ok := c.counts[k]; ok || len(c.counts) < maxSentenceKeys {
			c.seen[k] = true
			c.counts[k]++
		}
	}
	for _, seg := range splitSegments(desc) {
		s := desc[seg.start:seg.end]
		count(sentenceKey(s))
		if at, end := trailingAside(s); at >= 0 {
			count(asideKey(s[at:end]))
		}
	}
}

// repeated returns the sentences that at least half the counted tools,
// and at least minRepeatHolders, hold.
func (c *sentenceCounter) repeated() repeatedSentences {
	if c.tools < minRepeatTools {
		return nil
	}
	var out repeatedSentences
	for k, n := range c.counts {
		if n >= minRepeatHolders && 2*n >= c.tools {
			if out == nil {
				out = make(repeatedSentences)
			}
			out[k] = true
		}
	}
	return out
}

// split returns desc less the repeated sentences, and those sentences,
// one a line. A description made of nothing else is kept whole: it is
// all the tool says.
func (r repeatedSentences) split(desc string) (own, repeated string) {
	if len(r) == 0 || desc == "" {
		return desc, ""
	}
	var taken strings.Builder
	own = rewriteSentences(desc, func(s string) string {
		if k := sentenceKey(s); k != "" && r[k] {
			taken.WriteString(strings.TrimSpace(s))
			taken.WriteByte('\n')
			return ""
		}
		return s
	})
	if taken.Len() == 0 || strings.TrimSpace(own) == "" {
		return desc, ""
	}
	return strings.TrimSpace(own), strings.TrimSuffix(taken.String(), "\n")
}

// trimAsides returns s less the repeated asides that end its sentences
// or are one ("... connections (Uses default AccountSid: AC00… if not
// provided)"),
// for the card: an aside a server appends to most of its tools is no
// more about one of them than a sentence it repeats is. The search text
// keeps them (see split): each would leave only a few words a tool's
// text, which then reads as covered by any intent sharing one.
func (r repeatedSentences) trimAsides(s string) string {
	if len(r) == 0 {
		return s
	}
	out := rewriteSentences(s, func(sent string) string {
		at, end := trailingAside(sent)
		if at < 0 || !r[asideKey(sent[at:end])] {
			return sent
		}
		return strings.TrimRightFunc(sent[:at], unicode.IsSpace) + sent[end:]
	})
	if strings.TrimSpace(out) == "" {
		return s
	}
	return out
}

// rewriteSentences returns s with each of its sentences (see
// splitSegments) replaced by what edit returns for it. The text between
// sentences stays, but for the line break after one edit empties.
func rewriteSentences(s string, edit func(sentence string) string) string {
	var b strings.Builder
	prev, dropped := 0, false
	for _, seg := range splitSegments(s) {
		if !dropped {
			b.WriteString(s[prev:seg.start])
		}
		e := edit(s[seg.start:seg.end])
		b.WriteString(e)
		prev, dropped = seg.end, e == ""
	}
	if !dropped {
		b.WriteString(s[prev:])
	}
	return b.String()
}

// asideKey is the key of an aside in repeatedSentences: its sentence key
// after a space, which no sentence key starts with, so that an aside
// never takes a sentence out of the search text, nor a sentence an
// aside out of a card. "" for an aside of fewer than minSentenceWords
// words.
func asideKey(aside string) string {
	if k := sentenceKey(aside); k != "" {
		return " " + k
	}
	return ""
}

// trailingAside returns where the parenthesis that ends sentence s (but
// for a full stop and white space) opens and closes (at 0: the sentence
// is one); at < 0 when s ends with no parenthesis.
func trailingAside(s string) (at, end int) {
	t := strings.TrimSuffix(strings.TrimRightFunc(s, unicode.IsSpace), ".")
	if !strings.HasSuffix(t, ")") {
		return -1, 0
	}
	end = len(t)
	depth := 0
	for i := end - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return i, end
			}
		}
	}
	return -1, 0
}

// sentenceKey is a sentence's words joined by single spaces, or "" for
// one of fewer than minSentenceWords words.
func sentenceKey(s string) string {
	fs := strings.Fields(s)
	if len(fs) < minSentenceWords {
		return ""
	}
	return strings.Join(fs, " ")
}
