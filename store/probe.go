package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
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

// header is the part of a SQLite file header probe reads: see
// https://sqlite.org/fileformat.html#the_database_header.
type header struct {
	wal       bool   // file format version 2: WAL mode
	pages     int64  // pages in the file, from its size
	version   int    // user_version
	appID     uint32 // application_id
	magicSeen bool
}

const headerSize = 100

func parseHeader(b []byte, size int64) header {
	h := header{magicSeen: bytes.Equal(b[:len(sqliteMagic)], sqliteMagic)}
	pageSize := int64(binary.BigEndian.Uint16(b[16:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize > 0 {
		h.pages = size / pageSize
	}
	h.wal = b[18] == 2
	h.version = int(int32(binary.BigEndian.Uint32(b[60:])))
	h.appID = binary.BigEndian.Uint32(b[68:])
	return h
}

// probe is probeOnce, read again while the file looks like a catalog another
// process is creating this moment: shorter than SQLite's header, or without
// its magic, and written in the last creationWindow. Two capbridge processes
// started together on a fresh machine (two clients launching serve) would
// otherwise have the second refuse the first's half-written file as not
// SQLite. A file that stays so, or was written earlier, is refused at once.
func probe(ctx context.Context, path string, busy time.Duration) (found, error) {
	deadline := time.Now().Add(creationWait)
	for {
		f, err := probeOnce(ctx, path, busy)
		if !errors.Is(err, errNotSQLite) || time.Now().After(deadline) || !written(path, creationWindow) {
			return f, err
		}
		select {
		case <-ctx.Done():
			return f, err
		case <-time.After(creationPoll):
		}
	}
}

// How probe waits for a catalog another process is creating.
const (
	creationWindow = 5 * time.Second       // a file written this recently may be in creation
	creationWait   = time.Second           // the longest wait for it to become SQLite
	creationPoll   = 20 * time.Millisecond // between reads
)

// written reports whether the file at path was modified within d.
func written(path string, d time.Duration) bool {
	st, err := os.Stat(path)
	return err == nil && time.Since(st.ModTime()) < d
}

// probeOnce inspects the file at path without writing to it or creating files
// beside it. A missing or empty file is a new catalog. Anything else must be
// a SQLite database that is either empty or carries capbridge's
// application_id, at a schema version this build knows.
//
// The header decides, except for a WAL database whose -wal file exists: its
// newest pages (a new catalog's first transaction, say) may be in the WAL
// only, so SQLite is asked, read-only.
func probeOnce(ctx context.Context, path string, busy time.Duration) (found, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return found{}, nil
	}
	if err != nil {
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	b := make([]byte, headerSize)
	n, err := io.ReadFull(f, b)
	var size int64
	if st, serr := f.Stat(); serr == nil {
		size = st.Size()
	}
	f.Close()
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return found{}, nil // an empty file becomes a new catalog
	case errors.Is(err, io.ErrUnexpectedEOF):
		return found{}, notSQLite(path)
	case err != nil:
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	h := parseHeader(b, size)
	if !h.magicSeen {
		return found{}, notSQLite(path)
	}
	if h.appID != 0 && h.appID != applicationID {
		return check(path, int(h.appID), h.version, 1)
	}
	// The header decides unless the newest pages may be in the WAL only, or
	// the file is one page without an application id: page 1 may hold an
	// empty schema or schema entries (a view's, say), and only SQLite can
	// tell, so that Open never converts a file to WAL and then refuses it.
	if _, err := os.Stat(path + "-wal"); (!h.wal || err != nil) && (h.pages > 1 || h.appID != 0) {
		objects := 0
		if h.pages > 1 {
			objects = 1 // more pages than page 1 hold something
		}
		return check(path, int(h.appID), h.version, objects)
	}
	return probeLive(ctx, path, busy)
}

// probeLive asks SQLite, through a read-only connection, what a WAL
// database holds.
func probeLive(ctx context.Context, path string, busy time.Duration) (found, error) {
	db, err := sql.Open("sqlite", dsn(path, busy, true, pageMemory{}))
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
		return found{}, notSQLite(path)
	case isBusy(err):
		return found{}, fmt.Errorf("opening catalog %s: %w: another capbridge is writing it; try again (%w)",
			path, ErrLocked, err)
	case err != nil:
		return found{}, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	return check(path, appID, version, objects)
}

// errNotSQLite marks a file refused for not being SQLite at all.
var errNotSQLite = errors.New("it is not an SQLite database")

func notSQLite(path string) error {
	return fmt.Errorf("opening catalog %s: %w: %w; point --db or CAPBRIDGE_DB at another file",
		path, ErrNotCatalog, errNotSQLite)
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
