// Package store keeps the capbridge catalog in one SQLite file: servers,
// exact tool records and cards, the full-text and trigram search tables kept
// in step with them, optional sqlite-vec embeddings, and call telemetry.
//
// The store knows nothing of MCP or JSON Schema rules: records and cards are
// opaque bytes to it, and search text arrives already prepared as a [Doc].
//
// [Open] returns a [Store]; [Store.ReplaceCatalog] swaps one server's tools
// and their search rows in a single transaction. Search reads the tables
// through [Store.RankWords] (BM25 over the word table, scored from its
// posting lists; [Store.MatchWords] runs FTS5's own), [Store.MatchTrigrams]
// and [Store.NearestVectors], each answering [Hit]s that name tools by id,
// and [Store.Vocabulary] and [Store.Terms] for typo correction.
//
// Several processes may open the same file: SQLite's WAL mode lets readers
// run beside one writer, and every write transaction starts with BEGIN
// IMMEDIATE so two writers queue on the busy timeout instead of deadlocking
// on a lock upgrade. A writer that waits past the timeout gets [ErrLocked].
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite"     // the pure-Go "sqlite" database/sql driver
	_ "modernc.org/sqlite/vec" // sqlite-vec's vec0 module on every connection
)

// DefaultBusyTimeout is how long a statement waits for another writer
// before failing with [ErrLocked].
const DefaultBusyTimeout = 5 * time.Second

// maxConns bounds the connection pool. WAL lets readers run in parallel with
// the one writer; search runs three legs at once and the bridge may serve a
// few discoveries together, while each idle connection costs a page cache.
const maxConns = 6

// Memory a connection may use for pages: see dsn.
const (
	mmapBytes    = 256 << 20
	cacheKiB     = 16 << 10
	leanCacheKiB = 2 << 10 // Options.Lean

	walKeepBytes = 4 << 20
)

// Options configure Open. A nil *Options means defaults.
type Options struct {
	// BusyTimeout is how long to wait for another process's write
	// transaction before giving up with ErrLocked. Default 5s.
	BusyTimeout time.Duration
	// Logger receives debug records about migrations and locks.
	// Default: discard.
	Logger *slog.Logger
	// Lean gives each connection no memory map and a small page cache
	// (leanCacheKiB) instead of the defaults (a 256 MiB map, a 16 MiB
	// cache). Pages read through a map count in the process's RSS for as
	// long as the connection lives: 26 MB after 100 discoveries over 5,000
	// tools, 28 MB in indexing them. Lean reads copy pages from the OS's
	// cache instead, which costs little for word and trigram searches and
	// about twice the CPU for nearest-vector searches.
	Lean bool
}

// pageMemory is the memory a connection may use for pages: see dsn.
type pageMemory struct {
	mmap     int // bytes
	cacheKiB int
}

// pageMemoryOf returns the page memory o asks for.
func pageMemoryOf(o Options) pageMemory {
	if o.Lean {
		return pageMemory{mmap: 0, cacheKiB: leanCacheKiB}
	}
	return pageMemory{mmap: mmapBytes, cacheKiB: cacheKiB}
}

// Store is an open catalog database. Its methods are safe for concurrent use.
type Store struct {
	path   string
	db     *sql.DB
	logger *slog.Logger

	pages pageMemory // each connection's

	// stmts holds the prepared statements searches reuse.
	stmts *stmtCache

	// keys holds the tool keys RankWords read, for one catalog version.
	keys keyCache

	// servers holds each searchable tool's server, for one catalog
	// version (see ServerWords).
	servers serverCache

	// writes holds one token while this process runs a write transaction,
	// so in-process writers queue here (honouring their contexts) rather
	// than spinning in SQLite's busy handler against each other.
	writes chan struct{}

	// gate, when not nil, holds every catalog method back until the
	// check OpenChecking started is over; db and stmts may be replaced
	// until then.
	gate *gate
}

// Open opens (creating if needed) the catalog at path and migrates it.
//
// An existing file is inspected read-only before anything is written: one
// that is not SQLite, or a SQLite database of another application, fails
// with [ErrNotCatalog]; one written by a newer capbridge fails with
// [ErrNewerSchema]. Either way the file is left as it was.
func Open(ctx context.Context, path string, opts *Options) (*Store, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = DefaultBusyTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	found, err := probe(ctx, abs, o.BusyTimeout)
	if err != nil {
		return nil, err
	}
	if err := createPrivate(abs); err != nil {
		return nil, fmt.Errorf("opening catalog %s: %w", abs, err)
	}
	pages := pageMemoryOf(o)
	db, err := sql.Open("sqlite", dsn(abs, o.BusyTimeout, false, pages))
	if err != nil {
		return nil, fmt.Errorf("opening catalog %s: %w", abs, err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	s := &Store{path: abs, db: db, logger: o.Logger, pages: pages, stmts: newStmtCache(db), writes: make(chan struct{}, 1)}
	if err := s.useWAL(ctx, o.BusyTimeout); err != nil {
		db.Close()
		return nil, err
	}
	if found.version < schemaVersion {
		if err := s.migrate(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := s.openPool(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// openPool opens every connection of the pool now, while the file is the
// one just checked; they stay open until Close. A connection opened later
// would open whatever is at the path then: after the file was deleted
// under a running serve, a new, empty database, whose missing tables failed
// searches that the open connections would have answered.
//
// Each connection must find the schema this build writes. One that does
// not opened another file than the one checked and migrated: another
// process moved a damaged catalog aside and put a new one in its place
// meanwhile, not yet made (see OpenChecked). That is errUnsettled, and the
// open is tried again.
func (s *Store) openPool(ctx context.Context) error {
	conns := make([]*sql.Conn, 0, maxConns)
	defer func() {
		for _, c := range conns {
			c.Close() // back to the pool, which keeps maxConns idle
		}
	}()
	for range maxConns {
		c, err := s.db.Conn(ctx)
		var version int
		if err == nil {
			err = c.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version)
		}
		if err != nil {
			if c != nil {
				c.Close()
			}
			return s.wrap("opening catalog "+s.path, err)
		}
		conns = append(conns, c)
		if version < schemaVersion {
			return fmt.Errorf("opening catalog %s: %w", s.path, errUnsettled)
		}
	}
	return nil
}

// errUnsettled means a connection found the catalog at the path changed
// under the open: another process is creating it.
var errUnsettled = errors.New("the catalog is being replaced by another process")

// Close closes the database.
func (s *Store) Close() error {
	if g := s.gate; g != nil {
		g.cancel()
		<-g.done
	}
	s.stmts.close()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("closing catalog %s: %w", s.path, err)
	}
	return nil
}

// Path reports the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// dsn builds the driver's connection string for path. The pragmas are run
// on every new connection; _txlock=immediate makes every read-write
// transaction BEGIN IMMEDIATE (read-only ones stay deferred). WAL mode is
// not among them: it is persistent, and switching a new file to it takes
// an exclusive lock without waiting on the busy timeout, so useWAL sets it
// once.
func dsn(path string, busy time.Duration, readOnly bool, pm pageMemory) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(busy.Milliseconds(), 10)+")")
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "synchronous(NORMAL)")
		// By default reads go through a shared memory map of up to 256
		// MiB (all connections and processes share the OS page cache);
		// each connection's own page cache, which writes use, may grow to
		// 16 MiB. Measured on 5,000 tools: KNN over 384-dimension vectors
		// 6.7 -> 3.5 ms CPU, storing their vectors 1.5 -> 0.7 s.
		q.Add("_pragma", "mmap_size("+strconv.Itoa(pm.mmap)+")")
		q.Add("_pragma", "cache_size(-"+strconv.Itoa(pm.cacheKiB)+")")
		// A 5,000-tool replace grows the WAL to ~18 MiB; once checkpointed
		// it shrinks back to this instead of keeping that size on disk.
		q.Add("_pragma", "journal_size_limit("+strconv.Itoa(walKeepBytes)+")")
		q.Set("_txlock", "immediate")
	}
	// SQLite's URIs want forward slashes and a leading one before a
	// Windows drive letter: file:/C:/Users/...
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", OmitHost: true, Path: p, RawQuery: q.Encode()}
	return u.String()
}

// useWAL puts the database in WAL mode. On a file already in WAL mode
// this only reads the header. Switching needs every other connection gone
// for an instant and SQLite does not wait for that, so it retries until
// the busy timeout.
func (s *Store) useWAL(ctx context.Context, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		var mode string
		err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
		if err == nil && strings.EqualFold(mode, "wal") {
			return nil
		}
		if isNotADB(err) {
			return notSQLite(s.path)
		}
		if err != nil && !isBusy(err) {
			return fmt.Errorf("opening catalog %s: setting WAL mode: %w", s.path, err)
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("journal mode stayed %q", mode)
			}
			return s.wrap("opening catalog: setting WAL mode", err)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("opening catalog %s: %w", s.path, ctx.Err())
		}
	}
}

// write runs fn in a write transaction (BEGIN IMMEDIATE), committing when
// it returns nil and rolling back otherwise. op names the operation in errors.
func (s *Store) write(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	select {
	case s.writes <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	defer func() { <-s.writes }()

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return s.wrap(op, err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(op, err)
	}
	return nil
}
