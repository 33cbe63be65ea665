package search

import (
	"testing"
	"time"
)

func TestTally(t *testing.T) {
	a, b, c, d := ToolKey{"s", "a"}, ToolKey{"s", "b"}, ToolKey{"s", "c"}, ToolKey{"s", "d"}
	tests := []struct {
		name      string
		ranked    []ToolKey
		relevant  []ToolKey
		confident bool
		want      Metrics
	}{
		{"first is relevant", []ToolKey{a, b}, []ToolKey{a}, true, Metrics{Recall1: 1, Recall3: 1, Recall5: 1, Hit5: 1, MRR: 1, RightFirst: 1, RightFive: 1}},
		{"second of two relevant", []ToolKey{c, a, d, b}, []ToolKey{a, b}, false, Metrics{Recall1: 0, Recall3: 0.5, Recall5: 1, Hit5: 1, MRR: 0.5, RightFive: 1}},
		{"missed", []ToolKey{c, d}, []ToolKey{a}, true, Metrics{}},
		{"nothing returned", nil, []ToolKey{a}, false, Metrics{}},
		{"relevant listed twice", []ToolKey{a}, []ToolKey{a, a}, false, Metrics{Recall1: 1, Recall3: 1, Recall5: 1, Hit5: 1, MRR: 1, RightFirst: 1, RightFive: 1}},
		{"sixth is past @5", []ToolKey{b, c, d, {"s", "e"}, {"s", "f"}, a}, []ToolKey{a}, false, Metrics{MRR: 0.1667}},
		{"absent, no close match", []ToolKey{c}, nil, false, Metrics{Absent: 1, RightFirst: 1, RightFive: 1}},
		{"absent, a close match", []ToolKey{c}, nil, true, Metrics{Absent: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tl tally
			tl.add(tt.ranked, tt.relevant, tt.confident, time.Millisecond)
			got := tl.metrics(7)
			tt.want.Queries, tt.want.Tools, tt.want.P50ms, tt.want.P95ms = 1, 7, 1, 1
			if got != tt.want {
				t.Errorf("metrics = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	if p := percentileMS(ds, 50); p != 50 {
		t.Errorf("p50 = %v, want 50", p)
	}
	if p := percentileMS(ds, 95); p != 95 {
		t.Errorf("p95 = %v, want 95", p)
	}
	if p := percentileMS(nil, 50); p != 0 {
		t.Errorf("p50 of nothing = %v, want 0", p)
	}
}

func TestHalf(t *testing.T) {
	qs := []EvalQuery{{Query: "0"}, {Query: "1"}, {Query: "2"}}
	even, _ := Half(qs, "even")
	odd, _ := Half(qs, "odd")
	all, _ := Half(qs, "all")
	if len(even) != 2 || even[1].Query != "2" || len(odd) != 1 || odd[0].Query != "1" || len(all) != 3 {
		t.Errorf("halves: even %v, odd %v, all %v", even, odd, all)
	}
	if _, err := Half(qs, "first"); err == nil {
		t.Error("Half(first) succeeded, want ErrBadHalf")
	}
}
