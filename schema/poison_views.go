package schema

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text written so that a reader, or a model, reads it one way while a
// pattern reads another: leetspeak digits for letters, a run stored
// backwards behind a right-to-left override (which renders it forwards),
// rot13, percent-encoding. Each is turned back into plain text here, only
// when the text looks written that way, and read by every rule.

// leetLetters are the characters written for letters in leetspeak
// ("1gn0re pr3vi0us 1nstructi0ns", "$3nd").
var leetLetters = [128]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '$': 's'}

func isLeet(c byte) bool { return c < 128 && leetLetters[c] != 0 }

// foldLeet replaces the leetspeak characters (see leetLetters) of the
// words that write them for letters by the letters they stand for; it
// reports false when none does. A word is leet when it holds at least
// three letters and a leetspeak character right before a letter
// ("1gn0re", "pr3vious"): version and format names end in their digits
// (sha256, base64, v2010, oauth2, ec2) and stay as they are. A text with
// two words or more that write a leetspeak character before a letter,
// with two letters or more ("r34d", "4nd"), is written in leetspeak, and
// then every word that mixes letters and those characters ("th3", "t0"),
// and every word of two or three such characters ("70"), is folded. So the view is made, and read, only for the rare text that
// writes leetspeak.
func foldLeet(s string) (string, bool) {
	type word struct{ start, end int }
	var strict, loose []word
	strong := 0
	for i := 0; i < len(s); {
		j := i
		letters, leet, before := 0, 0, false
		for j < len(s) && (isASCIILetter(s[j]) || isDigit(s[j]) || s[j] == '$') {
			switch {
			case isASCIILetter(s[j]):
				letters++
			case isLeet(s[j]):
				leet++
				before = before || j+1 < len(s) && isASCIILetter(s[j+1])
			}
			j++
		}
		if letters >= 2 && before {
			strong++
		}
		switch {
		case letters >= 3 && before:
			strict = append(strict, word{i, j})
		case letters >= 1 && leet >= 1 && (j-i) <= 12, letters == 0 && leet == j-i && leet >= 2 && leet <= 3:
			loose = append(loose, word{i, j}) // "t0", "th3", and "70" for "to"
		}
		if j == i {
			j++
		}
		i = j
	}
	if strong >= 2 {
		strict = append(strict, loose...)
	}
	if len(strict) == 0 {
		return s, false
	}
	b := []byte(s)
	for _, w := range strict {
		for k := w.start; k < w.end; k++ {
			if isLeet(s[k]) {
				b[k] = leetLetters[s[k]]
			}
		}
	}
	return string(b), true
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// turnedPayloads returns the plain readings of a text written backwards,
// in rot13 or percent-encoded, each only when the text looks written that
// way; plain is the text's lower-case view. (Text behind a right-to-left
// override is read by bidiReversed, before its controls are removed.)
func turnedPayloads(plain string) []string {
	var out []string
	if looksBackwards(plain) {
		out = append(out, reverseRunes(plain))
	}
	if looksRot13(plain) {
		out = append(out, rot13(plain))
	}
	if p, ok := percentDecoded(plain); ok {
		out = append(out, p)
	}
	return out
}

// Bidi controls that reverse, or end a reversal.
const (
	rlo = '\u202e' // right-to-left override: letters after it render right to left
	lro = '\u202d' // left-to-right override
	pdf = '\u202c' // pop directional formatting
	pdi = '\u2069' // pop directional isolate
)

// bidiReversed returns the text as it renders when it holds a
// right-to-left override: each run from the override to the control that
// ends it (or the end of the line) is reversed, as a reader sees it.
func bidiReversed(s string) (string, bool) {
	if isASCII(s) || !strings.ContainsRune(s, rlo) {
		return "", false
	}
	var b strings.Builder
	var run []rune
	in := false
	flush := func() {
		for i := len(run) - 1; i >= 0; i-- {
			b.WriteRune(run[i])
		}
		run = run[:0]
	}
	for _, r := range s {
		switch {
		case r == rlo:
			flush()
			in = true
		case in && (r == pdf || r == pdi || r == lro || r == '\n'):
			flush()
			in = false
			if r == '\n' {
				b.WriteRune(r)
			}
		case in:
			run = append(run, r)
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return stripHidden(b.String()), true
}

// backwardsWords are common English words spelled backwards ("eht",
// "uoy"): a text holding several is English written backwards.
var backwardsWords = map[string]bool{"ot": true, "ni": true, "fo": true, "si": true, "ti": true, "fi": true, "reven": true, "syawla": true, "dnes": true, "eht": true, "dna": true, "uoy": true, "ruoy": true, "htiw": true, "siht": true, "taht": true, "yreve": true, "resu": true, "lla": true, "rof": true, "morf": true, "otni": true}

// rot13Words are common English words in rot13 ("gur", "lbh").
var rot13Words = map[string]bool{"ner": true, "na": true, "abj": true, "ba": true, "gb": true, "bs": true, "va": true, "vf": true, "vg": true, "vs": true, "gur": true, "nal": true, "jvgubhg": true, "nyjnlf": true, "gurve": true, "cyrnfr": true, "gryy": true, "fraq": true, "crefba": true, "naq": true, "lbh": true, "lbhe": true, "jvgu": true, "guvf": true, "gung": true, "rirel": true, "hfre": true, "nyy": true, "sbe": true, "sebz": true, "vagb": true, "abg": true, "arire": true}

// looksBackwards reports a text with two or more of backwardsWords.
func looksBackwards(plain string) bool { return countWords(plain, backwardsWords) >= 2 }

// looksRot13 reports a text with two or more of rot13Words.
func looksRot13(plain string) bool { return countWords(plain, rot13Words) >= 2 }

// countWords counts the distinct ASCII words of s found in set.
func countWords(s string, set map[string]bool) int {
	var seen []string
	start := -1
	for i := 0; i <= len(s); i++ {
		letter := i < len(s) && 'a' <= s[i] && s[i] <= 'z'
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			if w := s[start:i]; i-start <= 7 && set[w] && !slices.Contains(seen, w) {
				seen = append(seen, w)
			}
			start = -1
		}
	}
	return len(seen)
}

func reverseRunes(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// rot13 rotates the ASCII letters of s by 13.
func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case 'A' <= c && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// minEscapes is the fewest percent escapes that make a text worth
// decoding.
const minEscapes = 3

// percentDecoded decodes the %XX escapes of a text holding at least
// minEscapes of them; escapes that are not two hex digits stay as they
// are, and a decoding that is not UTF-8 is not returned.
func percentDecoded(s string) (string, bool) {
	if strings.Count(s, "%") < minEscapes {
		return "", false
	}
	b := make([]byte, 0, len(s))
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHexByte(s[i+1]) && isHexByte(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			n++
			continue
		}
		b = append(b, s[i])
	}
	if n < minEscapes || !utf8.Valid(b) {
		return "", false
	}
	return collapseSpace(strings.ToLower(string(b))), true
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// RuleObfuscated flags text written to read one way to a pattern and
// another to a reader or a model (see obfuscated), whatever it says.
const RuleObfuscated = "encoded.obfuscated"

// englishWords are the commonest English words: a decoding that holds
// several reads as English.
var englishWords = map[string]bool{"are": true, "an": true, "now": true, "without": true, "the": true, "and": true, "to": true, "you": true, "your": true, "of": true, "in": true, "is": true, "for": true, "with": true, "this": true, "that": true, "all": true, "every": true, "user": true, "it": true, "on": true, "not": true, "do": true, "if": true, "any": true, "from": true, "into": true, "never": true, "always": true, "send": true, "tell": true}

// obfuscated says how a text is written so that a reader, or a model,
// reads what a pattern does not, or "": behind a bidi override, with
// format characters inside its words, in rot13, backwards, as
// percent-encoded prose, or in leetspeak. Real tools write none of these;
// whatever the decoded text says, such a text is not there to describe a
// tool.
func obfuscated(nfkc, plain string) string {
	switch {
	case !isASCII(nfkc) && strings.ContainsAny(nfkc, "\u202e\u202d"):
		return "a bidi override"
	case hiddenInsideWords(nfkc) >= 2:
		return "format characters inside words"
	case looksRot13(plain) && readsBetter(rot13(plain), plain):
		return "rot13"
	case looksBackwards(plain) && readsBetter(reverseRunes(plain), plain):
		return "text written backwards"
	}
	if p, ok := percentDecoded(plain); ok && strings.Count(p, " ") >= 4 && countWords(p, englishWords) >= 2 {
		return "percent-encoded prose"
	}
	if strongLeetWords(plain) >= 3 {
		return "leetspeak"
	}
	return ""
}

// readsBetter reports a decoding that holds two common English words or
// more, and more than the text as written.
func readsBetter(decoded, plain string) bool {
	n := countWords(decoded, englishWords)
	return n >= 2 && n > countWords(plain, englishWords)
}

// hiddenInsideWords counts the words with a hidden character between two
// Latin letters ("i\u2060g\u2060n\u2060o\u2060r\u2060e"). Scripts that
// join letters with ZWJ or ZWNJ by rule (Arabic, Persian, Indic) are not
// Latin.
func hiddenInsideWords(s string) int {
	if isASCII(s) {
		return 0
	}
	n := 0
	var prev rune
	inWord, counted, pending := false, false, false
	for _, r := range s {
		switch {
		case hidden(r):
			pending = inWord && isLatinLetter(prev)
			continue
		case isLatinLetter(r):
			if pending && !counted {
				n++
				counted = true
			}
			inWord = true
		default:
			inWord, counted = false, false
		}
		pending = false
		prev = r
	}
	return n
}

func isLatinLetter(r rune) bool {
	return r < utf8.RuneSelf && isASCIILetter(byte(r)) || r >= 0xC0 && r < 0x250 && unicode.IsLetter(r)
}

// strongLeetWords counts the words of s that write a leetspeak digit right
// before a letter and hold two letters or more ("r34d", "4nd"); a word of
// hex digits (an id's "45f2") is not one.
func strongLeetWords(s string) int {
	n := 0
	for i := 0; i < len(s); {
		j := i
		letters, before, hexOnly := 0, false, true
		for j < len(s) && (isASCIILetter(s[j]) || isDigit(s[j]) || s[j] == '$') {
			if isASCIILetter(s[j]) {
				letters++
			} else if isDigit(s[j]) && isLeet(s[j]) && j+1 < len(s) && isASCIILetter(s[j+1]) {
				before = true // a digit: "$" starts template variables ($from, $interval)
			}
			hexOnly = hexOnly && isHexByte(s[j])
			j++
		}
		if letters >= 2 && before && !hexOnly {
			n++
		}
		if j == i {
			j++
		}
		i = j
	}
	return n
}
