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
}

// CallTotal sums the recorded calls of one tool.
type CallTotal struct {
	Server, Tool        string
	Calls               int
	Failures            int // outcome other than "ok"
	BytesIn, BytesOut   int64
	TokensIn, TokensOut int64
	Pages               int64
	Latency             time.Duration // summed
	First, Last         time.Time
}

// OutcomeOK is the outcome of a call that succeeded.
const OutcomeOK = "ok"

// RecordCall appends one call to the telemetry. A zero At means now.
func (s *Store) RecordCall(ctx context.Context, c Call) error {
	if c.At.IsZero() {
		c.At = time.Now()
	}
	return s.write(ctx, "recording call", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
INSERT INTO calls (at, server, tool, bytes_in, bytes_out, tokens_in, tokens_out, pages, latency_ms, outcome)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.At.UnixMilli(), c.Server, c.Tool, c.BytesIn, c.BytesOut, c.TokensIn, c.TokensOut,
			c.Pages, c.Latency.Milliseconds(), c.Outcome)
		return err
	})
}

// CallTotals sums the recorded calls per server and tool, by server and tool.
func (s *Store) CallTotals(ctx context.Context) ([]CallTotal, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT server, tool, count(*), count(*) FILTER (WHERE outcome <> ?),
	sum(bytes_in), sum(bytes_out), sum(tokens_in), sum(tokens_out), sum(pages), sum(latency_ms),
	min(at), max(at)
FROM calls GROUP BY server, tool ORDER BY server, tool`, OutcomeOK)
	if err != nil {
		return nil, s.wrap("summing calls", err)
	}
	defer rows.Close()
	var out []CallTotal
	for rows.Next() {
		var t CallTotal
		var latency, first, last int64
		if err := rows.Scan(&t.Server, &t.Tool, &t.Calls, &t.Failures, &t.BytesIn, &t.BytesOut,
			&t.TokensIn, &t.TokensOut, &t.Pages, &latency, &first, &last); err != nil {
			return nil, s.wrap("summing calls", err)
		}
		t.Latency = time.Duration(latency) * time.Millisecond
		t.First, t.Last = time.UnixMilli(first), time.UnixMilli(last)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("summing calls", err)
	}
	return out, nil
}
