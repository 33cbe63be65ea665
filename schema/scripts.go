package schema

import (
	"slices"
	"strings"
	"unicode"
)

// Mixed-script names, after Unicode TR39 (Unicode Security Mechanisms,
// section 5.1): a word whose letters come from scripts no one writing
// system uses together ("sеnd" with a Cyrillic е) is a look-alike made to
// pass for another name. Each letter's script comes from Go's unicode
// tables (the Unicode Character Database's Scripts.txt). Common and
// Inherited characters (digits, marks shared by scripts) belong to every
// script. Han, Hiragana, Katakana, Hangul and Bopomofo are read through
// TR39's augmented script sets (Japanese writes Han with kana, Korean Han
// with Hangul, Chinese Han with Bopomofo), and TR39's Highly Restrictive
// level is applied: Latin beside one of those sets is allowed.

// cjkSet is one of TR39's augmented script sets that hold Han.
type cjkSet uint8

const (
	setJapanese cjkSet = 1 << iota // Han, Hiragana, Katakana
	setKorean                      // Han, Hangul
	setChinese                     // Han, Bopomofo
)

// namedScripts are the scripts looked up first, in the order of how often
// tool names use them; any other is found in unicode.Scripts.
var namedScripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Han", unicode.Han}, {"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana},
	{"Hangul", unicode.Hangul}, {"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew},
	{"Common", unicode.Common}, {"Inherited", unicode.Inherited},
}

// scriptOf names the script of r.
func scriptOf(r rune) string {
	for _, s := range namedScripts {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return "Unknown"
}

// cjkOf returns the augmented sets a CJK script belongs to, 0 for any
// other script.
func cjkOf(script string) cjkSet {
	switch script {
	case "Han":
		return setJapanese | setKorean | setChinese
	case "Hiragana", "Katakana":
		return setJapanese
	case "Hangul":
		return setKorean
	case "Bopomofo":
		return setChinese
	}
	return 0
}

// mixedScriptWord returns the first word of name (a run of letters and
// marks) whose letters mix scripts, and the scripts it mixes, or "".
func mixedScriptWord(name string) (word, scripts string) {
	if isASCII(name) {
		return "", ""
	}
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
		if isASCII(w) {
			continue
		}
		if s := mixedScripts(w); s != "" {
			return w, s
		}
	}
	return "", ""
}

// mixedScripts returns the scripts of a word, joined with "+", when they
// mix (see the package's TR39 note), else "".
func mixedScripts(word string) string {
	var seen []string
	cjk := setJapanese | setKorean | setChinese
	other := false
	for _, r := range word {
		s := scriptOf(r)
		if s == "Common" || s == "Inherited" {
			continue
		}
		if !slices.Contains(seen, s) {
			seen = append(seen, s)
		}
		if c := cjkOf(s); c != 0 {
			cjk &= c
		} else if s != "Latin" {
			other = true
		}
	}
	if len(seen) < 2 {
		return ""
	}
	if other || cjk == 0 {
		return strings.Join(seen, "+")
	}
	return "" // Latin and one CJK set: Highly Restrictive allows it
}
