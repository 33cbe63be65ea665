package search

import (
	"context"
	"strings"

	"github.com/capbridge/capbridge/store"
)

// vectorHits embeds the intent and asks the store for the nearest tools.
// Any failure, the endpoint's or a dimension mismatch with the stored
// vectors, is reported to the embedder (logged once, then resting) and
// returned; the search goes on without this leg.
func (s *Searcher) vectorHits(ctx context.Context, intent string, k int) ([]store.Hit, error) {
	vs, err := s.embedder.Embed(ctx, []string{intent})
	if err != nil {
		return nil, err
	}
	hits, err := s.st.NearestVectors(ctx, vs[0], k)
	if err != nil {
		s.embedder.fail(err)
		return nil, err
	}
	return hits, nil
}

// maxEmbedRunes bounds the text embedded for one tool.
const maxEmbedRunes = 2000

// embedText is the text embedded for a tool: its name's words, its
// description and its parameter names.
func embedText(d store.Doc) string {
	s := strings.Join([]string{d.Name, d.Desc, d.Params}, "\n")
	if r := []rune(s); len(r) > maxEmbedRunes {
		s = string(r[:maxEmbedRunes])
	}
	return s
}
