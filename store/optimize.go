package store

import (
	"context"
	"database/sql"
	"fmt"
)

// optimizeSearch merges each FTS5 search table's index into one segment
// (FTS5 'optimize'), inside the write transaction that changed it. Every
// write leaves segments and tombstones behind, and every query walks them
// all: a catalog stored one server at a time (MetaTool's 199 one-tool
// servers) made searches five times slower. Merging costs about as much
// as reading the index once, paid by the rare write instead of every
// search.
func optimizeSearch(ctx context.Context, tx *sql.Tx) error {
	for _, t := range [...]string{"tool_words", "tool_trigrams"} {
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+t+"("+t+") VALUES('optimize')"); err != nil {
			return fmt.Errorf("merging search index %s: %w", t, err)
		}
	}
	return nil
}
