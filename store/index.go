package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"slices"
)

// storedDoc is what replacing or removing a tool needs to know of its row.
type storedDoc struct {
	id          int64
	name        string
	searchable  bool
	contentHash string
	doc         Doc
}

// storedDocs reads the rows of server's tools.
func storedDocs(ctx context.Context, tx *sql.Tx, server string) ([]storedDoc, error) {
	rows, err := tx.QueryContext(ctx, `
SELECT id, name, refusal = '', content_hash, doc_name, doc_desc, doc_params, doc_param_descs, doc_enums
FROM tools WHERE server = ?`, server)
	if err != nil {
		return nil, fmt.Errorf("reading stored tools: %w", err)
	}
	defer rows.Close()
	var out []storedDoc
	for rows.Next() {
		var o storedDoc
		if err := rows.Scan(&o.id, &o.name, &o.searchable, &o.contentHash,
			&o.doc.Name, &o.doc.Desc, &o.doc.Params, &o.doc.ParamDescs, &o.doc.Enums); err != nil {
			return nil, fmt.Errorf("reading stored tools: %w", err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading stored tools: %w", err)
	}
	return out, nil
}

// indexWriter writes tool rows and keeps the search tables in step with
// them inside one transaction. Vocabulary changes are summed in terms and
// written once by applyTerms.
type indexWriter struct {
	tx      *sql.Tx
	vectors bool // tool_vectors exists
	stmts   []*sql.Stmt

	insertTool, updateTool, deleteTool *sql.Stmt
	insertWords, deleteWords           *sql.Stmt
	insertTrigrams, deleteTrigrams     *sql.Stmt
	deleteVector                       *sql.Stmt

	terms map[string]int // word -> change in the number of tools holding it
	// postings says word_postings exists (migration 9); posted holds its
	// changes, token by token, written once by applyPostings.
	postings bool
	posted   map[string]*postingEdit
	pending  int  // postings in posted
	adding   bool // some of them are added
	// dirty says a search row was added or removed: the search index
	// needs merging (see optimizeSearch).
	dirty bool
	// cardSums says tools.card_sum exists (migration 15): tool rows are
	// written with their card's sum.
	cardSums bool
}

// cardSumColumn, cardSumValue and cardSumSet are the parts of the tool
// statements that write card_sum as parameter n, when it exists.
func (w *indexWriter) cardSumColumn() string {
	if !w.cardSums {
		return ""
	}
	return ", card_sum"
}

func (w *indexWriter) cardSumValue(n int) string {
	if !w.cardSums {
		return ""
	}
	return fmt.Sprintf(", ?%d", n)
}

func (w *indexWriter) cardSumSet(n int) string {
	if !w.cardSums {
		return ""
	}
	return fmt.Sprintf(", card_sum = ?%d", n)
}

// withCardSum returns args with card's sum after them when card_sum exists.
func (w *indexWriter) withCardSum(card []byte, args ...any) []any {
	if !w.cardSums {
		return args
	}
	return append(args, CardSum(card))
}

func newIndexWriter(ctx context.Context, tx *sql.Tx) (*indexWriter, error) {
	w := &indexWriter{tx: tx, terms: make(map[string]int), posted: make(map[string]*postingEdit)}
	var err error
	if w.vectors, err = hasVectorTable(ctx, tx); err != nil {
		return nil, err
	}
	if w.postings, err = hasTable(ctx, tx, "word_postings"); err != nil {
		return nil, err
	}
	if w.cardSums, err = hasColumn(ctx, tx, "tools", "card_sum"); err != nil {
		return nil, err
	}
	prepare := func(dst **sql.Stmt, query string) {
		if err != nil {
			return
		}
		var st *sql.Stmt
		if st, err = tx.PrepareContext(ctx, query); err == nil {
			*dst = st
			w.stmts = append(w.stmts, st)
		}
	}
	// doc_len as migration 5 defines it.
	prepare(&w.insertTool, `
INSERT INTO tools (server, name, hash, record, card, refusal, content_hash,
	doc_name, doc_desc, doc_params, doc_param_descs, doc_enums, doc_len`+w.cardSumColumn()+`)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,
	CASE WHEN ?6 = '' THEN length(?8) + length(?9) + length(?10) + length(?11) + length(?12) END`+w.cardSumValue(13)+`)`)
	prepare(&w.updateTool, `
UPDATE tools SET hash = ?1, record = ?2, card = ?3, refusal = ?4, content_hash = ?5,
	doc_name = ?6, doc_desc = ?7, doc_params = ?8, doc_param_descs = ?9, doc_enums = ?10,
	doc_len = CASE WHEN ?4 = '' THEN length(?6) + length(?7) + length(?8) + length(?9) + length(?10) END`+w.cardSumSet(12)+`
WHERE id = ?11`)
	prepare(&w.deleteTool, "DELETE FROM tools WHERE id = ?")
	prepare(&w.insertWords, `
INSERT INTO tool_words (rowid, name, desc, params, param_descs, enums, pad) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	// The word table keeps no row lengths (migration 5): a row is deleted
	// with the text it was indexed with.
	prepare(&w.deleteWords, `
INSERT INTO tool_words (tool_words, rowid, name, desc, params, param_descs, enums, pad)
VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)`)
	prepare(&w.insertTrigrams, "INSERT INTO tool_trigrams (rowid, text) VALUES (?, ?)")
	prepare(&w.deleteTrigrams, "DELETE FROM tool_trigrams WHERE rowid = ?")
	if w.vectors {
		prepare(&w.deleteVector, "DELETE FROM tool_vectors WHERE rowid = ?")
	}
	if err != nil {
		w.close()
		return nil, fmt.Errorf("preparing index statements: %w", err)
	}
	return w, nil
}

func (w *indexWriter) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

// replace turns server's stored rows old into tools, read once, in order.
// Every search row to remove goes before every one to add: FTS5 flushes
// its pending inserts before a delete, so interleaving them would cost a
// flush a tool. So each tool's row is written as it is read, and only the
// search text of the tools to index is kept for a second pass: not whole
// rows, which for 5,000 tools (each with the tool as sent, its canonical
// schema and its card) held 56 MB.
func (w *indexWriter) replace(ctx context.Context, server string, old []storedDoc, tools iter.Seq2[Tool, error]) error {
	stored := make(map[string]storedDoc, len(old))
	for _, o := range old {
		stored[o.name] = o
	}
	type toIndex struct {
		id  int64
		doc Doc
	}
	var later []toIndex
	for t, err := range tools {
		if err != nil {
			return err
		}
		hash := contentHash(t.Doc)
		o, ok := stored[t.Name]
		id := o.id
		if ok {
			delete(stored, t.Name) // consumed: a duplicate name inserts, and fails
			keep := keepsIndex(o, t, hash)
			if !keep {
				if err := w.unindex(ctx, o); err != nil {
					return err
				}
			}
			if _, err := w.updateTool.ExecContext(ctx, w.withCardSum(t.Card, t.Hash, t.Record, t.Card, t.Refusal, hash,
				t.Doc.Name, t.Doc.Desc, t.Doc.Params, t.Doc.ParamDescs, t.Doc.Enums, o.id)...); err != nil {
				return fmt.Errorf("updating tool %q: %w", t.Name, err)
			}
			if keep {
				continue // same text: search and vector rows stay
			}
		} else {
			var err error
			if id, err = w.insert(ctx, server, t, hash); err != nil {
				return err
			}
		}
		if t.Refusal == "" {
			later = append(later, toIndex{id, t.Doc})
		}
	}
	for _, o := range old {
		if _, unlisted := stored[o.name]; !unlisted {
			continue
		}
		if err := w.unindex(ctx, o); err != nil {
			return err
		}
		if _, err := w.deleteTool.ExecContext(ctx, o.id); err != nil {
			return fmt.Errorf("deleting tool %q: %w", o.name, err)
		}
	}
	for _, x := range later {
		if err := w.index(ctx, x.id, x.doc); err != nil {
			return err
		}
	}
	return nil
}

// keepsIndex reports whether stored tool o, listed again as t with content
// hash hash, keeps its search and vector rows as they are.
func keepsIndex(o storedDoc, t Tool, hash string) bool {
	return o.searchable && t.Refusal == "" && o.contentHash == hash
}

func (w *indexWriter) insert(ctx context.Context, server string, t Tool, hash string) (int64, error) {
	res, err := w.insertTool.ExecContext(ctx, w.withCardSum(t.Card, server, t.Name, t.Hash, t.Record, t.Card, t.Refusal, hash,
		t.Doc.Name, t.Doc.Desc, t.Doc.Params, t.Doc.ParamDescs, t.Doc.Enums)...)
	if err != nil {
		return 0, fmt.Errorf("inserting tool %q: %w", t.Name, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("inserting tool %q: %w", t.Name, err)
	}
	return id, nil
}

// index adds the search rows of tool id.
func (w *indexWriter) index(ctx context.Context, id int64, d Doc) error {
	if _, err := w.insertWords.ExecContext(ctx, id, wordText(d.Name), wordText(d.Desc), wordText(d.Params),
		wordText(d.ParamDescs), wordText(d.Enums), padText); err != nil {
		return fmt.Errorf("indexing words of tool %d: %w", id, err)
	}
	if _, err := w.insertTrigrams.ExecContext(ctx, id, trigramText(d)); err != nil {
		return fmt.Errorf("indexing trigrams of tool %d: %w", id, err)
	}
	for word := range vocabulary(d) {
		w.terms[word]++
	}
	if err := w.post(ctx, id, d); err != nil {
		return err
	}
	w.dirty = true
	return nil
}

// unindex removes the search and vector rows of a stored tool, if it had any.
func (w *indexWriter) unindex(ctx context.Context, o storedDoc) error {
	if !o.searchable {
		return nil
	}
	d := o.doc
	if _, err := w.deleteWords.ExecContext(ctx, o.id, wordText(d.Name), wordText(d.Desc), wordText(d.Params),
		wordText(d.ParamDescs), wordText(d.Enums), padText); err != nil {
		return fmt.Errorf("unindexing words of tool %q: %w", o.name, err)
	}
	if _, err := w.deleteTrigrams.ExecContext(ctx, o.id); err != nil {
		return fmt.Errorf("unindexing trigrams of tool %q: %w", o.name, err)
	}
	if w.vectors {
		if _, err := w.deleteVector.ExecContext(ctx, o.id); err != nil {
			return fmt.Errorf("deleting vector of tool %q: %w", o.name, err)
		}
	}
	for word := range vocabulary(o.doc) {
		w.terms[word]--
	}
	if err := w.unpost(ctx, o.id, o.doc); err != nil {
		return err
	}
	w.dirty = true
	return nil
}

// finish writes the vocabulary changes and, when search rows changed,
// merges the search index.
func (w *indexWriter) finish(ctx context.Context) error {
	if err := w.applyTerms(ctx); err != nil {
		return err
	}
	if err := w.applyPostings(ctx); err != nil {
		return err
	}
	// Any process reading the catalog learns its rows may have changed.
	if _, err := w.tx.ExecContext(ctx, `
INSERT INTO meta (key, value) VALUES ('`+metaCatalogVersion+`', '1')
ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`); err != nil {
		return fmt.Errorf("counting the catalog's version: %w", err)
	}
	if !w.dirty {
		return nil
	}
	w.dirty = false
	return optimizeSearch(ctx, w.tx)
}

// applyTerms writes the summed vocabulary changes: new words get a row,
// words no tool holds any more lose theirs.
func (w *indexWriter) applyTerms(ctx context.Context) error {
	words := make([]string, 0, len(w.terms))
	for word, n := range w.terms {
		if n != 0 {
			words = append(words, word)
		}
	}
	if len(words) == 0 {
		return nil
	}
	slices.Sort(words) // deterministic ids
	var (
		err                         error
		lookup, insert, update, del *sql.Stmt
	)
	prepare := func(dst **sql.Stmt, query string) {
		if err != nil {
			return
		}
		var st *sql.Stmt
		if st, err = w.tx.PrepareContext(ctx, query); err == nil {
			*dst = st
			w.stmts = append(w.stmts, st)
		}
	}
	prepare(&lookup, "SELECT id, docs FROM terms WHERE term = ?")
	prepare(&insert, "INSERT INTO terms (term, docs) VALUES (?, ?)")
	prepare(&update, "UPDATE terms SET docs = ? WHERE id = ?")
	prepare(&del, "DELETE FROM terms WHERE id = ?")
	if err != nil {
		return fmt.Errorf("preparing vocabulary statements: %w", err)
	}
	for _, word := range words {
		change := w.terms[word]
		var id int64
		var docs int
		err := lookup.QueryRowContext(ctx, word).Scan(&id, &docs)
		switch {
		case errors.Is(err, sql.ErrNoRows) && change > 0:
			if _, err := insert.ExecContext(ctx, word, change); err != nil {
				return fmt.Errorf("adding term %q: %w", word, err)
			}
		case errors.Is(err, sql.ErrNoRows):
			// Removing a word never stored: nothing to do.
		case err != nil:
			return fmt.Errorf("reading term %q: %w", word, err)
		case docs+change > 0:
			if _, err := update.ExecContext(ctx, docs+change, id); err != nil {
				return fmt.Errorf("counting term %q: %w", word, err)
			}
		default:
			if _, err := del.ExecContext(ctx, id); err != nil {
				return fmt.Errorf("removing term %q: %w", word, err)
			}
		}
	}
	clear(w.terms)
	return nil
}

// hasVectorTable reports whether EnsureVectors has created tool_vectors.
func hasVectorTable(ctx context.Context, q querier) (bool, error) {
	return hasTable(ctx, q, "tool_vectors")
}

// hasTable reports whether table name exists.
// hasColumn reports whether table has the column name.
func hasColumn(ctx context.Context, q querier, table, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, name).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("looking for column %s.%s: %w", table, name, err)
	}
	return n > 0, nil
}

func hasTable(ctx context.Context, q querier, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx,
		"SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", name).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("looking for table %s: %w", name, err)
	}
	return n > 0, nil
}

// querier is what both *sql.DB and *sql.Tx offer for reading.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}
