package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// searchTestDB ingests search/testdata/catalog.jsonl into a new database.
func searchTestDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "catalog.db")
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := os.Open(filepath.Join("..", "..", "search", "testdata", "catalog.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := search.LoadCatalog(ctx, st, f, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSearchCommand(t *testing.T) {
	db := searchTestDB(t)
	noConfig := filepath.Join(t.TempDir(), "none.json")
	var out, errOut bytes.Buffer
	err := Run(context.Background(), []string{"search", "--config", noConfig, "--db", db, "--json", "--limit", "2", "files/delete_file"},
		nil, &out, &errOut)
	if err != nil {
		t.Fatalf("search: %v (stderr %s)", err, errOut.String())
	}
	var hits []searchHit
	if err := json.Unmarshal(out.Bytes(), &hits); err != nil {
		t.Fatalf("search --json printed %q: %v", out.String(), err)
	}
	if len(hits) == 0 || hits[0].Name != "delete_file" || !hits[0].Exact || len(hits) > 2 {
		t.Errorf("hits = %+v, want delete_file first, named, at most 2", hits)
	}
	out.Reset()
	if err := Run(context.Background(), []string{"search", "--config", noConfig, "--db", db, "weather forcast"}, nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("weather/get_forecast")) || !bytes.Contains(out.Bytes(), []byte("legs: ")) {
		t.Errorf("text output lacks the forecast tool or its legs:\n%s", out.String())
	}
}

func TestSearchCommandUsage(t *testing.T) {
	for _, args := range [][]string{{"search"}, {"search", "--limit", "9", "x"}, {"search", "--bogus", "x"}} {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), args, nil, &out, &errOut)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}
