package search

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/capbridge/capbridge/store"
)

// EvalQuery is one labelled query of a retrieval set (queries.jsonl).
type EvalQuery struct {
	Query    string    `json:"query"`
	Relevant []ToolKey `json:"relevant"`
}

// maxLineBytes bounds one line of a catalog or query file.
const maxLineBytes = 64 << 20

// eachLine calls fn with every non-blank line of r.
func eachLine(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		if err := fn(n, sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// ReadQueries reads a queries.jsonl file: one {"query", "relevant"} a line.
func ReadQueries(r io.Reader) ([]EvalQuery, error) {
	var qs []EvalQuery
	err := eachLine(r, func(n int, line []byte) error {
		var q EvalQuery
		if err := json.Unmarshal(line, &q); err != nil {
			return fmt.Errorf("reading query on line %d: %w", n, err)
		}
		qs = append(qs, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading queries: %w", err)
	}
	return qs, nil
}

// LoadCatalog reads a catalog.jsonl file (one tool a line, as tools/list
// sends it plus a "server" key) and ingests it one server at a time,
// through the same Ingest as real servers. It returns the number of
// searchable tools stored.
func LoadCatalog(ctx context.Context, st *store.Store, r io.Reader, opts *IngestOptions) (int, error) {
	var order []string
	byServer := make(map[string][]json.RawMessage)
	err := eachLine(r, func(n int, line []byte) error {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil {
			return fmt.Errorf("reading catalog line %d: %w", n, err)
		}
		var server string
		if err := json.Unmarshal(obj["server"], &server); err != nil || server == "" {
			return fmt.Errorf("reading catalog line %d: no server name", n)
		}
		delete(obj, "server")
		raw, err := json.Marshal(obj)
		if err != nil {
			return fmt.Errorf("reading catalog line %d: %w", n, err)
		}
		if _, ok := byServer[server]; !ok {
			order = append(order, server)
		}
		byServer[server] = append(byServer[server], raw)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("loading catalog: %w", err)
	}
	stored := 0
	for _, server := range order {
		rep, err := Ingest(ctx, st, store.Server{Name: server, State: store.StateStored}, byServer[server], opts)
		if err != nil {
			return stored, fmt.Errorf("loading catalog: %w", err)
		}
		stored += rep.Stored
	}
	return stored, nil
}

// Half selects a deterministic half of a query set: "even" keeps the
// queries at even 0-based indexes (the tuning half), "odd" the others,
// "all" (or "") every query.
func Half(qs []EvalQuery, half string) ([]EvalQuery, error) {
	var keep int
	switch half {
	case "", "all":
		return qs, nil
	case "even":
		keep = 0
	case "odd":
		keep = 1
	default:
		return nil, fmt.Errorf("selecting half %q: %w", half, ErrBadHalf)
	}
	var out []EvalQuery
	for i, q := range qs {
		if i%2 == keep {
			out = append(out, q)
		}
	}
	return out, nil
}

// anyConfident reports whether some result reaches ConfidentAt.
func anyConfident(rs []Result) bool {
	return slices.ContainsFunc(rs, func(r Result) bool { return r.Confidence >= ConfidentAt })
}

// ErrBadHalf is returned by Half for a name other than even, odd or all.
var ErrBadHalf = errors.New("half must be even, odd or all")

// Evaluate runs every query through s.Search with q (its limit and legs,
// as discovery would) and scores the ranked results. tools is reported in
// the metrics as the catalog size.
func Evaluate(ctx context.Context, s *Searcher, qs []EvalQuery, q Query, tools int) (Metrics, error) {
	var t tally
	for i, eq := range qs {
		start := time.Now()
		rs, err := s.Search(ctx, eq.Query, q)
		took := time.Since(start)
		if err != nil {
			return Metrics{}, fmt.Errorf("evaluating query %d %q: %w", i, eq.Query, err)
		}
		ranked := make([]ToolKey, len(rs))
		for j, r := range rs {
			ranked[j] = ToolKey{Server: r.Server, Name: r.Name}
		}
		t.add(ranked, eq.Relevant, anyConfident(rs), took)
	}
	return t.metrics(tools), nil
}
