package store

import (
	"context"
	"slices"
	"testing"
)

// TestSearchStatementsPrepared runs each search read twice: the second
// answer is the first's, and each query was prepared once.
func TestSearchStatementsPrepared(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustReplace(t, s, "mail", tool("send_email", "sends an email"), tool("read_inbox", "reads email"))
	weights := [5]float64{1, 1, 1, 1, 1}
	reads := []struct {
		name string
		read func() ([]int64, error)
	}{
		{"MatchWords", func() ([]int64, error) { h, err := s.MatchWords(ctx, `"email"`, weights, 10); return ids(h), err }},
		{"MatchTrigrams", func() ([]int64, error) { h, err := s.MatchTrigrams(ctx, `"mai"`, 10); return ids(h), err }},
		{"ToolsByID", func() ([]int64, error) {
			ts, err := s.ToolsByID(ctx, []int64{2, 1})
			var out []int64
			for _, t := range ts {
				out = append(out, t.ID)
			}
			return out, err
		}},
	}
	for _, r := range reads {
		t.Run(r.name, func(t *testing.T) {
			before := len(s.stmts.stmts)
			first, err := r.read()
			if err != nil {
				t.Fatal(err)
			}
			second, err := r.read()
			if err != nil {
				t.Fatal(err)
			}
			if len(first) == 0 || !slices.Equal(first, second) {
				t.Errorf("answers %v then %v, want the same, not empty", first, second)
			}
			if got := len(s.stmts.stmts) - before; got != 1 {
				t.Errorf("%d statements prepared, want 1", got)
			}
		})
	}
}
