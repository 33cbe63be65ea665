package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenOnePageFiles: a one-page SQLite file may be empty (a new
// catalog) or hold schema entries, such as a view, on page 1 alone. The
// header cannot tell them apart; Open asks SQLite read-only, and never
// converts a file to WAL before refusing it (the FuzzOpen crasher
// testdata/fuzz/FuzzOpen/66a56ff5ffeda49b was such a file).
func TestOpenOnePageFiles(t *testing.T) {
	tests := []struct {
		name  string
		setup string // run on a new file, which is then vacuumed to one page
		want  error
	}{
		{"empty", "CREATE TABLE t (x); DROP TABLE t", nil},
		{"a view only", "CREATE VIEW v AS SELECT 1", ErrNotCatalog},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(tt.setup + "; VACUUM"); err != nil {
				t.Fatal(err)
			}
			db.Close()
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(before) != 4096 {
				t.Fatalf("setup made a %d-byte file, want one 4096-byte page", len(before))
			}
			s, err := Open(context.Background(), path, nil)
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("Open = %v, want %v", err, tt.want)
			}
			if tt.want != nil {
				if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
					t.Fatal("the refused file was changed")
				}
			}
		})
	}
}
