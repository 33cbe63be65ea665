package store

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors callers branch on.
var (
	ErrNotFound    = errors.New("store: not found")
	ErrNotCatalog  = errors.New("store: file is not a capbridge database")
	ErrNewerSchema = errors.New("store: database was written by a newer capbridge")
	ErrLocked      = errors.New("store: database is locked by another process")
	// ErrNoVectors means EnsureVectors has not created the vector table yet.
	ErrNoVectors = errors.New("store: no vector table; call EnsureVectors first")
	// ErrDimension means a vector's length differs from the table's dimension.
	ErrDimension = errors.New("store: vector dimension mismatch")
)

// wrap names op in err and, when SQLite gave up waiting for a lock, adds
// ErrLocked with a message a person can act on.
func (s *Store) wrap(op string, err error) error {
	if isBusy(err) {
		s.logger.Warn("catalog locked", "op", op, "path", s.path, "err", err)
		return fmt.Errorf("%s: %w: another capbridge is writing %s; try again (%w)", op, ErrLocked, s.path, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// isBusy reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED,
// extended codes included.
func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// isNotADB reports whether err is SQLite's SQLITE_NOTADB.
func isNotADB(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_NOTADB
}
