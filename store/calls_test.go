package store

import (
	"context"
	"maps"
	"reflect"
	"testing"
	"time"
)

func TestCallTotals(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	at := time.UnixMilli(1_790_000_000_000)
	calls := []Call{
		{At: at, Server: "mail", Tool: "send", BytesIn: 10, BytesOut: 100, TokensIn: 3, TokensOut: 25, Pages: 1, Latency: 40 * time.Millisecond, Outcome: OutcomeOK},
		{At: at.Add(time.Minute), Server: "mail", Tool: "send", BytesIn: 20, BytesOut: 0, Pages: 0, Latency: 5 * time.Millisecond, Outcome: "invalid_params"},
		{At: at, Server: "chat", Tool: "post", BytesIn: 1, BytesOut: 2, TokensIn: 1, TokensOut: 1, Pages: 2, Latency: time.Second, Outcome: OutcomeOK},
	}
	for _, c := range calls {
		if err := s.RecordCalls(ctx, []Call{c}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.CallTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []CallTotal{
		{Server: "chat", Tool: "post", Calls: 1, Outcomes: map[string]int{OutcomeOK: 1}, BytesIn: 1, BytesOut: 2, TokensIn: 1, TokensOut: 1, Pages: 2, Latency: time.Second, First: at, Last: at},
		{Server: "mail", Tool: "send", Calls: 2, Failures: 1, Outcomes: map[string]int{OutcomeOK: 1, "invalid_params": 1}, BytesIn: 30, BytesOut: 100, TokensIn: 3, TokensOut: 25, Pages: 1,
			Latency: 45 * time.Millisecond, First: at, Last: at.Add(time.Minute)},
	}
	if len(got) != len(want) {
		t.Fatalf("CallTotals = %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if !g.First.Equal(w.First) || !g.Last.Equal(w.Last) {
			t.Errorf("%d: first/last %v %v, want %v %v", i, g.First, g.Last, w.First, w.Last)
		}
		if !maps.Equal(g.Outcomes, w.Outcomes) {
			t.Errorf("%d: outcomes %v, want %v", i, g.Outcomes, w.Outcomes)
		}
		g.First, g.Last, w.First, w.Last = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		g.Outcomes, w.Outcomes = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%d: %+v, want %+v", i, g, w)
		}
	}
}

func TestRecordCallRedactions(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var calls []Call
	for _, n := range []int{0, 2, 3} {
		calls = append(calls, Call{Server: "a", Tool: "t", Outcome: OutcomeOK, Redactions: n})
	}
	if err := s.RecordCalls(ctx, calls); err != nil {
		t.Fatal(err)
	}
	totals, err := s.CallTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 1 || totals[0].Redactions != 5 {
		t.Errorf("totals = %+v, want 5 redactions", totals)
	}
}

// TestRecordCallFlagged: the passages the detector flagged are summed per
// tool, and the calls with any are counted.
func TestRecordCallFlagged(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var calls []Call
	for i, n := range []int{0, 2, 1, 0} {
		outcome := OutcomeOK
		if i == 2 {
			outcome = "tool_error"
		}
		calls = append(calls, Call{Server: "a", Tool: "t", Outcome: outcome, Flagged: n})
	}
	if err := s.RecordCalls(ctx, calls); err != nil {
		t.Fatal(err)
	}
	totals, err := s.CallTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 1 || totals[0].Flagged != 3 || totals[0].FlaggedCalls != 2 || totals[0].Calls != 4 {
		t.Errorf("totals = %+v, want 3 passages flagged in 2 of 4 calls", totals)
	}
}
