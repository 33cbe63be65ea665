// Package stem splits text into the tokens SQLite FTS5's
// "porter unicode61 remove_diacritics 2" tokenizer stores: runs of
// letters, digits and private-use characters, case-folded, stripped of
// diacritics, and reduced by the Porter stemming algorithm as FTS5
// applies it. The store keeps its own scored index of those tokens beside
// FTS5's, and a query must reach the same tokens in both.
//
// ASCII text is tokenized exactly as FTS5 does. Outside ASCII the
// character classes follow Unicode 6.1, as SQLite's tables do, and
// diacritics are folded through Go's normalization tables, which may
// still part from SQLite's on characters no test has shown: Exact reports
// whether a text is inside the range where the two agree by construction.
package stem

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/rangetable"
)

// maxPorterBytes is FTS5's FTS5_PORTER_MAX_TOKEN: longer tokens, and
// tokens under three bytes, are kept as they are.
const maxPorterBytes = 64

// Words returns the tokens of text, in order, stemmed.
func Words(text string) []string {
	var out []string
	for tok := range tokens(text) {
		out = append(out, Porter(tok))
	}
	return out
}

// Exact reports whether text is ASCII, where Words agrees with FTS5 by
// construction.
func Exact(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// tokens yields the folded, unstemmed tokens of text.
func tokens(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		ascii := true
		emit := func(end int) bool {
			tok := text[start:end]
			if ascii {
				tok = strings.ToLower(tok)
			} else {
				tok = fold(tok)
			}
			start, ascii = -1, true
			return tok == "" || yield(tok)
		}
		for i, r := range text {
			if tokenRune(r) {
				if start < 0 {
					start = i
				}
				if r >= utf8.RuneSelf {
					ascii = false
				}
				continue
			}
			if start >= 0 && !emit(i) {
				return
			}
		}
		if start >= 0 {
			emit(len(text))
		}
	}
}

// tokenRune reports whether r belongs to a token: unicode61's default
// classes L*, N* and Co, as Unicode 6.1 assigns them. A character
// assigned since is a token character to SQLite, whatever its class:
// the compass emoji of Unicode 10 is a token, the magnifier of 6.0 is not.
func tokenRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	if !unicode.Is(unicode61, r) {
		return true
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// unicode61 is the characters Unicode 6.1 assigns, the version of
// SQLite's tokenizer tables.
var unicode61 = rangetable.Assigned("6.1.0")

// fold case-folds tok and removes the combining diacritical marks
// (U+0300 to U+036F) of its decomposed form, which are what
// remove_diacritics takes off Latin, Greek and Cyrillic letters; marks of
// other scripts (a Japanese voicing mark) stay composed.
func fold(tok string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(tok) {
		if 0x300 <= r && r <= 0x36F {
			continue
		}
		b.WriteRune(unicode.ToLower(unicode.ToUpper(r)))
	}
	return norm.NFC.String(b.String())
}

// Porter stems one folded token as FTS5's porter tokenizer does: the
// steps of Porter's 1980 algorithm (with "logi" and "bli" of his later
// reference code), on bytes, where only a, e, i, o, u and y are vowels.
func Porter(tok string) string {
	if len(tok) < 3 || len(tok) > maxPorterBytes {
		return tok
	}
	b := []byte(tok)
	b = step1a(b)
	if c, ok := step1b(b); ok {
		b = c
		if c, ok := step1b2(b); ok {
			b = c
		} else if n := len(b); n >= 2 && !isVowel(b[n-1], false) && b[n-1] != 'l' && b[n-1] != 's' && b[n-1] != 'z' && b[n-1] == b[n-2] {
			b = b[:n-1]
		} else if measureIs1(b) && endsCVC(b) {
			b = append(b, 'e')
		}
	} else {
		b = c
	}
	if n := len(b); n > 0 && b[n-1] == 'y' && hasVowel(b[:n-1]) {
		b[n-1] = 'i'
	}
	b = replaceFirst(b, step2, measureOver0)
	b = replaceFirst(b, step3, measureOver0)
	b = step4(b)
	if n := len(b); n > 0 && b[n-1] == 'e' {
		stem := b[:n-1]
		if measureOver1(stem) || measureIs1(stem) && !endsCVC(stem) {
			b = stem
		}
	}
	if n := len(b); n > 1 && b[n-1] == 'l' && b[n-2] == 'l' && measureOver1(b[:n-1]) {
		b = b[:n-1]
	}
	return string(b)
}

// isVowel reports whether c is a vowel; y is one after a consonant
// (yIsVowel).
func isVowel(c byte, yIsVowel bool) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || yIsVowel && c == 'y'
}

// gobbleVC returns the length of the shortest prefix of s holding a
// vowel followed by a consonant, 0 when there is none; prevCons says
// whether the byte before s was a consonant.
func gobbleVC(s []byte, prevCons bool) int {
	cons := prevCons
	i := 0
	for ; i < len(s); i++ {
		cons = !isVowel(s[i], cons)
		if !cons {
			break
		}
	}
	for i++; i < len(s); i++ {
		cons = !isVowel(s[i], cons)
		if cons {
			return i + 1
		}
	}
	return 0
}

// measureOver0 is Porter's m > 0.
func measureOver0(s []byte) bool { return gobbleVC(s, false) > 0 }

// measureOver1 is Porter's m > 1.
func measureOver1(s []byte) bool {
	n := gobbleVC(s, false)
	return n > 0 && gobbleVC(s[n:], true) > 0
}

// measureIs1 is Porter's m = 1.
func measureIs1(s []byte) bool {
	n := gobbleVC(s, false)
	return n > 0 && gobbleVC(s[n:], true) == 0
}

// endsCVC is Porter's *o: s ends consonant, vowel, consonant, the last
// not w, x or y.
func endsCVC(s []byte) bool {
	n := len(s)
	if n == 0 || s[n-1] == 'w' || s[n-1] == 'x' || s[n-1] == 'y' {
		return false
	}
	mask, cons := 0, false
	for _, c := range s {
		cons = !isVowel(c, cons)
		mask <<= 1
		if cons {
			mask++
		}
	}
	return mask&7 == 5
}

// hasVowel is Porter's *v*: a vowel in s, where y counts as one anywhere
// but first.
func hasVowel(s []byte) bool {
	for i, c := range s {
		if isVowel(c, i > 0) {
			return true
		}
	}
	return false
}

// step1a removes plural endings: sses -> ss, ies -> i, s -> "".
func step1a(b []byte) []byte {
	n := len(b)
	if b[n-1] != 's' {
		return b
	}
	switch {
	case b[n-2] == 'e' && (n > 4 && b[n-4] == 's' && b[n-3] == 's' || n > 3 && b[n-3] == 'i'):
		return b[:n-2]
	case b[n-2] == 'e' || b[n-2] != 's':
		return b[:n-1]
	}
	return b
}

// step1b handles eed, ed and ing; ok says ed or ing was removed.
func step1b(b []byte) (_ []byte, ok bool) {
	n := len(b)
	if n < 2 {
		return b, false
	}
	switch b[n-2] {
	case 'e':
		if n > 3 && string(b[n-3:]) == "eed" {
			if measureOver0(b[:n-3]) {
				return b[:n-1], false
			}
		} else if n > 2 && string(b[n-2:]) == "ed" && hasVowel(b[:n-2]) {
			return b[:n-2], true
		}
	case 'n':
		if n > 3 && string(b[n-3:]) == "ing" && hasVowel(b[:n-3]) {
			return b[:n-3], true
		}
	}
	return b, false
}

// step1b2 turns at, bl and iz into ate, ble and ize after step1b.
func step1b2(b []byte) (_ []byte, ok bool) {
	n := len(b)
	if n < 2 {
		return b, false
	}
	for _, end := range [...]string{"at", "bl", "iz"} {
		if string(b[n-2:]) == end {
			return append(b, 'e'), true
		}
	}
	return b, false
}

// rule replaces suffix from with to.
type rule struct{ from, to string }

// step2 and step3 are tried in order; the first suffix that matches
// decides, whether or not its condition holds.
var (
	step2 = []rule{
		{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
		{"izer", "ize"}, {"logi", "log"}, {"bli", "ble"}, {"alli", "al"},
		{"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"},
		{"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
		{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"},
		{"biliti", "ble"},
	}
	step3 = []rule{
		{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
		{"ical", "ic"}, {"ful", ""}, {"ness", ""},
	}
)

// replaceFirst applies the first rule whose suffix b ends with (leaving
// a non-empty stem) when cond holds of that stem.
func replaceFirst(b []byte, rules []rule, cond func([]byte) bool) []byte {
	n := len(b)
	for _, r := range rules {
		if n > len(r.from) && string(b[n-len(r.from):]) == r.from {
			stem := b[:n-len(r.from)]
			if cond(stem) {
				return append(stem, r.to...)
			}
			return b
		}
	}
	return b
}

// step4Suffixes are removed when the stem's measure is over 1; ion also
// needs the stem to end in s or t.
var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
	"ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func step4(b []byte) []byte {
	n := len(b)
	for _, suf := range step4Suffixes {
		if n > len(suf) && string(b[n-len(suf):]) == suf {
			stem := b[:n-len(suf)]
			ok := measureOver1(stem)
			if suf == "ion" {
				last := stem[len(stem)-1]
				ok = ok && (last == 's' || last == 't')
			}
			if ok {
				return stem
			}
			return b
		}
	}
	return b
}
