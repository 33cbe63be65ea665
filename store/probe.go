package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// sqliteMagic opens every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// found is what probe learned about an existing file.
type found struct {
	version int // schema version (PRAGMA user_version); 0 for a new file
}

// probe inspects the file at path without writing to it. A missing or empty
// file is a new catalog. Anything else must be a SQLite database that is
// either empty or carries capbridge's application_id, at a schema version
// this build knows.
func probe(ctx context.Context, path string, busy time.Duration) (found, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return found{}, nil
	}
	if err != nil {
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	header := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, header)
	f.Close()
	switch {
	case n == 0 && (err == io.EOF || err == nil):
		return found{}, nil // an empty file becomes a new catalog
	case errors.Is(err, io.ErrUnexpectedEOF) || (err == nil && !bytes.Equal(header, sqliteMagic)):
		return found{}, fmt.Errorf("opening catalog %s: %w: it is not an SQLite database; "+
			"point --db or CAPBRIDGE_DB at another file", path, ErrNotCatalog)
	case err != nil:
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}

	// The header's own application_id may be stale while a new catalog's
	// first transaction sits in the WAL, so ask SQLite, read-only.
	db, err := sql.Open("sqlite", dsn(path, busy, true))
	if err != nil {
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	defer db.Close()
	var appID, version, objects int
	err = db.QueryRowContext(ctx, "SELECT (SELECT application_id FROM pragma_application_id),"+
		" (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)").
		Scan(&appID, &version, &objects)
	switch {
	case isNotADB(err):
		return found{}, fmt.Errorf("opening catalog %s: %w: it is not an SQLite database; "+
			"point --db or CAPBRIDGE_DB at another file", path, ErrNotCatalog)
	case isBusy(err):
		return found{}, fmt.Errorf("opening catalog %s: %w: another capbridge is writing it; try again (%w)",
			path, ErrLocked, err)
	case err != nil:
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	return check(path, appID, version, objects)
}

// check decides whether a database with this application_id, user_version
// and number of schema objects may be opened as a catalog.
func check(path string, appID, version, objects int) (found, error) {
	switch {
	case appID == 0 && objects == 0:
		return found{}, nil // an empty SQLite database becomes a new catalog
	case appID != applicationID:
		return found{}, fmt.Errorf("opening catalog %s: %w: it is an SQLite database of another application "+
			"(application_id %#x); capbridge leaves it alone", path, ErrNotCatalog, uint32(appID))
	case version > schemaVersion:
		return found{}, fmt.Errorf("opening catalog %s: %w: schema version %d, this capbridge knows up to %d; "+
			"upgrade capbridge or use another --db", path, ErrNewerSchema, version, schemaVersion)
	}
	return found{version: version}, nil
}
