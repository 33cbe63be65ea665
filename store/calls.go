package store

import (
	"context"
	"database/sql"
	"time"
)

// Call is one run_capability call, for `capbridge stats`.
type Call struct {
	At                  time.Time
	Server, Tool        string
	BytesIn, BytesOut   int64
	TokensIn, TokensOut int64 // estimates
	Pages               int
	Latency             time.Duration
	Outcome             string // e.g. "ok", "invalid_params", "upstream_error"
	Redactions          int    // secret values replaced in the answer
	Flagged             int    // passages of the answer the poisoning detector flagged
}

// CallTotal sums the recorded calls of one tool.
type CallTotal struct {
	Server, Tool        string
	Calls               int
	Failures            int            // outcome other than "ok"
	Outcomes            map[string]int // calls per outcome, "ok" included
	BytesIn, BytesOut   int64
	TokensIn, TokensOut int64
	Pages               int64
	Latency             time.Duration // summed
	Redactions          int64
	Flagged             int64 // passages flagged by the poisoning detector
	FlaggedCalls        int   // calls with at least one
	First, Last         time.Time
}

// OutcomeOK is the outcome of a call that succeeded.
const OutcomeOK = "ok"

// RecordCalls appends calls to the telemetry in one transaction. A zero At
// means now.
func (s *Store) RecordCalls(ctx context.Context, calls []Call) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	now := time.Now()
	return s.write(ctx, "recording calls", func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `
INSERT INTO calls (at, server, tool, bytes_in, bytes_out, tokens_in, tokens_out, pages, latency_ms, outcome, redactions, flagged)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, c := range calls {
			if c.At.IsZero() {
				c.At = now
			}
			if _, err := st.ExecContext(ctx, c.At.UnixMilli(), c.Server, c.Tool, c.BytesIn, c.BytesOut, c.TokensIn, c.TokensOut,
				c.Pages, c.Latency.Milliseconds(), c.Outcome, c.Redactions, c.Flagged); err != nil {
				return err
			}
		}
		return nil
	})
}

// CallTotals sums the recorded calls per server and tool, by server and tool.
func (s *Store) CallTotals(ctx context.Context) ([]CallTotal, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `
SELECT server, tool, outcome, count(*),
	sum(bytes_in), sum(bytes_out), sum(tokens_in), sum(tokens_out), sum(pages), sum(latency_ms),
	sum(redactions), sum(flagged), count(CASE WHEN flagged > 0 THEN 1 END), min(at), max(at)
FROM calls GROUP BY server, tool, outcome ORDER BY server, tool, outcome`)
	if err != nil {
		return nil, s.wrap("summing calls", err)
	}
	defer rows.Close()
	var out []CallTotal
	for rows.Next() {
		var r CallTotal
		var outcome string
		var latency, first, last int64
		if err := rows.Scan(&r.Server, &r.Tool, &outcome, &r.Calls, &r.BytesIn, &r.BytesOut,
			&r.TokensIn, &r.TokensOut, &r.Pages, &latency, &r.Redactions, &r.Flagged, &r.FlaggedCalls, &first, &last); err != nil {
			return nil, s.wrap("summing calls", err)
		}
		if n := len(out); n == 0 || out[n-1].Server != r.Server || out[n-1].Tool != r.Tool {
			out = append(out, CallTotal{Server: r.Server, Tool: r.Tool, Outcomes: map[string]int{},
				First: time.UnixMilli(first), Last: time.UnixMilli(last)})
		}
		t := &out[len(out)-1]
		t.Calls += r.Calls
		t.Outcomes[outcome] += r.Calls
		if outcome != OutcomeOK {
			t.Failures += r.Calls
		}
		t.BytesIn += r.BytesIn
		t.BytesOut += r.BytesOut
		t.TokensIn += r.TokensIn
		t.TokensOut += r.TokensOut
		t.Pages += r.Pages
		t.Redactions += r.Redactions
		t.Flagged += r.Flagged
		t.FlaggedCalls += r.FlaggedCalls
		t.Latency += time.Duration(latency) * time.Millisecond
		if at := time.UnixMilli(first); at.Before(t.First) {
			t.First = at
		}
		if at := time.UnixMilli(last); at.After(t.Last) {
			t.Last = at
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("summing calls", err)
	}
	return out, nil
}
