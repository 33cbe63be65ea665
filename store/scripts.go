package store

import (
	"strings"
	"unicode"
)

// Scripts written without spaces between words (Chinese, Japanese,
// Thai, Lao, Khmer, Burmese) and Korean, whose words carry their
// particles ("날씨를"), give FTS5's unicode61 tokenizer one token a
// run: a whole clause, which no query word equals. The word table
// therefore indexes, beside the text, the overlapping two- and
// three-letter pieces of every run in these scripts (bigrams and
// trigrams, the segmentation-free indexing of CJK search engines), and a
// search cuts its intent the same way ([SplitScripts]). Marks are left
// out of the pieces: unicode61 splits tokens at them, which would cut a
// Thai word at its vowel and tone signs.

// pieceScripts are the scripts cut into pieces.
var pieceScripts = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar,
}

// inPieceScript reports whether r is a letter of a script cut into pieces
// (the katakana prolonged sound mark ー, of the Common script, included).
func inPieceScript(r rune) bool {
	if r < 0x0E00 { // below Thai: Latin, Greek, Cyrillic, Arabic, Indic...
		return false
	}
	return r == 'ー' || unicode.IsOneOf(pieceScripts, r)
}

// SplitScripts returns text with every run of the scripts cut into
// pieces replaced by a space, and the distinct pieces of those runs in
// order: each two- and three-letter sequence of a run, marks left out; a
// run of one letter is its own piece.
func SplitScripts(text string) (rest string, pieces []string) {
	if !hasPieceScript(text) {
		return text, nil
	}
	var b strings.Builder
	seen := make(map[string]bool)
	var run []rune
	flush := func() {
		for _, p := range runPieces(run) {
			if !seen[p] {
				seen[p] = true
				pieces = append(pieces, p)
			}
		}
		run = run[:0]
	}
	inRun := false
	for _, r := range text {
		switch {
		case unicode.IsMark(r) && (inRun || inPieceScript(r)):
			// A vowel or tone sign of the run: left out.
		case inPieceScript(r):
			if !inRun {
				b.WriteByte(' ')
			}
			inRun = true
			run = append(run, r)
		default:
			if inRun {
				flush()
			}
			inRun = false
			b.WriteRune(r)
		}
	}
	flush()
	return b.String(), pieces
}

// runPieces returns the bigrams and trigrams of run, or run itself when
// it is one letter.
func runPieces(run []rune) []string {
	switch len(run) {
	case 0:
		return nil
	case 1:
		return []string{string(run)}
	}
	out := make([]string, 0, 2*len(run))
	for i := 0; i+2 <= len(run); i++ {
		out = append(out, string(run[i:i+2]))
	}
	for i := 0; i+3 <= len(run); i++ {
		out = append(out, string(run[i:i+3]))
	}
	return out
}

// hasPieceScript reports whether text has a letter of a script cut into
// pieces.
func hasPieceScript(text string) bool {
	for _, r := range text {
		if inPieceScript(r) {
			return true
		}
	}
	return false
}

// wordText is text as the word table indexes it: the text, then the
// pieces of its runs in the scripts cut into pieces, if any.
func wordText(text string) string {
	_, pieces := SplitScripts(text)
	if len(pieces) == 0 {
		return text
	}
	return text + " " + strings.Join(pieces, " ")
}
