package store

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// OpenChecking opens the catalog at path as [OpenChecked] does, but
// returns as soon as the file is open and runs the check in the
// background: a server can answer what needs no catalog (initialize,
// tools/list) while SQLite reads every page, which takes 0.1 to 0.3 s on
// catalogs of 2,400 to 5,000 tools.
//
// Every method that reads or writes the catalog waits for the check first,
// so nothing is ever read from a file that fails it. A damaged catalog is
// moved aside and replaced by a new empty one, as OpenChecked does, before
// those methods go on: they then find the new catalog. [Store.Checked]
// waits for the check and reports where the damaged file went.
//
// A file that Open itself finds damaged, or refuses, is dealt with at once,
// as OpenChecked does, and so is any failure while the file at path was
// replaced or an I/O error: another process moving the damaged file aside,
// or making the new one, causes those.
func OpenChecking(ctx context.Context, path string, opts *Options) (*Store, error) {
	before, _ := os.Stat(path) // nil when there is no file yet
	st, err := Open(ctx, path, opts)
	if err != nil {
		after, _ := os.Stat(path)
		if !isCorrupt(err) && !errors.Is(err, ErrNotCatalog) && !isIOError(err) && sameFile(before, after) {
			return nil, err
		}
		st, moved, err := OpenChecked(ctx, path, opts)
		if err != nil {
			return nil, err
		}
		st.gate = &gate{done: make(chan struct{}), cancel: func() {}, moved: moved}
		close(st.gate.done)
		return st, nil
	}
	// The check outlives ctx, which may be a request's: Close stops it.
	checkCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	g := &gate{done: make(chan struct{}), cancel: cancel}
	st.gate = g
	go func() {
		defer close(g.done)
		g.moved, g.err = st.checkInPlace(checkCtx, path, before, opts)
	}()
	return st, nil
}

// gate holds back the catalog's users while [OpenChecking]'s check runs.
type gate struct {
	done   chan struct{}      // closed when the check and any recovery are over
	cancel context.CancelFunc // stops the check (Close)

	// Written by the checking goroutine before done is closed; read only
	// after.
	moved string // where the damaged catalog went; "" when healthy
	err   error  // why the catalog cannot be used
}

// await waits for a check in progress. It returns the error that makes the
// catalog unusable, if the check or the recovery after it failed.
func (s *Store) await(ctx context.Context) error {
	g := s.gate
	if g == nil {
		return nil
	}
	select {
	case <-g.done:
		return g.err
	default:
	}
	select {
	case <-g.done:
		return g.err
	case <-ctx.Done():
		return fmt.Errorf("waiting for the check of catalog %s: %w", s.path, ctx.Err())
	}
}

// Checked waits for the check [OpenChecking] started and reports where the
// damaged catalog was moved ("" when it was healthy), or why the catalog
// cannot be used. On a store from [Open] it returns at once.
func (s *Store) Checked(ctx context.Context) (moved string, err error) {
	if err := s.await(ctx); err != nil {
		return "", err
	}
	if s.gate == nil {
		return "", nil
	}
	return s.gate.moved, nil
}

// checkInPlace checks the open catalog and, when it is damaged, moves it
// aside and opens a new one in its place, taking over the new store's
// connections. before is what was at path when s was opened. It runs while
// every user of s waits on s.gate, so the fields it replaces are read by no
// one meanwhile.
func (s *Store) checkInPlace(ctx context.Context, path string, before os.FileInfo, opts *Options) (string, error) {
	err := s.check(ctx)
	if err == nil || !errors.Is(err, ErrCorrupt) {
		return "", err
	}
	s.stmts.close()
	s.db.Close()
	fresh, moved, rerr := recoverDamaged(ctx, path, before, err, opts)
	if rerr != nil {
		return moved, rerr
	}
	s.db, s.stmts = fresh.db, fresh.stmts
	return moved, nil
}
