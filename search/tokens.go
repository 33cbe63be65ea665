package search

import (
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// words splits free text into lower-cased word tokens: runs of letters and
// digits, with identifiers also split on camelCase humps. Anything else
// (punctuation, quotes, operators, emoji) separates words and is dropped, so
// a token is always safe to quote in an FTS5 expression.
func words(text string) []string {
	var out []string
	for _, run := range alnumRuns(text) {
		out = appendHumps(out, run)
	}
	return out
}

// nameWords splits a tool name on dots, underscores, hyphens, slashes and
// camelCase humps: "AclApi.add_mapping" -> acl api add mapping.
func nameWords(name string) []string { return words(name) }

// alnumRuns returns the maximal runs of letters and digits in s, in a
// slice made once: they are counted first, as strings.FieldsFunc does.
func alnumRuns(s string) []string {
	n := 0
	for range alnumRunSeq(s) {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for run := range alnumRunSeq(s) {
		out = append(out, run)
	}
	return out
}

// alnumRunSeq yields the maximal runs of letters and digits in s, as
// strings.FieldsFuncSeq(s, notAlnum) does, reading an ASCII byte without
// decoding it: it runs over every word of every ranked tool's text.
func alnumRunSeq(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i < len(s); {
			c, n := s[i], 1
			var in bool
			if c < utf8.RuneSelf {
				in = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
			} else {
				var r rune
				r, n = utf8.DecodeRuneInString(s[i:])
				in = !notAlnum(r)
			}
			switch {
			case in && start < 0:
				start = i
			case !in && start >= 0:
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
			i += n
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// initials marks the ASCII bytes that a few wanted words start with. A
// text word matches a wanted word (as it is, or a stem or plural of it)
// only if it starts like it: a text word starting with another ASCII
// byte needs no closer look, and most of a tool's words are let go so.
type initials [utf8.RuneSelf]bool

// add marks the first byte of w, if ASCII.
func (in *initials) add(w string) {
	if w != "" && w[0] < utf8.RuneSelf {
		in[w[0]] = true
	}
}

// may reports whether text word w, in any case, may start like one of
// the wanted words.
func (in *initials) may(w string) bool {
	if w == "" || w[0] >= utf8.RuneSelf {
		return true
	}
	return in[unicode.ToLower(rune(w[0]))]
}

// notAlnum reports whether r is neither a letter nor a digit.
func notAlnum(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// appendHumps appends to dst the parts of one run of letters and digits,
// split at lower-to-upper changes ("getUserID" -> get user id,
// "HTTPServer" -> http server) and lower-cased. A run without humps is
// one lower-cased word. It runs on every word of every ranked tool's
// text: a run of ASCII lower-case letters and digits (most words) is
// appended as is, and no run is copied to runes.
func appendHumps(dst []string, run string) []string {
	if plainLower(run) {
		return append(dst, run)
	}
	start := 0
	prev, size := utf8.DecodeRuneInString(run)
	for i := size; i < len(run); {
		cur, n := utf8.DecodeRuneInString(run[i:])
		split := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur)
		// "HTTPServer": split before the last upper of an upper run followed by a lower.
		if !split && unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+n < len(run) {
			next, _ := utf8.DecodeRuneInString(run[i+n:])
			split = unicode.IsLower(next)
		}
		if split {
			dst = append(dst, strings.ToLower(run[start:i]))
			start = i
		}
		prev = cur
		i += n
	}
	return append(dst, strings.ToLower(run[start:]))
}

// plainLower reports whether run holds only ASCII lower-case letters and
// digits: it has no humps and nothing to lower-case.
func plainLower(run string) bool {
	for i := 0; i < len(run); i++ {
		if c := run[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// queryWords returns the distinct words of an intent worth searching for,
// in order: phrasal verbs joined (see joinPhrasal), abbreviations spelled
// out (see spellOut), stop words dropped,
// words over maxWordRunes dropped (no tool-domain word is that long; such
// runs are pasted blobs), text in scripts written without spaces cut into
// pieces, values cut out and the words their shapes imply added at the
// end (see readValues).
func queryWords(intent string) []string {
	return intentWords(readValues(intent))
}

// intentWords is queryWords of an intent's reading. Text in scripts
// written without spaces becomes the pieces the word table indexes (see
// store.SplitScripts).
func intentWords(r valueReading) []string {
	text, pieces := store.SplitScripts(r.text)
	pieces = pieces[:min(len(pieces), maxIntentPieces)]
	seen := make(map[string]bool)
	var out []string
	for _, w := range slices.Concat(spellOut(joinPhrasal(words(text))), pieces, r.hints) {
		if seen[w] || stopWords[w] || utf8.RuneCountInString(w) > maxWordRunes {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// maxWordRunes bounds the length of one query word.
const maxWordRunes = 40

// maxIntentPieces bounds the pieces of text in scripts written without
// spaces that one intent searches (about a 30-letter clause): a pasted
// page of Chinese would otherwise make thousands of query terms.
const maxIntentPieces = 64

// stopWords are English function words and chat filler that carry no
// information about which tool is wanted. Words that name tool actions
// (get, find, show, list, search, send, open) are deliberately absent.
var stopWords = setOf(
	// English function words.
	"a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
	"as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but",
	"by", "can", "cannot", "could", "did", "do", "does", "doing", "during", "each",
	"few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here",
	"hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it",
	"its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not",
	"of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out",
	"over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the",
	"their", "theirs", "them", "themselves", "then", "there", "these", "they", "this",
	"those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were",
	"what", "when", "where", "which", "while", "who", "whom", "why", "will", "with",
	"would", "you", "your", "yours", "yourself", "yourselves", "s", "t", "d", "ll", "m",
	"re", "ve", "also", "been", "shall", "may", "might", "must", "us", "within", "whether",
	"given", "using", "use", "via", "etc", "e", "g", "ie", "eg",
	// Chat filler.
	"please", "pls", "plz", "help", "hi", "hello", "hey", "thanks", "thank", "kindly",
	"want", "wanna", "need", "needs", "like", "would", "let", "lets", "know", "tell",
	"something", "anything", "someone", "somebody", "able", "possible", "ok", "okay",
	"maybe", "perhaps", "currently", "really", "actually", "just", "quick", "quickly",
	"way", "ways", "tool", "tools", "thing", "things", "looking", "trying", "try",
	"recommend", "suggest", "assist", "provide", "give", "going",
)

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// isPiece reports whether w is a piece of text in a script written
// without spaces (see store.SplitScripts): never a typo, and matched in a
// description by its pieces.
func isPiece(w string) bool {
	_, pieces := store.SplitScripts(w)
	return len(pieces) > 0
}
