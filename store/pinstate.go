package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PinState is what a discovery checks of a tool's pin before it serves the
// tool: the pin's hashes and whether it is held, without its definitions.
type PinState struct {
	Found      bool   // the tool has a pin
	Hash       string // of the pinned definition
	ListedHash string // of the listed definition when it differs from the pin, else ""
	Held       bool
	Reason     string
	Approved   bool // the user approved the tool at some time
}

// PinState reads the state of one tool's pin; a tool with no pin has
// Found false.
func (s *Store) PinState(ctx context.Context, server, tool string) (PinState, error) {
	if err := s.await(ctx); err != nil {
		return PinState{}, err
	}
	rows, err := s.stmts.query(ctx, "SELECT hash, listed_hash, held, reason, approved_at IS NOT NULL FROM pins WHERE server = ? AND tool = ?", server, tool)
	if err != nil {
		return PinState{}, s.wrap(fmt.Sprintf("reading the pin of %s/%s", server, tool), err)
	}
	defer rows.Close()
	var p PinState
	if rows.Next() {
		p.Found = true
		if err := rows.Scan(&p.Hash, &p.ListedHash, &p.Held, &p.Reason, &p.Approved); err != nil {
			return PinState{}, s.wrap(fmt.Sprintf("reading the pin of %s/%s", server, tool), err)
		}
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return PinState{}, s.wrap(fmt.Sprintf("reading the pin of %s/%s", server, tool), err)
	}
	return p, nil
}

// FirstPinned says whether any tool of server has a pin, and when the
// first was written (zero for pins older than [Pin].PinnedAt). A tool
// whose pin is later than that came after the server's first listing.
func (s *Store) FirstPinned(ctx context.Context, server string) (first time.Time, pinned bool, err error) {
	if err := s.await(ctx); err != nil {
		return time.Time{}, false, err
	}
	var n, millis int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*), coalesce(min(pinned_at), 0) FROM pins WHERE server = ?", server).Scan(&n, &millis); err != nil {
		return time.Time{}, false, s.wrap(fmt.Sprintf("reading the pins of %s", server), err)
	}
	if millis != 0 {
		first = time.UnixMilli(millis)
	}
	return first, n > 0, nil
}
