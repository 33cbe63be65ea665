package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestEvalCommand(t *testing.T) {
	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	lines := `{"query":"delete a file from disk","relevant":[{"server":"files","name":"delete_file"}]}
{"query":"weather forecast for Paris","relevant":[{"server":"weather","name":"get_forecast"}]}
{"query":"open a support ticket","relevant":[{"server":"helpdesk","name":"create_ticket"}]}
`
	if err := os.WriteFile(queries, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := Run(context.Background(), []string{"eval", "--catalog", filepath.Join("..", "..", "search", "testdata", "catalog.jsonl"),
		"--queries", queries, "--json"}, nil, &out, &errOut)
	if err != nil {
		t.Fatalf("eval: %v (stderr %s)", err, errOut.String())
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("eval --json printed %q: %v", out.String(), err)
	}
	for _, k := range []string{"recall@1", "recall@3", "recall@5", "hit@5", "mrr", "p50_ms", "p95_ms", "queries", "tools", "legs"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("eval --json lacks %q: %s", k, out.String())
		}
	}
	var legs map[string]map[string]float64
	json.Unmarshal(rep["legs"], &legs)
	if _, ok := legs["words"]["mrr"]; !ok || legs["trigrams"] == nil {
		t.Errorf("legs = %v, want words and trigrams with the same keys", legs)
	}
	var n struct {
		Queries int     `json:"queries"`
		Tools   int     `json:"tools"`
		MRR     float64 `json:"mrr"`
	}
	json.Unmarshal(out.Bytes(), &n)
	if n.Queries != 3 || n.Tools != 11 || n.MRR <= 0 {
		t.Errorf("queries %d, tools %d, MRR %v; want 3, 11 (one of 12 refused), > 0", n.Queries, n.Tools, n.MRR)
	}
}

// TestEvalNames: --names makes one query per searchable tool of the
// catalog, each naming it, and --half takes half of them.
func TestEvalNames(t *testing.T) {
	catalog := filepath.Join("..", "..", "search", "testdata", "catalog.jsonl")
	for _, tt := range []struct {
		args    []string
		queries int
	}{
		{[]string{"--names", "camel"}, 11},
		{[]string{"--names", "typo", "--half", "odd"}, 5},
	} {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), append([]string{"eval", "--catalog", catalog, "--json"}, tt.args...), nil, &out, &errOut)
		if err != nil {
			t.Fatalf("eval %v: %v (stderr %s)", tt.args, err, errOut.String())
		}
		var m struct {
			Queries int     `json:"queries"`
			Recall1 float64 `json:"recall@1"`
		}
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("eval %v printed %q: %v", tt.args, out.String(), err)
		}
		if m.Queries != tt.queries || m.Recall1 <= 0 {
			t.Errorf("eval %v: %d queries, recall@1 %v; want %d, > 0", tt.args, m.Queries, m.Recall1, tt.queries)
		}
	}
}

func TestEvalCommandUsage(t *testing.T) {
	for _, args := range [][]string{
		{"eval"},
		{"eval", "--catalog", "c.jsonl"},
		{"eval", "--catalog", "c", "--queries", "q", "--half", "first"},
		{"eval", "--catalog", "c", "--queries", "q", "--embed", "http://x"},
		{"eval", "--catalog", "c", "--queries", "q", "extra"},
		{"eval", "--catalog", "c", "--queries", "q", "--names", "typo"},
		{"eval", "--catalog", "c", "--names", "shouting"},
	} {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), args, nil, &out, &errOut)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}

// TestEvalCatalogsAndAbsentCases: --catalog twice loads both catalogs, and
// a query with no relevant tool counts as answered right only without a
// close match.
func TestEvalCatalogsAndAbsentCases(t *testing.T) {
	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	lines := `{"query":"think through this problem one step at a time","relevant":[{"server":"sequential-thinking","name":"sequentialthinking"}]}
{"query":"open a support ticket","relevant":[{"server":"helpdesk","name":"create_ticket"}]}
{"query":"ride a camel across the sahara","relevant":[]}
`
	if err := os.WriteFile(queries, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := Run(context.Background(), []string{"eval", "--catalog", filepath.Join("..", "..", "search", "testdata", "catalog.jsonl"),
		"--catalog", filepath.Join("..", "..", "testdata", "catalogs", "sequential-thinking.jsonl"), "--queries", queries, "--json"}, nil, &out, &errOut)
	if err != nil {
		t.Fatalf("eval: %v (stderr %s)", err, errOut.String())
	}
	var rep struct {
		Tools      int     `json:"tools"`
		Absent     int     `json:"absent"`
		Recall1    float64 `json:"recall@1"`
		RightFirst float64 `json:"right_first"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("eval --json printed %q: %v", out.String(), err)
	}
	if rep.Tools != 12 || rep.Absent != 1 || rep.Recall1 != 1 || rep.RightFirst != 1 {
		t.Errorf("tools %d, absent %d, recall@1 %v, right first %v; want 12, 1, 1 (over the two present queries), 1",
			rep.Tools, rep.Absent, rep.Recall1, rep.RightFirst)
	}
}
