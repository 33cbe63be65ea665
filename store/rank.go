package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/capbridge/capbridge/internal/stem"
)

// WordTerm is one term of a words query: a word or phrase as the caller
// wrote it, searched in every column or, NameOnly, in tool names only.
type WordTerm struct {
	Text     string
	NameOnly bool
}

// RankWords returns the best limit tools holding any of terms, scored as
// MatchWords scores the FTS5 query that ORs them (each a quoted string,
// NameOnly ones under a name column filter): the same BM25, the same
// Score, Key and Len, ties in server and name order. limit <= 0 means no
// limit.
//
// When every term is one ASCII token, the scores come from the posting
// lists (migration 9): one read of a blob a token, where FTS5's bm25
// walked every matched row's positions. Otherwise (a phrase, a word
// outside ASCII, where stem.Words may part from FTS5's tokenizer) the
// query runs through MatchWords.
func (s *Store) RankWords(ctx context.Context, terms []WordTerm, weights [5]float64, limit int) ([]Hit, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	toks := make([]string, 0, len(terms))
	for _, t := range terms {
		ws := stem.Words(t.Text)
		if len(ws) != 1 || !stem.Exact(t.Text) {
			return s.MatchWords(ctx, wordsExpr(terms), weights, limit)
		}
		toks = append(toks, ws[0])
	}
	if len(toks) == 0 {
		return nil, nil
	}
	lists, rowCount, avgLen, version, err := s.readPostings(ctx, toks)
	if errors.Is(err, errPostings) {
		// FTS5 still holds the same words: the search loses nothing.
		s.logger.Warn("search postings damaged: searching by FTS5 alone", "path", s.path, "err", err)
		return s.MatchWords(ctx, wordsExpr(terms), weights, limit)
	}
	if err != nil {
		return nil, err
	}
	scores := scorePostings(terms, toks, lists, weights, rowCount, avgLen)
	return s.keyedBest(ctx, scores, limit, version)
}

// wordsExpr is the FTS5 query RankWords answers: terms ORed, each quoted.
func wordsExpr(terms []WordTerm) string {
	var b strings.Builder
	for _, t := range terms {
		if t.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" OR ")
		}
		if t.NameOnly {
			b.WriteString("name : ")
		}
		b.WriteString(`"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`)
	}
	return b.String()
}

// readPostings reads the posting lists of toks, by token, with the word
// table's row count and mean row length in tokens (FTS5's averages
// record) and the catalog's version (metaCatalogVersion, "" before the
// first write), in one statement and so from one snapshot.
func (s *Store) readPostings(ctx context.Context, toks []string) (lists map[string][]posting, rowCount int64, avgLen float64, version string, err error) {
	const op = "reading postings"
	list, err := json.Marshal(toks)
	if err != nil {
		return nil, 0, 0, "", fmt.Errorf("%s: %w", op, err)
	}
	rows, err := s.stmts.query(ctx, `
SELECT 0, term, postings FROM word_postings WHERE term IN (SELECT value FROM json_each(?))
UNION ALL SELECT 1, NULL, block FROM tool_words_data WHERE id = 1
UNION ALL SELECT 2, NULL, CAST(value AS BLOB) FROM meta WHERE key = '`+metaCatalogVersion+`'`, string(list))
	if err != nil {
		return nil, 0, 0, "", s.wrap(op, err)
	}
	defer rows.Close()
	lists = make(map[string][]posting, len(toks))
	for rows.Next() {
		var kind int
		var term *string
		var blob []byte
		if err := rows.Scan(&kind, &term, &blob); err != nil {
			return nil, 0, 0, "", s.wrap(op, err)
		}
		switch kind {
		case 1:
			if rowCount, avgLen, err = ftsAverages(blob); err != nil {
				return nil, 0, 0, "", fmt.Errorf("%s: %w", op, err)
			}
		case 2:
			version = string(blob)
		default:
			ps, err := decodePostings(nil, blob)
			if err != nil {
				return nil, 0, 0, "", fmt.Errorf("%s of %q: %w", op, *term, err)
			}
			lists[*term] = ps
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, 0, "", s.wrap(op, err)
	}
	return lists, rowCount, avgLen, version, nil
}

// ftsAverages reads FTS5's averages record: the row count, then each
// column's total token count, as SQLite varints. It returns the row count
// and the mean tokens a row over all columns, as bm25 computes them.
func ftsAverages(rec []byte) (rows int64, avg float64, err error) {
	n, k := sqliteVarint(rec)
	if k == 0 {
		return 0, 0, fmt.Errorf("%w: FTS5 averages record", errPostings)
	}
	rec = rec[k:]
	var total uint64
	for len(rec) > 0 {
		v, k := sqliteVarint(rec)
		if k == 0 {
			return 0, 0, fmt.Errorf("%w: FTS5 averages record", errPostings)
		}
		total += v
		rec = rec[k:]
	}
	if n == 0 {
		return 0, 0, nil
	}
	return int64(n), float64(total) / float64(n), nil
}

// sqliteVarint decodes SQLite's big-endian varint (seven bits a byte, the
// ninth byte whole) and returns it with its length, 0 when b is short.
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// wordTableColumns is how many columns the word table has, the pad
// column among them: with no row lengths stored (migration 5) FTS5 counts
// each as -1 token.
const wordTableColumns = 6

// scored is one tool's score.
type scored struct {
	id    int64
	score float64
}

// scorePostings computes FTS5's bm25 of each tool holding a term, as
// fts5_aux.c does, operation for operation: per term (a phrase of the
// query, in order) an IDF from the rows holding it in its columns, a
// frequency summing the column weights of its instances, column by
// column, and the row length D fixed at -wordTableColumns. The tools come
// in the order first met.
func scorePostings(terms []WordTerm, toks []string, lists map[string][]posting, weights [5]float64, rowCount int64, avgLen float64) []scored {
	if rowCount == 0 {
		return nil
	}
	// Variables, not constants: C computes k1 + 1.0 at run time, in
	// doubles, and so must this.
	k1, b := 1.2, 0.75
	nRow := float64(rowCount)
	// The length factor: 1 - b + b*D/avgdl with D = -6. Each product is
	// converted explicitly so that the compiler fuses no multiply-add.
	norm := float64(1-b) + float64(float64(b*-wordTableColumns)/avgLen)
	total := 0
	for _, tok := range toks {
		total += len(lists[tok])
	}
	at := make(map[int64]int, total)
	out := make([]scored, 0, total)
	for i, t := range terms {
		cols := wordColumnCount
		if t.NameOnly {
			cols = 1
		}
		ps := lists[toks[i]]
		held := func(p posting) bool {
			for c := range cols {
				if p.counts[c] > 0 {
					return true
				}
			}
			return false
		}
		nHit := 0.0
		for _, p := range ps {
			if held(p) {
				nHit++
			}
		}
		idf := math.Log(float64(nRow-nHit+0.5) / float64(nHit+0.5))
		if idf <= 0 {
			idf = 1e-6
		}
		// Each tool's terms are summed in query order, as bm25 sums its
		// phrases (a term a tool lacks adds zero).
		for _, p := range ps {
			if !held(p) {
				continue
			}
			f := 0.0
			for c := range cols {
				for range p.counts[c] {
					f += weights[c]
				}
			}
			part := float64(idf * float64(float64(f*(k1+1.0))/float64(f+float64(k1*norm))))
			if k, ok := at[p.id]; ok {
				out[k].score += part
				continue
			}
			at[p.id] = len(out)
			out = append(out, scored{p.id, part})
		}
	}
	return out
}

// keyedBest returns the best limit of scores (all for limit <= 0) as
// Hits, best first, ties by Key: only the tools at or above the limit-th
// score have their keys and lengths read.
func (s *Store) keyedBest(ctx context.Context, scores []scored, limit int, version string) ([]Hit, error) {
	if len(scores) == 0 {
		return nil, nil
	}
	if limit > 0 && len(scores) > limit {
		xs := make([]float64, len(scores))
		for i, sc := range scores {
			xs[i] = sc.score
		}
		last := kthLargest(xs, limit)
		scores = slices.DeleteFunc(scores, func(sc scored) bool { return sc.score < last })
	}
	keys, missing := s.keys.lookup(version, scores)
	if len(missing) > 0 {
		read, err := s.toolKeys(ctx, missing)
		if err != nil {
			return nil, err
		}
		s.keys.add(version, read)
		maps.Copy(keys, read)
	}
	out := make([]Hit, 0, len(scores))
	for _, sc := range scores {
		k, ok := keys[sc.id]
		if !ok {
			continue // removed since the postings were read
		}
		out = append(out, Hit{ID: sc.id, Score: sc.score, Key: k.key, Len: k.len})
	}
	// Only ties need the keys' order.
	slices.SortStableFunc(out, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// kthLargest returns the k-th largest of xs (1 <= k <= len(xs)),
// reordering xs: Hoare's selection, linear on average, where sorting the
// few hundred scores of a search to keep 50 cost more than scoring them.
func kthLargest(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	want := k - 1 // index in descending order
	for lo < hi {
		pivot := xs[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for xs[i] > pivot {
				i++
			}
			for xs[j] < pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case want <= j:
			hi = j
		case want >= i:
			lo = i
		default:
			return xs[want]
		}
	}
	return xs[want]
}

type toolKey struct {
	key string
	len int
}

// metaCatalogVersion is the meta key counting the index writes: every
// write that may change a tool's row adds one (see indexWriter.finish).
const metaCatalogVersion = "catalog_version"

// keyCache keeps the Key and Len of the tools searches returned, for one
// catalog version: reading them cost 0.14 ms a search over 5,000 tools,
// two microseconds a row, for the 50-odd candidates of the words leg.
// Another process's write changes the version as this one's does, and
// the cache starts over.
type keyCache struct {
	mu      sync.Mutex
	version string
	keys    map[int64]toolKey
}

// lookup returns the cached keys of scores' tools for version, and the
// ids it lacks.
func (c *keyCache) lookup(version string, scores []scored) (map[int64]toolKey, []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != version {
		c.version, c.keys = version, nil
	}
	found := make(map[int64]toolKey, len(scores))
	var missing []int64
	for _, sc := range scores {
		if k, ok := c.keys[sc.id]; ok {
			found[sc.id] = k
		} else {
			missing = append(missing, sc.id)
		}
	}
	return found, missing
}

// add caches keys read for version.
func (c *keyCache) add(version string, keys map[int64]toolKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != version {
		return // a newer version was seen meanwhile
	}
	if c.keys == nil {
		c.keys = make(map[int64]toolKey, len(keys))
	}
	maps.Copy(c.keys, keys)
}

// toolKeys reads the Key and Len (see Hit) of tools ids from the tools_key
// index.
func (s *Store) toolKeys(ctx context.Context, ids []int64) (map[int64]toolKey, error) {
	const op = "reading tool keys"
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// json_each drives the loop: an IN list over the index scanned it all.
	rows, err := s.stmts.query(ctx, `
SELECT t.id, t.server || char(0) || t.name, ifnull(t.doc_len, 0)
FROM json_each(?) AS j CROSS JOIN tools AS t INDEXED BY tools_key ON t.id = j.value`, string(list))
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out := make(map[int64]toolKey, len(ids))
	for rows.Next() {
		var id int64
		var k toolKey
		if err := rows.Scan(&id, &k.key, &k.len); err != nil {
			return nil, s.wrap(op, err)
		}
		out[id] = k
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}
