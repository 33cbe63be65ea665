package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words shorter or longer than these are left out of the vocabulary: too
// short for a trigram, or too long to be a word anyone misspells (ids,
// base64, URLs run together).
const (
	minTermRunes = 3
	maxTermRunes = 40
)

// vocabulary returns the distinct lowercased words of d, split on every
// rune that is not a letter or digit, unstemmed, minTermRunes to
// maxTermRunes long, and the pieces of its runs in scripts written
// without spaces (see SplitScripts), whatever their length: a search
// counts the tools holding each piece it asks for.
func vocabulary(d Doc) map[string]struct{} {
	words := make(map[string]struct{})
	for _, text := range [...]string{d.Name, d.Desc, d.Params, d.ParamDescs, d.Enums} {
		for _, w := range termsOf(text) {
			words[w] = struct{}{}
		}
		_, pieces := SplitScripts(text)
		for _, p := range pieces {
			words[p] = struct{}{}
		}
	}
	return words
}

// termsOf splits text into lowercased vocabulary words, in order. Marks
// count as word runes, so a decomposed accent or a Devanagari vowel sign
// does not cut a word in two.
func termsOf(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, notWordRune) {
		if n := utf8.RuneCountInString(f); n < minTermRunes || n > maxTermRunes {
			continue
		}
		out = append(out, strings.ToLower(f))
	}
	return out
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
}

// trigramText is the one column of tool_trigrams for d.
func trigramText(d Doc) string {
	return d.Name + " " + d.Desc + " " + d.Params
}

// contentHash identifies d's text: the SHA-256 of its fields, each followed
// by a NUL, in hex. A refresh that leaves it unchanged keeps the tool's
// search and vector rows.
func contentHash(d Doc) string {
	h := sha256.New()
	for _, text := range [...]string{d.Name, d.Desc, d.Params, d.ParamDescs, d.Enums} {
		h.Write([]byte(text))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
