package search

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
)

// optimizeIndex merges the FTS5 segments of the store's search tables.
// Each ReplaceCatalog adds segments; a catalog loaded one server at a
// time (MetaTool's 199 one-tool servers) leaves hundreds, and every query
// then walks them all: measured, 5x slower searches.
//
// Stop-gap: the store owns the database and should run this itself after
// ReplaceCatalog (FTS5 'optimize' or 'merge'); until it does, LoadCatalog
// calls this through a second connection to the same file.
func optimizeIndex(ctx context.Context, path string) error {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	u := url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: q.Encode()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return fmt.Errorf("optimizing search index: %w", err)
	}
	defer db.Close()
	for _, table := range []string{"tool_words", "tool_trigrams", "terms_trigrams"} {
		if _, err := db.ExecContext(ctx, "INSERT INTO "+table+"("+table+") VALUES('optimize')"); err != nil {
			return fmt.Errorf("optimizing search index %s: %w", table, err)
		}
	}
	return nil
}
