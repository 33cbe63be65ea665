package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filledCatalog writes a closed catalog with enough tools to span many
// pages and returns its path and size.
func filledCatalog(t *testing.T) (string, int64) {
	t.Helper()
	s, path := openTemp(t)
	var tools []Tool
	for i := range 200 {
		tools = append(tools, tool(fmt.Sprintf("tool_%03d", i), strings.Repeat("describes a tool at length ", 20)))
	}
	mustReplace(t, s, "srv", tools...)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, st.Size()
}

// catalogDamages are the ways a catalog file is found damaged, each with
// what opening it must do: moved aside and replaced, or refused untouched.
// TestOpenChecked and TestOpenChecking read the same cases.
var catalogDamages = []struct {
	name    string
	damage  func(t *testing.T, path string, size int64)
	moved   bool  // the file is moved aside and a new catalog made
	wantErr error // else the error Open gives, the file untouched
}{
	{name: "healthy", damage: func(*testing.T, string, int64) {}},
	{name: "truncated to half", moved: true, damage: func(t *testing.T, path string, size int64) {
		if err := os.Truncate(path, size/2); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "pages overwritten", moved: true, damage: func(t *testing.T, path string, size int64) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for off := int64(4096); off < size; off += 3 * 4096 {
			f.WriteAt(bytes.Repeat([]byte{0xA5}, 4096), off)
		}
	}},
	{name: "header overwritten", wantErr: ErrNotCatalog, damage: func(t *testing.T, path string, _ int64) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteAt([]byte("not a header at all, someone wrote here"), 0)
	}},
	{name: "another application's database", wantErr: ErrNotCatalog, damage: func(t *testing.T, path string, _ int64) {
		os.Remove(path)
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec("PRAGMA application_id = 7; CREATE TABLE notes (body TEXT)"); err != nil {
			t.Fatal(err)
		}
	}},
}

func TestOpenChecked(t *testing.T) {
	for _, tt := range catalogDamages {
		t.Run(tt.name, func(t *testing.T) {
			path, size := filledCatalog(t)
			tt.damage(t, path, size)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			st, moved, err := OpenChecked(context.Background(), path, nil)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || moved != "" {
					t.Fatalf("OpenChecked = %q, %v; want %v and nothing moved", moved, err, tt.wantErr)
				}
				after, rerr := os.ReadFile(path)
				if rerr != nil || !bytes.Equal(before, after) {
					t.Fatalf("the refused file changed (%v)", rerr)
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenChecked: %v", err)
			}
			defer st.Close()
			if (moved != "") != tt.moved {
				t.Fatalf("moved = %q, want moved %v", moved, tt.moved)
			}
			servers, err := st.Servers(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{false: 1, true: 0}[tt.moved]; len(servers) != want {
				t.Fatalf("%d servers in the catalog, want %d", len(servers), want)
			}
			if tt.moved {
				kept, err := os.ReadFile(moved)
				if err != nil || !bytes.Equal(kept, before) {
					t.Fatalf("the damaged file was not kept as it was at %s (%v)", moved, err)
				}
				if err := st.check(context.Background()); err != nil {
					t.Fatalf("the new catalog: %v", err)
				}
			}
		})
	}
}

// TestPoolFindsUnmadeCatalog holds openPool's last check: connections that
// open a file without this build's schema (another process put a new
// catalog in place of a damaged one, and has not made it yet) fail the
// open with errUnsettled, which OpenChecked retries, instead of serving
// from a file whose tables do not exist.
func TestPoolFindsUnmadeCatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.db")
	db, err := sql.Open("sqlite", dsn(path, DefaultBusyTimeout, false, pageMemory{}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA journal_mode = WAL"); err != nil {
		t.Fatal(err)
	}
	s := &Store{path: path, db: db}
	if err := s.openPool(context.Background()); !errors.Is(err, errUnsettled) {
		t.Fatalf("openPool on a catalog not yet made: %v, want errUnsettled", err)
	}
}
