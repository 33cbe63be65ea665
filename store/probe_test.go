package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// sqliteHeader builds a 100-byte SQLite header with these fields, followed
// by pad zero bytes.
func sqliteHeader(wal bool, version int32, appID uint32, pad int) []byte {
	b := make([]byte, headerSize+pad)
	copy(b, sqliteMagic)
	binary.BigEndian.PutUint16(b[16:], 4096)
	b[18], b[19] = 1, 1
	if wal {
		b[18], b[19] = 2, 2
	}
	binary.BigEndian.PutUint32(b[60:], uint32(version))
	binary.BigEndian.PutUint32(b[68:], appID)
	return b
}

func TestProbeReadsHeader(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
		want    error
		version int
	}{
		{"capbridge current", sqliteHeader(false, int32(schemaVersion), applicationID, 4096), nil, schemaVersion},
		{"capbridge newer", sqliteHeader(true, int32(schemaVersion+1), applicationID, 4096), ErrNewerSchema, 0},
		{"capbridge older", sqliteHeader(true, 0, applicationID, 4096), nil, 0},
		{"foreign id", sqliteHeader(true, 1, 0x12345678, 4096), ErrNotCatalog, 0},
		{"no id, one zeroed page", sqliteHeader(false, 0, 0, 4096-headerSize), ErrNotCatalog, 0}, // SQLite is asked: page 1 is no b-tree
		{"no id, tables", sqliteHeader(false, 0, 0, 3*4096), ErrNotCatalog, 0},
		{"truncated header", sqliteHeader(false, 0, 0, 0)[:50], ErrNotCatalog, 0},
		{"no magic", bytes.Repeat([]byte("x"), 200), ErrNotCatalog, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog.db")
			if err := os.WriteFile(path, tt.content, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := probe(context.Background(), path, DefaultBusyTimeout)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("probe err = %v, want %v", err, tt.want)
			}
			if got.version != tt.version {
				t.Errorf("version %d, want %d", got.version, tt.version)
			}
		})
	}
}

// FuzzOpen: Open must never panic on whatever file it is pointed at, and
// a file it refuses stays as it was.
func FuzzOpen(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("not a database at all"))
	f.Add(sqliteHeader(false, 0, 0x12345678, 0))
	f.Add(sqliteHeader(true, 1000, applicationID, 100))
	f.Fuzz(func(t *testing.T, content []byte) {
		path := filepath.Join(t.TempDir(), "catalog.db")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(context.Background(), path, nil)
		if err == nil {
			s.Close()
			return
		}
		if errors.Is(err, ErrNotCatalog) || errors.Is(err, ErrNewerSchema) {
			after, rerr := os.ReadFile(path)
			if rerr != nil || !bytes.Equal(after, content) {
				t.Fatalf("refused file changed (%v)", rerr)
			}
		}
	})
}

// TestProbeLiveWAL: while another connection has a WAL database open, its
// newest state may be in the -wal file only; probe must ask SQLite.
func TestProbeLiveWAL(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		set  string
		want error
	}{
		{"newer capbridge", "PRAGMA user_version = 99", ErrNewerSchema},
		{"taken over by another app", "PRAGMA application_id = 7", ErrNotCatalog},
		{"current", "SELECT 1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, path := openTemp(t)
			if _, err := s.db.Exec(tt.set); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path + "-wal"); err != nil {
				t.Fatalf("no live WAL to probe: %v", err)
			}
			got, err := probe(ctx, path, DefaultBusyTimeout)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("probe = %+v, %v; want %v", got, err, tt.want)
			}
			if tt.want == nil && got.version != schemaVersion {
				t.Errorf("version %d, want %d", got.version, schemaVersion)
			}
		})
	}
}

// TestOpenWaitsForACatalogInCreation: a file another process is creating
// this moment (part of SQLite's header, just written) is read again until
// it becomes one; the same bytes written a minute ago are refused.
func TestOpenWaitsForACatalogInCreation(t *testing.T) {
	ctx := context.Background()
	partial := []byte(sqliteMagic[:10])

	t.Run("in creation", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "catalog.db")
		if err := os.WriteFile(path, partial, 0o600); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			time.Sleep(100 * time.Millisecond)
			done <- os.Truncate(path, 0) // the other process's file, empty again: a new catalog
		}()
		s, err := Open(ctx, path, nil)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if err != nil {
			t.Fatalf("Open of a catalog in creation: %v", err)
		}
		s.Close()
	})

	t.Run("written earlier", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "catalog.db")
		if err := os.WriteFile(path, partial, 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, path, nil); !errors.Is(err, ErrNotCatalog) {
			t.Fatalf("Open = %v, want ErrNotCatalog", err)
		}
	})
}
