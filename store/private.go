package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Modes of a catalog this package creates: only its owner may read or
// change it. It holds every tool definition, the pins that decide which
// tools are held, and call telemetry.
const (
	FileMode fs.FileMode = 0o600
	DirMode  fs.FileMode = 0o700
)

// createPrivate makes the catalog's folder (DirMode) and an empty catalog
// file (FileMode) where they do not exist yet. SQLite gives the -wal and
// -shm files it makes beside a database the database file's mode, so
// they are private too. Existing ones keep their modes ([Store.Exposure]
// warns about them).
func createPrivate(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), DirMode); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, FileMode)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// Exposure says, one sentence each with the command that fixes it, which
// of the catalog's files other users of this machine may read or change:
// the catalog, its -wal and -shm files (any permission for group or
// others), and its folder (writable by group or others without the sticky
// bit: they could put another file in the catalog's place). None on
// Windows, whose files have no such modes.
func (s *Store) Exposure() []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	var out []string
	for _, path := range []string{s.path, s.path + "-wal", s.path + "-shm"} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("the catalog file %s is mode %04o: other users may read or change the tools it serves; chmod 600 %s",
			path, fi.Mode().Perm(), path))
	}
	dir := filepath.Dir(s.path)
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		out = append(out, fmt.Sprintf("the catalog's folder %s is mode %04o: other users may replace the catalog; chmod 700 %s",
			dir, fi.Mode().Perm(), dir))
	}
	return out
}
