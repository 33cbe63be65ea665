package schema

import (
	_ "embed"
	"strings"
)

// poisonWords holds word lists of the detector's rules, with their source
// (see the file's header). It is read once, when the detector is compiled.
//
//go:embed poison_words.txt
var poisonWords string

// wordLexicons returns the lexicons the rules name, poison_rules.go's
// own lists with the words of poison_words.txt added.
func wordLexicons() map[string]lexiconSource {
	out := make(map[string]lexiconSource, len(lexicons))
	for name, src := range lexicons {
		out[name] = src
	}
	for line := range strings.SplitSeq(poisonWords, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, list, ok := strings.Cut(line, ":")
		name, kind, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 {
			panic("schema: poison_words.txt: bad line " + line)
		}
		src := out[name]
		switch kind {
		case "words":
			src.words = strings.TrimSpace(src.words + " " + list)
		case "parts":
			src.parts = strings.TrimSpace(src.parts + " " + list)
		default:
			panic("schema: poison_words.txt: bad kind " + key)
		}
		out[name] = src
	}
	return out
}
