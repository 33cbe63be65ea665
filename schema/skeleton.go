package schema

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// MaxNameRunes is the longest tool name, in characters, that Normalize
// accepts.
const MaxNameRunes = 128

// Sizes of the encoded blobs the detector decodes and reads again.
const (
	minBlobChars = 24   // shortest base64 or hex run worth decoding
	maxBlobChars = 8192 // longest run decoded; longer runs are read up to this size
)

// hidden reports a character a reader cannot see or that reorders text:
// controls other than line breaks and tabs, format characters (zero-width
// and bidi controls, tag characters), variation selectors and the other
// default-ignorable code points.
func hidden(r rune) bool {
	switch {
	case r == '\n' || r == '\t' || r == '\r':
		return false
	case r < 0x80:
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// NameProblem says why a tool name cannot be accepted: it holds a control,
// invisible, format or bidi character, mixes scripts within one word (see
// mixedScripts), or is longer than MaxNameRunes characters. It returns "" for an acceptable name.
func NameProblem(name string) string {
	for _, r := range name {
		if hidden(r) {
			return "tool name holds an invisible, control or bidi character (" + codePoint(r) + ")"
		}
	}
	if word, scripts := mixedScriptWord(name); word != "" {
		return fmt.Sprintf("tool name mixes scripts in one word (%s), as look-alike names do", scripts)
	}
	if n := utf8.RuneCountInString(name); n > MaxNameRunes {
		return fmt.Sprintf("tool name is %d characters, over the %d limit", n, MaxNameRunes)
	}
	return ""
}

// FoldName is the form of a tool name that allow and deny globs are
// matched against: NFKC, invisible characters removed, letters that look
// like Latin ones (Cyrillic а, Greek ο, fullwidth forms...) replaced by them
// through Unicode's TR39 confusable skeletons, lower-cased. Apply it to the
// glob as well, so "delete_*" matches "dеlete\u200b_all".
func FoldName(name string) string {
	return foldLatin(strings.ToLower(stripHidden(norm.NFKC.String(name))), name)
}

// stripHidden removes the characters hidden reports.
func stripHidden(s string) string {
	i := strings.IndexFunc(s, hidden)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if !hidden(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// latinProtos maps TR39 skeletons to the ASCII letter they stand for: one
// table for lower-case letters and one for capitals, since the skeleton of
// "I" is "l" and that of "m" is "rn".
var latinProtos = sync.OnceValue(func() [2]map[string]rune {
	lower, upper := map[string]rune{}, map[string]rune{}
	for c := 'a'; c <= 'z'; c++ {
		lower[confusables.Skeleton(string(c))] = c
		upper[confusables.Skeleton(string(unicode.ToUpper(c)))] = c
	}
	return [2]map[string]rune{lower, upper}
})

// foldLatin replaces each non-ASCII letter of lower whose TR39 skeleton is
// that of an ASCII letter with that letter. orig is the text before
// lower-casing, read for the case of each letter; when its runes do not
// line up with lower the case is guessed from lower alone.
func foldLatin(lower, orig string) string {
	if isASCII(lower) {
		return lower
	}
	cased := []rune(stripHidden(norm.NFKC.String(orig)))
	protos := latinProtos()
	var b strings.Builder
	b.Grow(len(lower))
	i := 0
	for _, r := range lower {
		upper := i < len(cased) && unicode.IsUpper(cased[i]) && unicode.ToLower(cased[i]) == r
		i++
		if r < utf8.RuneSelf || !unicode.IsLetter(r) {
			b.WriteRune(r)
			continue
		}
		src := r
		if upper {
			src = cased[i-1]
		}
		if c, ok := latinOf(src, upper, protos); ok {
			b.WriteRune(c)
		} else if c, ok := latinOf(unicode.ToUpper(r), true, protos); ok {
			b.WriteRune(c) // τ's skeleton is ᴛ, Τ's is T
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// latinOf returns the ASCII letter whose skeleton r shares, trying the
// capitals' table first when r stands for a capital.
func latinOf(r rune, upper bool, protos [2]map[string]rune) (rune, bool) {
	sk := confusables.Skeleton(string(r))
	first, second := protos[0], protos[1]
	if upper {
		first, second = second, first
	}
	if c, ok := first[sk]; ok {
		return c, true
	}
	c, ok := second[sk]
	return c, ok
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// views are the forms of one piece of text the rules read.
type views struct {
	plain   string   // NFKC, hidden characters gone, lower-case, whitespace collapsed
	latin   string   // plain with look-alike letters folded to Latin; "" when the same as plain
	tight   string   // latin (or plain) with spaced-out letters joined; "" when none
	decoded []string // base64, hex, tag-character, reversed, rot13 and percent-encoded payloads (see turnedPayloads)
	// obfuscated says how the text is written to read one way to a
	// pattern and another to a reader ("" when it is not; see obfuscated).
	obfuscated string
}

// textViews normalizes s for matching. depth bounds nested decoding.
func textViews(s string, depth int) views {
	nfkc := s
	if !isASCII(s) {
		nfkc = norm.NFKC.String(s)
	}
	var v views
	if depth > 0 {
		v.decoded = append(v.decoded, tagPayload(nfkc)...)
		if r, ok := bidiReversed(nfkc); ok {
			v.decoded = append(v.decoded, r)
		}
	}
	raw := nfkc
	nfkc = stripHidden(nfkc)
	if depth > 0 {
		v.decoded = append(v.decoded, blobPayloads(nfkc)...)
	}
	v.plain = collapseSpace(strings.ToLower(nfkc))
	if depth > 0 {
		v.obfuscated = obfuscated(raw, v.plain)
	}
	if !isASCII(v.plain) {
		if l := foldLatin(v.plain, collapseSpace(nfkc)); l != v.plain {
			v.latin = l
		}
	}
	base := v.plain
	if v.latin != "" {
		base = v.latin
	}
	if l, ok := foldLeet(base); ok {
		v.latin, base = l, l
	}
	if depth > 0 {
		v.decoded = append(v.decoded, turnedPayloads(v.plain)...)
	}
	if t, ok := joinSpacedLetters(base); ok {
		v.tight = t
	}
	return v
}

// collapseSpace turns each run of whitespace into one space.
func collapseSpace(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\v\f  ") && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// joinSpacedLetters joins letters written one at a time with separators
// between them ("i-g-n-o-r-e", "i g n o r e"): in a run of at least four
// single letters, the commonest separator is removed and any other gap
// becomes a space.
func joinSpacedLetters(s string) (string, bool) {
	if !hasSpacedRun(s) {
		return "", false
	}
	type piece struct {
		text   string
		letter bool
	}
	var pieces []piece
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		j := i + n
		isL := unicode.IsLetter(r)
		for j < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[j:])
			if (unicode.IsLetter(r2) || unicode.IsDigit(r2)) != isL {
				break
			}
			j += n2
		}
		pieces = append(pieces, piece{s[i:j], isL})
		i = j
	}
	single := func(p piece) bool { return p.letter && utf8.RuneCountInString(p.text) == 1 }
	var b strings.Builder
	changed := false
	for i := 0; i < len(pieces); {
		// A run: single letter, (short separator, single letter)*.
		j := i
		if single(pieces[i]) {
			for j+2 < len(pieces) && !pieces[j+1].letter && utf8.RuneCountInString(pieces[j+1].text) <= 3 && single(pieces[j+2]) {
				j += 2
			}
		}
		if letters := (j-i)/2 + 1; letters < 4 {
			b.WriteString(pieces[i].text)
			i++
			continue
		}
		count := map[string]int{}
		for k := i + 1; k < j; k += 2 {
			count[pieces[k].text]++
		}
		common, best := "", 0
		for sep, c := range count {
			if c > best || c == best && sep < common {
				common, best = sep, c
			}
		}
		for k := i; k <= j; k++ {
			switch {
			case pieces[k].letter:
				b.WriteString(pieces[k].text)
			case pieces[k].text != common:
				// "_._" between "p" and "j" keeps its dot; " / " is a word gap.
				rest := strings.TrimSpace(strings.ReplaceAll(pieces[k].text, common, ""))
				if rest == "" || rest == "/" || rest == "|" {
					rest = " "
				}
				b.WriteString(rest)
			}
		}
		changed = true
		i = j + 1
	}
	return b.String(), changed
}

// hasSpacedRun reports, cheaply, whether s may hold four single letters
// with short separators between them; joinSpacedLetters does the work.
func hasSpacedRun(s string) bool {
	run, gap, prevLetter, runLen := 0, 0, false, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if prevLetter {
				run, runLen = 0, 0 // a word of two letters or more ends the run
			} else {
				if runLen > 0 && gap > 3 {
					run = 0
				}
				run++
				runLen++
				if run >= 4 {
					return true
				}
			}
			prevLetter, gap = true, 0
			continue
		}
		prevLetter = false
		gap++
	}
	return false
}

// tagPayload reads text hidden in Unicode tag characters (U+E0020 to
// U+E007E mirror ASCII and render as nothing).
func tagPayload(s string) []string {
	if isASCII(s) || !strings.ContainsFunc(s, isTagChar) {
		return nil
	}
	var b strings.Builder
	for _, r := range s {
		if isTagChar(r) {
			b.WriteRune(r - 0xE0000)
		}
	}
	return []string{b.String()}
}

func isTagChar(r rune) bool { return r >= 0xE0020 && r <= 0xE007E }

// blobPayloads decodes runs of base64 or hex of at least minBlobChars
// characters that decode to readable text.
func blobPayloads(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isBlobByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBlobByte(s[j]) {
			j++
		}
		for j < len(s) && j-i < maxBlobChars && s[j] == '=' {
			j++
		}
		if j-i >= minBlobChars {
			if text, ok := decodeBlob(s[i:min(j, i+maxBlobChars)]); ok {
				out = append(out, text)
			}
		}
		i = j
	}
	return out
}

func isBlobByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// decodeBlob decodes a hex or base64 run (standard or URL alphabet, padded
// or not) and keeps it when it reads as text.
func decodeBlob(run string) (string, bool) {
	if isHex(run) && len(run)%2 == 0 {
		if b, err := hex.DecodeString(run); err == nil && readable(b) {
			return string(b), true
		}
		return "", false
	}
	trimmed := strings.TrimRight(run, "=")
	if len(trimmed)%4 == 1 {
		trimmed = trimmed[:len(trimmed)-1]
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(trimmed); err == nil && readable(b) {
			return string(b), true
		}
	}
	return "", false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// readable reports decoded bytes that are UTF-8 text with spaces between
// words, mostly letters: what an instruction looks like, not a hash or an
// image.
func readable(b []byte) bool {
	if len(b) < 8 || !utf8.Valid(b) {
		return false
	}
	letters, spaces, other := 0, 0, 0
	for _, r := range string(b) {
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == ' ' || r == '\n':
			spaces++
		case unicode.IsControl(r) || r == utf8.RuneError:
			return false
		default:
			other++
		}
	}
	total := letters + spaces + other
	return spaces > 0 && letters*10 >= total*6
}

func codePoint(r rune) string { return fmt.Sprintf("U+%04X", r) }
