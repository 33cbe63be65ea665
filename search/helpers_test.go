package search

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// benchDir is a retrieval set of the bench data the repository carries.
func benchDir(set string) string {
	return filepath.Join("..", "testdata", "bench", set)
}

// openStore opens a fresh store in a temp dir.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "catalog.db"), nil)
	if err != nil {
		t.Fatalf("opening store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// loadSet ingests a bench set's catalog and reads its queries.
func loadSet(t testing.TB, st *store.Store, set string) (int, []EvalQuery) {
	t.Helper()
	ctx := context.Background()
	f, err := OpenFile(filepath.Join(benchDir(set), "catalog.jsonl.gz"))
	if err != nil {
		t.Fatalf("bench set missing: %v", err)
	}
	defer f.Close()
	n, err := LoadCatalog(ctx, st, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	qf, err := OpenFile(filepath.Join(benchDir(set), "queries.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer qf.Close()
	qs, err := ReadQueries(qf)
	if err != nil {
		t.Fatal(err)
	}
	return n, qs
}
