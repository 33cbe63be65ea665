package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Unchanged is what [Store.TouchCatalog] found stored for a listing it
// recognized.
type Unchanged struct {
	Stored  int    // searchable tools
	Refused []Tool // refused tools, with Name and Refusal only
}

// What TouchCatalog reads of an unchanged catalog, from the tools_refused
// index alone: the rows hold records and cards, 61 of the 75 MB of a
// 5,000-tool catalog. A refusal is asked for as greater than the empty
// string, not unequal to it: a range, which the index answers.
const (
	countStored = "SELECT count(*) FROM tools WHERE server = ? AND refusal = ''"
	listRefused = "SELECT name, refusal FROM tools WHERE server = ? AND refusal > '' ORDER BY name"
)

// TouchCatalog records a listing of srv that is the one stored: when the
// stored server's Listing equals srv.Listing (and is not ""), it updates the
// server row (fingerprint, state, last error, bytes, last listed) and
// leaves its tools alone, so a refresh that changed nothing does not
// rewrite the catalog. It returns nil, writing nothing, when the stored
// listing differs or the server is not stored: the caller then replaces
// the catalog. An empty srv.State becomes [StateStored] and a zero
// srv.LastListed the current time, as in [Store.ReplaceCatalog].
func (s *Store) TouchCatalog(ctx context.Context, srv Server) (*Unchanged, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	if srv.Listing == "" {
		return nil, nil
	}
	if srv.State == "" {
		srv.State = StateStored
	}
	if srv.LastListed.IsZero() {
		srv.LastListed = time.Now()
	}
	var found *Unchanged
	err := s.write(ctx, fmt.Sprintf("recording an unchanged catalog of %q", srv.Name), func(tx *sql.Tx) error {
		found = nil // a retried transaction starts again
		res, err := tx.ExecContext(ctx, `
UPDATE servers SET fingerprint = ?, state = ?, last_listed = ?, last_error = ?, bytes = ?
WHERE name = ? AND listing = ?`,
			srv.Fingerprint, srv.State, srv.LastListed.UnixMilli(), srv.LastError, srv.Bytes, srv.Name, srv.Listing)
		if err != nil {
			return fmt.Errorf("writing server row: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		u := &Unchanged{}
		if err := tx.QueryRowContext(ctx, countStored, srv.Name).
			Scan(&u.Stored); err != nil {
			return fmt.Errorf("counting stored tools: %w", err)
		}
		rows, err := tx.QueryContext(ctx, listRefused, srv.Name)
		if err != nil {
			return fmt.Errorf("reading refused tools: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			t := Tool{Server: srv.Name}
			if err := rows.Scan(&t.Name, &t.Refusal); err != nil {
				return fmt.Errorf("reading refused tools: %w", err)
			}
			u.Refused = append(u.Refused, t)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reading refused tools: %w", err)
		}
		found = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}
