package upstream

import (
	_ "embed"
	"strings"
	"unicode"
)

// stderrMarkers is the data TellingLine reads: the words that mark an
// error line and the starts of stack-frame lines, with their source.
//
//go:embed stderr_markers.txt
var stderrMarkers string

// markers are stderrMarkers, read once.
type markers struct {
	words, suffixes, phrases, frames []string
}

func readMarkers(data string) markers {
	var m markers
	for line := range strings.Lines(data) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		kind, text, _ := strings.Cut(line, " ")
		text = strings.TrimLeft(text, " ")
		switch kind {
		case "word":
			m.words = append(m.words, strings.ToLower(text))
		case "suffix":
			m.suffixes = append(m.suffixes, strings.ToLower(text))
		case "phrase":
			m.phrases = append(m.phrases, strings.ToLower(text))
		case "frame":
			m.frames = append(m.frames, text)
		default:
			panic("upstream: stderr_markers.txt: unknown kind " + kind)
		}
	}
	return m
}

// tellingWords is how many words beyond its markers make a line say enough:
// "npm error code E404" says less than "npm error 404 Not Found - GET
// https://registry.npmjs.org/x", and "Caused by: No such file" no more than
// the "error: Failed to spawn: `x`" before it.
const tellingWords = 3

// TellingLine returns the line of a failed server's stderr that says what
// went wrong, trimmed: of the lines that carry an error marker (an error
// word, an "...Error:" name, "not found"...) and are not stack frames, the
// first that says the most (up to a few words beyond its markers). marked
// reports whether a line carried a marker; when none did, line is the last
// line that is not a stack frame, and "" for an empty stderr.
func TellingLine(stderr string) (line string, marked bool) {
	m := readMarkers(stderrMarkers)
	best, bestWords := "", -1
	last := ""
	for l := range strings.Lines(stderr) {
		l = strings.TrimSpace(l)
		if l == "" || m.frame(l) {
			continue
		}
		last = l
		words, ok := m.score(l)
		if ok && words > bestWords {
			best, bestWords = l, words
		}
	}
	if best != "" {
		return best, true
	}
	return last, false
}

// frame reports whether line (trimmed) is a stack frame or a caret line.
func (m markers) frame(line string) bool {
	for _, f := range m.frames {
		if strings.HasPrefix(line, f) || line == strings.TrimSpace(f) {
			return true
		}
	}
	return false
}

// score reports whether line carries a marker and how many other words (of
// two letters or more) it has, up to tellingWords.
func (m markers) score(line string) (words int, marked bool) {
	lower := strings.ToLower(line)
	for _, p := range m.phrases {
		if containsWords(lower, p) {
			marked = true
		}
	}
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		switch {
		case m.isMarker(w):
			marked = true
		case letters(w) >= 2:
			words++
		}
	}
	return min(words, tellingWords), marked
}

func (m markers) isMarker(word string) bool {
	for _, w := range m.words {
		if word == w {
			return true
		}
	}
	for _, s := range m.suffixes {
		if strings.HasSuffix(word, s) {
			return true
		}
	}
	return false
}

// containsWords reports whether phrase is in s with no letter or digit
// either side of it.
func containsWords(s, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(phrase)
		if (start == 0 || !isWordByte(s[start-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}
