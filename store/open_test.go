package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// fileSum hashes a file and lists its directory, so a test can tell the
// file (and its neighbours) were left exactly as they were.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b = append(b, e.Name()...)
	}
	return sha256.Sum256(b)
}

// writeForeignSQLite creates a SQLite database at path with raw SQL, the
// way another application would, and closes it.
func writeForeignSQLite(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestOpenRefusesForeignFilesUntouched(t *testing.T) {
	random := make([]byte, 8192)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	tests := []struct {
		name  string
		write func(t *testing.T, path string)
		want  error
	}{
		{"random bytes", func(t *testing.T, path string) { os.WriteFile(path, random, 0o644) }, ErrNotCatalog},
		{"short text", func(t *testing.T, path string) { os.WriteFile(path, []byte("hello\n"), 0o644) }, ErrNotCatalog},
		{"sqlite magic then garbage", func(t *testing.T, path string) {
			os.WriteFile(path, append([]byte("SQLite format 3\x00"), random...), 0o644)
		}, ErrNotCatalog},
		{"capbridge id on garbage pages", func(t *testing.T, path string) {
			os.WriteFile(path, append(sqliteHeader(false, 1, applicationID, 300), random...), 0o644)
		}, ErrNotCatalog},
		{"another app's database", func(t *testing.T, path string) {
			writeForeignSQLite(t, path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
				"INSERT INTO notes (body) VALUES ('keep me')")
		}, ErrNotCatalog},
		{"another app's id on an empty database", func(t *testing.T, path string) {
			writeForeignSQLite(t, path, "PRAGMA application_id = 1234")
		}, ErrNotCatalog},
		{"another app in WAL mode", func(t *testing.T, path string) {
			writeForeignSQLite(t, path, "PRAGMA journal_mode = WAL", "CREATE TABLE t (x)", "PRAGMA application_id = 99")
		}, ErrNotCatalog},
		{"newer capbridge", func(t *testing.T, path string) {
			s, err := Open(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			mustReplace(t, s, "mail", tool("send_message", "Send an email"))
			s.Close()
			writeForeignSQLite(t, path, "PRAGMA user_version = 99")
		}, ErrNewerSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog.db")
			tt.write(t, path)
			before := fileSum(t, path)
			s, err := Open(context.Background(), path, nil)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open err = %v, want %v", err, tt.want)
			}
			if !bytes.Contains([]byte(err.Error()), []byte(path)) {
				t.Errorf("error %q does not name the file", err)
			}
			if after := fileSum(t, path); after != before {
				t.Errorf("file or its directory changed")
			}
		})
	}
}

func TestOpenAcceptsNewFiles(t *testing.T) {
	tests := []struct {
		name  string
		write func(t *testing.T, path string)
	}{
		{"missing file in a missing directory", func(t *testing.T, path string) {}},
		{"empty file", func(t *testing.T, path string) { os.WriteFile(path, nil, 0o644) }},
		{"empty sqlite database", func(t *testing.T, path string) {
			writeForeignSQLite(t, path, "PRAGMA user_version = 0", "VACUUM")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.name == "missing file in a missing directory" {
				dir = filepath.Join(dir, "a", "b")
			} else {
				tt.write(t, filepath.Join(dir, "catalog.db"))
			}
			path := filepath.Join(dir, "catalog.db")
			s, err := Open(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			mustReplace(t, s, "mail", tool("send_message", "Send an email"))
			var appID, version int
			s.db.QueryRow("PRAGMA application_id").Scan(&appID)
			s.db.QueryRow("PRAGMA user_version").Scan(&version)
			if appID != applicationID || version != schemaVersion {
				t.Errorf("application_id %#x user_version %d, want %#x %d", appID, version, applicationID, schemaVersion)
			}
		})
	}
}

func TestReopenKeepsCatalogAndSchema(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustReplace(t, s, "mail", tool("send_message", "Send an email"))
	schema := func(s *Store) string {
		var sch string
		if err := s.db.QueryRow("SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema ORDER BY name)").Scan(&sch); err != nil {
			t.Fatal(err)
		}
		return sch
	}
	first := schema(s)
	s.Close()
	for range 2 {
		s, err := Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := schema(s); got != first {
			t.Errorf("schema changed on reopen:\n%s\nwant\n%s", got, first)
		}
		if _, err := s.Tool(ctx, "mail", "send_message"); err != nil {
			t.Errorf("tool lost on reopen: %v", err)
		}
		// Running the migration again on a current file changes nothing.
		if err := s.migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if got := schema(s); got != first {
			t.Errorf("schema changed by a second migrate")
		}
		s.Close()
	}
}

// TestOpenConcurrentlyCreates opens one new file from several stores at
// once: exactly one migrates it, the others find it migrated.
func TestOpenConcurrentlyCreates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.db")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(context.Background(), path, nil)
			if err == nil {
				err = s.ReplaceCatalog(context.Background(), Server{Name: string(rune('a' + i))},
					toolSeq(tool("t", "a tool")))
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("store %d: %v", i, err)
		}
	}
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := count(t, s, "SELECT count(*) FROM tools"); n != len(errs) {
		t.Errorf("%d tools, want %d", n, len(errs))
	}
}

// TestOpenOddPath: the path travels inside a file: URI, so characters that
// mean something there must survive the trip, and the file must land
// exactly where asked.
func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my dir?x=1#frag%20", "cat&log.db")
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, "mail", tool("send_message", "Send an email"))
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the path asked: %v", err)
	}
	s, err = Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Tool(context.Background(), "mail", "send_message"); err != nil {
		t.Errorf("reopened odd path: %v", err)
	}
}
