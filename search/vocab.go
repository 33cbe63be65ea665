package search

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
)

// vocabIndex holds the catalog's vocabulary (store.Vocabulary) in memory,
// by trigram, for typo correction. Asking SQLite for the words sharing a
// trigram with a misspelled word cost 0.33 CPU-ms a search over 5,000
// tools, a tenth of the whole search, and every search with an unknown
// word of five runes or more (four in ten of the public sets' requests)
// waited for it; the index answers in microseconds and holds about 1 MB
// for those 10,000 words.
type vocabIndex struct {
	mark  store.VocabularyMark
	words []string
	runes []int
	grams map[string][]int32 // trigram -> indexes into words
}

func newVocabIndex(words []string, mark store.VocabularyMark) *vocabIndex {
	v := &vocabIndex{
		mark:  mark,
		words: words,
		runes: make([]int, len(words)),
		grams: make(map[string][]int32),
	}
	var seen []string
	for i, w := range words {
		v.runes[i] = utf8.RuneCountInString(w)
		seen = seen[:0]
		for _, g := range trigramsOf(w) {
			if !slices.Contains(seen, g) {
				seen = append(seen, g)
				v.grams[g] = append(v.grams[g], int32(i))
			}
		}
	}
	return v
}

// near returns the words sharing a trigram with w and minRunes to
// maxRunes long, as the vocabulary's trigram table finds them: each once,
// in vocabulary order.
func (v *vocabIndex) near(w string, minRunes, maxRunes int) []string {
	hit := make(map[int32]bool)
	var out []string
	for _, g := range trigramsOf(w) {
		for _, i := range v.grams[g] {
			if hit[i] {
				continue
			}
			hit[i] = true
			if n := v.runes[i]; n >= minRunes && n <= maxRunes {
				out = append(out, v.words[i])
			}
		}
	}
	return out
}

// trigramsOf returns the three-rune pieces of w, lowercased as the
// trigram tokenizer folds them, in order, repeats included.
func trigramsOf(w string) []string {
	rs := []rune(strings.ToLower(w))
	var out []string
	for i := 0; i+minTrigramRunes <= len(rs); i++ {
		out = append(out, string(rs[i:i+minTrigramRunes]))
	}
	return out
}

// vocabulary returns the in-memory vocabulary, read again when the
// store's has changed since (store.VocabularyMark).
func (s *Searcher) vocabulary(ctx context.Context) (*vocabIndex, error) {
	mark, err := s.st.VocabularyMark(ctx)
	if err != nil {
		return nil, err
	}
	s.vocabMu.Lock()
	defer s.vocabMu.Unlock()
	if s.vocab != nil && s.vocab.mark == mark {
		return s.vocab, nil
	}
	words, mark, err := s.st.Vocabulary(ctx)
	if err != nil {
		return nil, err
	}
	s.vocab = newVocabIndex(words, mark)
	return s.vocab, nil
}
