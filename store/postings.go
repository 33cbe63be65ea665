package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/capbridge/capbridge/internal/stem"
)

// wordColumnCount is the number of searched columns of the word table:
// name, desc, params, param_descs, enums (the pad column is never
// searched).
const wordColumnCount = 5

// posting is one tool holding a token of the word table, and how many
// times in each searched column.
type posting struct {
	id     int64
	counts [wordColumnCount]uint32
}

// postingEdit is what one write transaction changes of a token's
// postings: the tools that no longer hold it, then the tools that do.
type postingEdit struct {
	drop []int64
	add  []posting
}

// docPostings returns the tokens of d as the word table stores them
// (stem.Words of each column's text as written there), with their counts
// per column.
func docPostings(d Doc) map[string]*[wordColumnCount]uint32 {
	out := make(map[string]*[wordColumnCount]uint32)
	for c, text := range [wordColumnCount]string{d.Name, d.Desc, d.Params, d.ParamDescs, d.Enums} {
		for _, tok := range stem.Words(wordText(text)) {
			counts := out[tok]
			if counts == nil {
				counts = new([wordColumnCount]uint32)
				out[tok] = counts
			}
			counts[c]++
		}
	}
	return out
}

// encodePostings writes ps (by id, ascending) as: for each posting, the
// uvarint gap from the previous id, a byte whose bits say which columns
// hold the token, and the uvarint count of each of those columns.
func encodePostings(ps []posting) []byte {
	buf := make([]byte, 0, 4*len(ps))
	var prev int64
	for _, p := range ps {
		buf = binary.AppendUvarint(buf, uint64(p.id-prev))
		prev = p.id
		var mask byte
		for c, n := range p.counts {
			if n > 0 {
				mask |= 1 << c
			}
		}
		buf = append(buf, mask)
		for _, n := range p.counts {
			if n > 0 {
				buf = binary.AppendUvarint(buf, uint64(n))
			}
		}
	}
	return buf
}

// maxTokenCount bounds a token's count in one column as a posting list
// may hold it: more would need megabytes of text in one field, and the
// scorer adds a weight per instance, so a damaged count must not be
// believed.
const maxTokenCount = 1 << 20

// errPostings says a stored posting list cannot be read.
var errPostings = errors.New("damaged posting list")

// decodePostings reads what encodePostings wrote, appending to dst.
func decodePostings(dst []posting, buf []byte) ([]posting, error) {
	var id int64
	for len(buf) > 0 {
		gap, n := binary.Uvarint(buf)
		if n <= 0 || len(buf) < n+1 {
			return dst, errPostings
		}
		id += int64(gap)
		mask := buf[n]
		buf = buf[n+1:]
		p := posting{id: id}
		for c := range wordColumnCount {
			if mask&(1<<c) == 0 {
				continue
			}
			v, n := binary.Uvarint(buf)
			if n <= 0 || v > maxTokenCount {
				return dst, errPostings
			}
			p.counts[c] = uint32(v)
			buf = buf[n:]
		}
		dst = append(dst, p)
	}
	return dst, nil
}

// maxPendingPostings bounds the postings an index write holds in memory
// before writing them: indexing 5,000 tools at once held 300,000 of them,
// 20 MiB of the 120 MiB the index is allowed.
const maxPendingPostings = 32 << 10

// post records that tool id holds the tokens of d.
func (w *indexWriter) post(ctx context.Context, id int64, d Doc) error {
	if !w.postings {
		return nil
	}
	for tok, counts := range docPostings(d) {
		e := w.edit(tok)
		e.add = append(e.add, posting{id: id, counts: *counts})
		w.pending++
		w.adding = true
	}
	if w.pending >= maxPendingPostings {
		return w.applyPostings(ctx)
	}
	return nil
}

// unpost records that tool id, indexed with d, holds its tokens no more.
// Postings added before are written first: an edit drops before it adds.
func (w *indexWriter) unpost(ctx context.Context, id int64, d Doc) error {
	if !w.postings {
		return nil
	}
	if w.adding {
		if err := w.applyPostings(ctx); err != nil {
			return err
		}
	}
	for tok := range docPostings(d) {
		e := w.edit(tok)
		e.drop = append(e.drop, id)
		w.pending++
	}
	if w.pending >= maxPendingPostings {
		return w.applyPostings(ctx)
	}
	return nil
}

func (w *indexWriter) edit(tok string) *postingEdit {
	e := w.posted[tok]
	if e == nil {
		e = new(postingEdit)
		w.posted[tok] = e
	}
	return e
}

// applyPostings writes the recorded posting changes, token by token.
func (w *indexWriter) applyPostings(ctx context.Context) error {
	if len(w.posted) == 0 {
		return nil
	}
	read, err := w.tx.PrepareContext(ctx, "SELECT postings FROM word_postings WHERE term = ?")
	if err != nil {
		return fmt.Errorf("preparing posting statements: %w", err)
	}
	defer read.Close()
	put, err := w.tx.PrepareContext(ctx, "INSERT OR REPLACE INTO word_postings (term, postings) VALUES (?, ?)")
	if err != nil {
		return fmt.Errorf("preparing posting statements: %w", err)
	}
	defer put.Close()
	del, err := w.tx.PrepareContext(ctx, "DELETE FROM word_postings WHERE term = ?")
	if err != nil {
		return fmt.Errorf("preparing posting statements: %w", err)
	}
	defer del.Close()
	toks := make([]string, 0, len(w.posted))
	for tok := range w.posted {
		toks = append(toks, tok)
	}
	slices.Sort(toks)
	var ps []posting
	for _, tok := range toks {
		e := w.posted[tok]
		var blob []byte
		switch err := read.QueryRowContext(ctx, tok).Scan(&blob); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("reading postings of %q: %w", tok, err)
		}
		if ps, err = decodePostings(ps[:0], blob); err != nil {
			return fmt.Errorf("reading postings of %q: %w", tok, err)
		}
		gone := make(map[int64]bool, len(e.drop)+len(e.add))
		for _, id := range e.drop {
			gone[id] = true
		}
		for _, a := range e.add {
			gone[a.id] = true // written anew
		}
		ps = slices.DeleteFunc(ps, func(p posting) bool { return gone[p.id] })
		ps = append(ps, e.add...)
		slices.SortFunc(ps, func(a, b posting) int { return cmp.Compare(a.id, b.id) })
		if len(ps) == 0 {
			_, err = del.ExecContext(ctx, tok)
		} else {
			_, err = put.ExecContext(ctx, tok, encodePostings(ps))
		}
		if err != nil {
			return fmt.Errorf("writing postings of %q: %w", tok, err)
		}
	}
	clear(w.posted)
	w.pending, w.adding = 0, false
	return nil
}

// buildPostings is the Go half of migration 9: the postings of every
// searchable tool, from its stored texts.
func buildPostings(ctx context.Context, tx *sql.Tx) error {
	all, err := searchableTexts(ctx, tx)
	if err != nil {
		return err
	}
	w := &indexWriter{tx: tx, postings: true, posted: make(map[string]*postingEdit)}
	for _, r := range all {
		if err := w.post(ctx, r.id, r.doc); err != nil {
			return err
		}
	}
	return w.applyPostings(ctx)
}
