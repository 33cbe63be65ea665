package search

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// everydayDir holds the everyday requests (testdata/everyday: tuned.jsonl
// may be tuned on, frozen.jsonl never is).
var everydayDir = filepath.Join("..", "testdata", "everyday")

// everydaySearcher is a Searcher over the catalog the everyday requests
// are asked of: the laptop catalog and sequential-thinking.
func everydaySearcher(t *testing.T) *Searcher {
	t.Helper()
	st := openStore(t)
	for _, path := range []string{laptopCatalog, filepath.Join("..", "testdata", "catalogs", "sequential-thinking.jsonl")} {
		f, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := LoadCatalog(context.Background(), st, f, nil); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return New(st, nil)
}

// everydayQueries reads one part of the everyday requests.
func everydayQueries(t *testing.T, part string) []EvalQuery {
	t.Helper()
	f, err := OpenFile(filepath.Join(everydayDir, part+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := ReadQueries(f)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestFirstHour holds issue 35's first-hour table, the first six lines of
// the tuned everyday requests, over the real laptop catalog: each row's
// right tool first, or no close match for the request no tool serves,
// with its confidence logged. Two rows are known misses, each with what
// it lacks; the test fails when one of them passes, so that it is held
// from then on.
func TestFirstHour(t *testing.T) {
	s := everydaySearcher(t)
	known := map[string]string{
		"link Alice to Acme": "the names' \"link\" (get-resource-links, hubspot-get-link) outweighs the memory server's relations: no word of the request says relation",
		"delete a file":      "no local file tool deletes; the shell (start_process) does, and its description says no file deletion",
	}
	for _, q := range everydayQueries(t, "tuned")[:6] {
		rs, err := s.Search(context.Background(), q.Query, Query{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		var first Result
		if len(rs) > 0 {
			first = rs[0]
		}
		right := slices.Contains(q.Relevant, ToolKey{Server: first.Server, Name: first.Name})
		if len(q.Relevant) == 0 {
			right = !slices.ContainsFunc(rs, func(r Result) bool { return r.Confidence >= ConfidentAt })
		}
		t.Logf("%q: first %s/%s at %.2f (right: %v)", q.Query, first.Server, first.Name, first.Confidence, right)
		switch why, miss := known[q.Query]; {
		case miss && right:
			t.Errorf("%q now answers right: drop it from the known misses (%s)", q.Query, why)
		case !miss && !right:
			t.Errorf("%q: first card %s/%s at %.2f, want one of %v (or no close match when none)", q.Query, first.Server, first.Name, first.Confidence, q.Relevant)
		}
	}
}

// TestEverydayTargets holds the everyday requests, tuned and frozen, to
// the share answered right by the first card and among five that they
// reach today (issue 35's target is .85 and .95 on both; see README).
func TestEverydayTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("108 searches over the laptop catalog")
	}
	s := everydaySearcher(t)
	for _, tt := range []struct {
		part        string
		first, five float64
	}{
		{"tuned", 0.74, 0.83},
		{"frozen", 0.67, 0.80},
	} {
		qs := everydayQueries(t, tt.part)
		m, err := Evaluate(context.Background(), s, qs, Query{Limit: 5}, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: right first %.3f, among five %.3f (%d requests, %d absent)", tt.part, m.RightFirst, m.RightFive, m.Queries, m.Absent)
		if m.RightFirst < tt.first || m.RightFive < tt.five {
			t.Errorf("%s: right first %.3f (want >= %.2f), among five %.3f (want >= %.2f)", tt.part, m.RightFirst, tt.first, m.RightFive, tt.five)
		}
	}
}
