package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrCorrupt means SQLite found a capbridge catalog damaged: truncated,
// overwritten in part, or failing its integrity check.
var ErrCorrupt = errors.New("store: catalog is corrupt")

// check runs SQLite's quick_check over the whole catalog. A damaged file is
// an error wrapping [ErrCorrupt] that quotes SQLite's first findings.
//
// The check reads every page of the file. Through the connection's memory
// map they would all stay resident in this process, counted in its RSS for
// as long as the connection lives (75 MB of a 75 MB catalog of 5,000
// tools, half of serve's memory); so the connection it runs on reads the
// file through its page cache instead, bounded by checkCacheKiB, and gets
// its map and cache size back after, which frees those pages. It takes
// about twice as long (0.14 -> 0.3 s on that catalog), once per serve.
func (s *Store) check(ctx context.Context) error {
	c, err := s.db.Conn(ctx)
	if err != nil {
		return s.checkFailed(err)
	}
	defer c.Close()
	if err := setPageMemory(ctx, c, 0, checkCacheKiB); err != nil {
		return s.checkFailed(err)
	}
	defer func() {
		if err := setPageMemory(context.WithoutCancel(ctx), c, s.pages.mmap, s.pages.cacheKiB); err != nil {
			// It still reads right, only slower: kept, since a connection
			// opened in its place could open another file (see openPool).
			s.logger.Warn("catalog connection left without its memory map after the check", "err", err)
		}
	}()
	rows, err := c.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return s.checkFailed(err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return s.checkFailed(err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return s.checkFailed(err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("checking catalog %s: %w: %s", s.path, ErrCorrupt, strings.Join(problems, "; "))
	}
	return nil
}

// checkCacheKiB bounds the page cache of the connection running check.
const checkCacheKiB = 2 << 10

// setPageMemory sets the memory map and page cache size of one connection:
// a smaller map is unmapped at once, a smaller cache frees its pages.
func setPageMemory(ctx context.Context, c *sql.Conn, mmap, cacheKiB int) error {
	if _, err := c.ExecContext(ctx, "PRAGMA mmap_size = "+strconv.Itoa(mmap)); err != nil {
		return err
	}
	_, err := c.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(cacheKiB))
	return err
}

func (s *Store) checkFailed(err error) error {
	if isCorrupt(err) {
		return fmt.Errorf("checking catalog %s: %w: %w", s.path, ErrCorrupt, err)
	}
	return s.wrap("checking catalog "+s.path, err)
}

// isIOError reports whether err is one of SQLite's SQLITE_IOERR codes.
func isIOError(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_IOERR
}

// isCorrupt reports whether err is SQLite's SQLITE_CORRUPT or SQLITE_NOTADB.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// OpenChecked opens the catalog at path like [Open] and runs SQLite's
// quick_check over it. A file that carries capbridge's application id and
// that SQLite cannot read, or that fails the check, is moved aside, with its -wal
// and -shm files, to path.corrupt-TIME, and a new empty catalog is created
// in its place: moved names where the damaged file went ("" when nothing
// was moved), and the caller rebuilds the catalog from its servers.
//
// Nothing else is ever moved: a file that is not a capbridge catalog (or
// whose header is too damaged to say) fails with [ErrNotCatalog], one of a
// newer capbridge with [ErrNewerSchema], a locked one with [ErrLocked], as
// Open fails.
//
// Two processes may find the same damaged file at once: one moves it aside
// and creates the new catalog while the other's attempt fails on the file
// changing under it, or on the new catalog's files while they are made
// (an I/O error: its -wal or -shm file went away under it), or on
// connections that found the new catalog not yet made (errUnsettled).
// Such an attempt is retried, for up to about a second.
func OpenChecked(ctx context.Context, path string, opts *Options) (*Store, string, error) {
	for wait := 50 * time.Millisecond; ; wait *= 2 {
		before, _ := os.Stat(path)
		st, moved, err := openChecked(ctx, path, opts)
		after, _ := os.Stat(path)
		if err == nil || wait > 500*time.Millisecond || (sameFile(before, after) && !isIOError(err) && !errors.Is(err, errUnsettled)) {
			return st, moved, err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, "", fmt.Errorf("opening catalog %s: %w", path, ctx.Err())
		}
	}
}

// sameFile reports whether two stats of one path found the same file (or
// both found none).
func sameFile(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b)
}

// openChecked is one attempt of OpenChecked.
func openChecked(ctx context.Context, path string, opts *Options) (st *Store, moved string, err error) {
	checked, _ := os.Stat(path) // nil when there is no file yet
	st, err = Open(ctx, path, opts)
	if err == nil {
		err = st.check(ctx)
		if err == nil {
			return st, "", nil
		}
		st.Close()
	}
	if !errors.Is(err, ErrCorrupt) && !isCorrupt(err) && !errors.Is(err, ErrNotCatalog) {
		return nil, "", err
	}
	return recoverDamaged(ctx, path, checked, err, opts)
}

// recoverDamaged moves aside the damaged catalog at path, which failed
// with err when it was the file checked, and creates a new one in its
// place; see OpenChecked. A file that is not capbridge's is left alone and
// err returned.
func recoverDamaged(ctx context.Context, path string, checked os.FileInfo, err error, opts *Options) (*Store, string, error) {
	if !ownCatalog(path) {
		return nil, "", err
	}
	unlock, lerr := lockRecovery(path)
	if lerr != nil {
		return nil, "", fmt.Errorf("%w (and %w)", err, lerr)
	}
	defer unlock()
	if now, _ := os.Stat(path); !sameFile(checked, now) {
		// Another capbridge moved the damaged file aside and made a new
		// catalog meanwhile: use that one rather than move it too, once
		// its maker has finished creating it.
		st, err := openSettled(ctx, path, opts)
		return st, "", err
	}
	moved, merr := moveAside(path, time.Now())
	if merr != nil {
		return nil, "", fmt.Errorf("moving the damaged catalog aside (%w): %w", err, merr)
	}
	st, err := Open(ctx, path, opts)
	if err != nil {
		return nil, moved, fmt.Errorf("creating a new catalog after moving the damaged one to %s: %w", moved, err)
	}
	return st, moved, nil
}

// openSettled opens a catalog another process is creating: for a moment
// SQLite may find it half made, so a corrupt or busy answer is retried for
// up to a second.
func openSettled(ctx context.Context, path string, opts *Options) (*Store, error) {
	for wait := 20 * time.Millisecond; ; wait *= 2 {
		st, err := Open(ctx, path, opts)
		if err == nil || wait > 500*time.Millisecond || !(isCorrupt(err) || errors.Is(err, ErrNotCatalog) || errors.Is(err, ErrLocked) || errors.Is(err, errUnsettled)) {
			return st, err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, fmt.Errorf("opening catalog %s: %w", path, ctx.Err())
		}
	}
}

// ownCatalog reports whether the file at path starts with a SQLite header
// that carries capbridge's application id.
func ownCatalog(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, headerSize)
	if _, err := io.ReadFull(f, b); err != nil {
		return false
	}
	return string(b[:len(sqliteMagic)]) == string(sqliteMagic) && binary.BigEndian.Uint32(b[68:]) == applicationID
}

// moveAside renames path, and its -wal and -shm files when present, to
// path.corrupt-TIME (UTC, to the second; a counter keeps names apart) and
// returns the new name of the main file.
func moveAside(path string, now time.Time) (string, error) {
	base := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	dest := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(dest); errors.Is(err, os.ErrNotExist) {
			break
		}
		dest = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(path, dest); err != nil {
		return "", fmt.Errorf("moving %s aside: %w", path, err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, dest+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return dest, fmt.Errorf("moving %s aside: %w", path+suffix, err)
		}
	}
	return dest, nil
}
