// Package search ranks catalog tools for a free-text intent by fusing three
// legs over the store: FTS5 words (BM25), FTS5 trigrams (typos and
// fragments) and optional sqlite-vec embeddings.
package search
