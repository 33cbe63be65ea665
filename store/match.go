package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Hit is one tool a search leg found. Higher Score is better; scores are
// comparable within one call only. Key orders tools of equal score
// whatever their rowids: the tool's server and name joined by a NUL byte
// (so it sorts as server, then name). MatchWords and MatchTrigrams set it.
type Hit struct {
	ID    int64
	Score float64
	Key   string
	// Len is the length of the tool's search text in characters (name,
	// description, parameter names and descriptions, enum values): BM25
	// over the word table does not weigh it (migration 5). MatchWords and
	// MatchTrigrams set it.
	Len int
}

// Term is one word of the catalog's vocabulary and the number of
// searchable tools whose Doc holds it.
type Term struct {
	Text string
	Docs int
}

// MatchWords runs the FTS5 query expr over the word table (columns name,
// desc, params, param_descs, enums, weighted by weights in that order) and
// returns the best limit tools, Score = -bm25, ties in server and name
// order (rowids depend on indexing order). expr is FTS5 query syntax
// built by the caller; a syntax error comes back as an error. A blank expr
// matches nothing. limit <= 0 means no limit.
//
// BM25 here does not normalize by a row's length (see migration 5): a
// tool described at length is not ranked below a terse one.
func (s *Store) MatchWords(ctx context.Context, expr string, weights [5]float64, limit int) ([]Hit, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(expr) == "" {
		return nil, nil
	}
	return s.matchKeyed(ctx, fmt.Sprintf("matching words %q", expr),
		`SELECT rowid, bm25(tool_words, ?, ?, ?, ?, ?, 0) AS r FROM tool_words WHERE tool_words MATCH ?`,
		weights[0], weights[1], weights[2], weights[3], weights[4], wordColumns+" : ("+expr+")", sqlLimit(limit))
}

// wordColumns is the column filter of every words query: the pad column
// (migration 5) never matches.
const wordColumns = "{name desc params param_descs enums}"

// MatchTrigrams runs the FTS5 query expr over the trigram table (one
// column: the Doc's name, description and parameter names) and returns the
// best limit tools, Score = -bm25, ties in server and name order. Terms
// under three characters match nothing there.
func (s *Store) MatchTrigrams(ctx context.Context, expr string, limit int) ([]Hit, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(expr) == "" {
		return nil, nil
	}
	return s.matchKeyed(ctx, fmt.Sprintf("matching trigrams %q", expr),
		`SELECT rowid, bm25(tool_trigrams) AS r FROM tool_trigrams WHERE tool_trigrams MATCH ?`,
		expr, sqlLimit(limit))
}

// matchKeyed runs ranked, an FTS5 query giving (rowid, r) with r lower for
// better, and returns its best hits with Score = -r, ties ordered by server
// and name through the tools_key covering index. The last arg is the limit
// (see sqlLimit).
//
// FTS5 scores every matched row (~500 of 5,000 tools for a typical intent
// within the words leg's budget); the rest of the query should touch as
// few rows as it can. First the best limit+tieSlack rows are kept by
// score alone, in SQLite's bounded sorter, and only those are joined to
// their keys: when the last of them scores worse than the limit-th, they
// hold every row that can make the answer, and ties among them are
// ordered by key. Otherwise a tie runs past them, and exactKeyed orders
// every row at the limit-th score by key.
func (s *Store) matchKeyed(ctx context.Context, op, ranked string, args ...any) ([]Hit, error) {
	limit, _ := args[len(args)-1].(int)
	if limit <= 0 {
		return s.exactKeyed(ctx, op, ranked, args...)
	}
	lim := "?" + strconv.Itoa(len(args))
	rows, err := s.stmts.query(ctx, `
WITH f AS (
	`+ranked+`
	ORDER BY r LIMIT `+lim+` + `+strconv.Itoa(tieSlack)+`
)
SELECT f.rowid, f.r, t.server || char(0) || t.name AS k, ifnull(t.doc_len, 0)
FROM f JOIN tools t INDEXED BY tools_key ON t.id = f.rowid
ORDER BY f.r, k`, args...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	hs, err := s.collectHits(rows, op, true)
	if err != nil || len(hs) <= limit {
		return hs, err
	}
	if hs[len(hs)-1].Score == hs[limit-1].Score {
		return s.exactKeyed(ctx, op, ranked, args...)
	}
	return hs[:limit], nil
}

// tieSlack is how many rows past the limit matchKeyed keeps by score
// alone, so that ties at the limit (a tool listed by two servers alike)
// are ordered by key without the slower exact query.
const tieSlack = 16

// exactKeyed is matchKeyed keeping every row whose score is at least as
// good as the limit-th: the scores are kept in a materialized table and
// only the rows that can make the answer are joined to their keys.
func (s *Store) exactKeyed(ctx context.Context, op, ranked string, args ...any) ([]Hit, error) {
	lim := "?" + strconv.Itoa(len(args)) // ranked's parameters are unnumbered: the limit is the last
	rows, err := s.stmts.query(ctx, `
WITH f AS MATERIALIZED (
	`+ranked+`
)
SELECT f.rowid, f.r, t.server || char(0) || t.name AS k, ifnull(t.doc_len, 0)
FROM f JOIN tools t INDEXED BY tools_key ON t.id = f.rowid
WHERE `+lim+` < 0 OR f.r <= ifnull((SELECT r FROM f ORDER BY r LIMIT 1 OFFSET max(`+lim+`, 1) - 1), f.r)
ORDER BY f.r, k LIMIT `+lim, args...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	return s.collectHits(rows, op, true)
}

// VocabularyMark identifies a state of the vocabulary (see Terms) by its
// newest word: a word added since gets a newer row, so a different mark.
// Words removed leave it unchanged: a caller holding an older copy of the
// vocabulary looks up the counts of the words it keeps (Terms), and a word
// gone is missing there.
type VocabularyMark struct {
	ID   int64
	Term string
}

// Vocabulary returns every word of the vocabulary (see Terms), oldest
// first, and the mark of the state read.
func (s *Store) Vocabulary(ctx context.Context) ([]string, VocabularyMark, error) {
	var mark VocabularyMark
	if err := s.await(ctx); err != nil {
		return nil, mark, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id, term FROM terms ORDER BY id")
	if err != nil {
		return nil, mark, s.wrap("reading the vocabulary", err)
	}
	defer rows.Close()
	var words []string
	for rows.Next() {
		if err := rows.Scan(&mark.ID, &mark.Term); err != nil {
			return nil, VocabularyMark{}, s.wrap("reading the vocabulary", err)
		}
		words = append(words, mark.Term)
	}
	if err := rows.Err(); err != nil {
		return nil, VocabularyMark{}, s.wrap("reading the vocabulary", err)
	}
	return words, mark, nil
}

// VocabularyMark returns the mark of the vocabulary's current state; the
// zero mark for an empty vocabulary.
func (s *Store) VocabularyMark(ctx context.Context) (VocabularyMark, error) {
	var mark VocabularyMark
	if err := s.await(ctx); err != nil {
		return mark, err
	}
	rows, err := s.stmts.query(ctx, "SELECT id, term FROM terms ORDER BY id DESC LIMIT 1")
	if err != nil {
		return mark, s.wrap("reading the vocabulary's mark", err)
	}
	defer rows.Close()
	if rows.Next() {
		err = rows.Scan(&mark.ID, &mark.Term)
	}
	if err == nil {
		err = rows.Err()
	}
	if err != nil {
		return VocabularyMark{}, s.wrap("reading the vocabulary's mark", err)
	}
	return mark, nil
}

// Terms returns how many searchable tools hold each of words (looked up
// lowercased, keyed as given); words the catalog lacks are left out.
func (s *Store) Terms(ctx context.Context, words []string) (map[string]int, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	out := make(map[string]int, len(words))
	if len(words) == 0 {
		return out, nil
	}
	asked := make(map[string][]string, len(words)) // lowercased -> as given
	for _, w := range words {
		lw := strings.ToLower(w)
		asked[lw] = append(asked[lw], w)
	}
	list, err := json.Marshal(slices.Collect(maps.Keys(asked)))
	if err != nil {
		return nil, fmt.Errorf("counting terms: %w", err)
	}
	rows, err := s.stmts.query(ctx,
		"SELECT term, docs FROM terms WHERE term IN (SELECT value FROM json_each(?))", string(list))
	if err != nil {
		return nil, s.wrap("counting terms", err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var docs int
		if err := rows.Scan(&term, &docs); err != nil {
			return nil, s.wrap("counting terms", err)
		}
		for _, w := range asked[term] {
			out[w] = docs
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("counting terms", err)
	}
	return out, nil
}

// TextStats returns the number of searchable tools and the mean length
// of their search texts in characters (see Hit.Len), read from the
// tools_key index alone.
func (s *Store) TextStats(ctx context.Context) (tools int, meanLen float64, err error) {
	if err = s.await(ctx); err != nil {
		return 0, 0, err
	}
	err = s.db.QueryRowContext(ctx, textStats).Scan(&tools, &meanLen)
	if err != nil {
		return 0, 0, s.wrap("measuring tool texts", err)
	}
	return tools, meanLen, nil
}

// textStats reads no record or card: tools.doc_len is in tools_key.
const textStats = "SELECT count(doc_len), ifnull(avg(doc_len), 0) FROM tools INDEXED BY tools_key"

// collectHits reads rows of (id, r) or, keyed, (id, r, key) into hits with
// Score = -r.
func (s *Store) collectHits(rows *sql.Rows, op string, keyed bool) ([]Hit, error) {
	defer rows.Close()
	var out []Hit
	var h Hit // scanned into through dst, row by row
	dst := []any{&h.ID, &h.Score}
	if keyed {
		dst = append(dst, &h.Key, &h.Len)
	}
	for rows.Next() {
		h = Hit{}
		if err := rows.Scan(dst...); err != nil {
			return nil, s.wrap(op, err)
		}
		h.Score = -h.Score
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// sqlLimit maps "no limit" (<= 0) to SQLite's -1.
func sqlLimit(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

// Described reports whether some tool's name or description holds word
// (in any form the word table's stemmer gives it), as opposed to only its
// parameters' texts.
func (s *Store) Described(ctx context.Context, word string) (bool, error) {
	if err := s.await(ctx); err != nil {
		return false, err
	}
	rows, err := s.stmts.query(ctx, `SELECT 1 FROM tool_words WHERE tool_words MATCH ? LIMIT 1`,
		`{name desc} : "`+strings.ReplaceAll(word, `"`, `""`)+`"`)
	if err != nil {
		return false, s.wrap("finding a described word", err)
	}
	defer rows.Close()
	found := rows.Next()
	if err := rows.Err(); err != nil {
		return false, s.wrap("finding a described word", err)
	}
	return found, nil
}
