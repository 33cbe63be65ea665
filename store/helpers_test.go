package store

import (
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"testing"
)

// openTemp opens a new catalog in a fresh temporary directory.
func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.db")
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// tool builds a searchable tool whose Doc reads like a real one.
func tool(name, desc string, params ...string) Tool {
	return Tool{
		Name:   name,
		Hash:   "h-" + name,
		Record: []byte(fmt.Sprintf(`{"name":%q}`, name)),
		Card:   []byte(fmt.Sprintf(`{"name":%q,"summary":%q}`, name, desc)),
		Doc:    Doc{Name: name, Desc: desc, Params: fmt.Sprint(params)},
	}
}

func refused(name, reason string) Tool {
	return Tool{Name: name, Refusal: reason, Doc: Doc{Name: name, Desc: "refused " + name}}
}

func mustReplace(t testing.TB, s *Store, server string, tools ...Tool) {
	t.Helper()
	if err := s.ReplaceCatalog(context.Background(), Server{Name: server, Fingerprint: "fp-" + server}, toolSeq(tools...)); err != nil {
		t.Fatalf("ReplaceCatalog(%s): %v", server, err)
	}
}

// count runs a count(*) query.
func count(t testing.TB, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func ids(hits []Hit) []int64 {
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func names(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// queryPlan returns the detail lines of EXPLAIN QUERY PLAN for q.
func queryPlan(t *testing.T, s *Store, q string, args ...any) []string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// toolSeq is tools as ReplaceCatalog reads them.
func toolSeq(tools ...Tool) iter.Seq2[Tool, error] {
	return func(yield func(Tool, error) bool) {
		for _, t := range tools {
			if !yield(t, nil) {
				return
			}
		}
	}
}
