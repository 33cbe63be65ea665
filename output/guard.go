package output

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bridge's own lines in a served page (the frame line, a warning, the
// truncation footer) all open with a bracket, a word and a colon:
// "[result from ...:", "[warning:", "[truncated:". No line of a tool's
// result may open that way, or the result could speak in the bridge's
// voice (a forged footer naming a cursor, a forged warning). guardText
// escapes such a line with a backslash before its bracket: the line stays,
// whole and readable, and no longer has the bridge's shape.

// maxGuardWord bounds how far after the bracket the colon is looked for,
// in runes: the bridge's own lines put it within a few words.
const maxGuardWord = 48

// guardText returns s with every line that opens like one of the bridge's
// own lines escaped. A line opens at the start of s (unless cont: s then
// continues a line) and after each line break a reader may honour: LF, CR,
// VT, FF, NEL, LS and PS.
func guardText(s string, cont bool) string {
	var b strings.Builder
	last, escaped := 0, false // s[:last] is written to b
	start := 0
	if cont {
		start = nextLine(s, 0)
	}
	for start >= 0 && start <= len(s) {
		if at, ok := bridgeShaped(s[start:]); ok {
			if !escaped {
				b.Grow(len(s) + 4)
				escaped = true
			}
			b.WriteString(s[last : start+at])
			b.WriteByte('\\')
			last = start + at
		}
		start = nextLine(s, start)
	}
	if !escaped {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// nextLine returns where the line after the one at from starts, or -1.
func nextLine(s string, from int) int {
	for i := from; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch r {
		case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
			return i
		}
	}
	return -1
}

// bridgeShaped reports whether line opens like the bridge's own lines:
// blanks, an opening bracket of any kind (ASCII or a look-alike), a letter,
// then a colon (ASCII or a look-alike) before any bracket or line break. It
// returns the offset of the bracket. Invisible format characters count as
// blanks, so that they cannot hide the shape.
func bridgeShaped(line string) (int, bool) {
	i := skipBlank(line, 0)
	r, n := utf8.DecodeRuneInString(line[i:])
	if n == 0 || !unicode.Is(unicode.Ps, r) {
		return 0, false
	}
	bracket := i
	j := skipBlank(line, i+n)
	if r, _ := utf8.DecodeRuneInString(line[j:]); !unicode.IsLetter(r) {
		return 0, false
	}
	for k, runes := j, 0; k < len(line) && runes < maxGuardWord; runes++ {
		r, n := utf8.DecodeRuneInString(line[k:])
		switch {
		case isColon(r):
			return bracket, true
		case unicode.In(r, unicode.Ps, unicode.Pe) || isBreak(r):
			return 0, false
		}
		k += n
	}
	return 0, false
}

func skipBlank(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isBreak(r) || !(unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)) {
			break
		}
		i += n
	}
	return i
}

func isBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// isColon reports a colon or one of its look-alikes (fullwidth, small,
// vertical, ratio, modifier letter).
func isColon(r rune) bool {
	switch r {
	case ':', '\uFF1A', '\uFE55', '\uFE13', '\u2236', '\uA789', '\u02D0':
		return true
	}
	return false
}

// guardSections escapes, in every text section, the lines that open like
// the bridge's own (see guardText): headers and units. A unit that
// continues a split one does not open a line.
func guardSections(secs []Section) {
	for i := range secs {
		sec := &secs[i]
		if sec.Form == FormMedia {
			continue
		}
		sec.Header = guardText(sec.Header, false)
		for j := range sec.Units {
			u := &sec.Units[j]
			u.Text = guardText(u.Text, u.Continues)
		}
	}
}
