package search

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Calibration says whether confidence means what it says, in both
// directions: a close match reaches ConfidentAt, and an intent no tool
// of the catalog answers gets no result that reaches it.
type Calibration struct {
	Present PresentCalibration `json:"present"`
	Absent  AbsentCalibration  `json:"absent"`
}

// PresentCalibration measures a query set against its own catalog.
type PresentCalibration struct {
	Queries int `json:"queries"`
	// First counts the queries whose first result is a relevant tool.
	First int `json:"first"`
	// Confident counts those of First whose first result reaches
	// ConfidentAt.
	Confident int `json:"confident"`
	// Share is Confident / First.
	Share float64 `json:"share"`
}

// AbsentCalibration measures a query set against a catalog that holds
// none of its tools (another set's, or a real one).
type AbsentCalibration struct {
	// LeftOut counts the queries left out because they name a domain the
	// catalog serves (see OutsideDomains): a card for those may be right.
	LeftOut int `json:"left_out"`
	Queries int `json:"queries"`
	// Quiet counts the queries none of whose results reach ConfidentAt.
	Quiet int `json:"quiet"`
	// Share is Quiet / Queries.
	Share float64 `json:"share"`
}

// CalibratePresent runs qs through s with q and counts how often the
// first result, when relevant, reaches ConfidentAt.
func CalibratePresent(ctx context.Context, s *Searcher, qs []EvalQuery, q Query) (PresentCalibration, error) {
	var c PresentCalibration
	for i, eq := range qs {
		rs, err := s.Search(ctx, eq.Query, q)
		if err != nil {
			return c, fmt.Errorf("calibrating on query %d %q: %w", i, eq.Query, err)
		}
		c.Queries++
		if len(rs) == 0 || !slices.Contains(eq.Relevant, ToolKey{Server: rs[0].Server, Name: rs[0].Name}) {
			continue
		}
		c.First++
		if rs[0].Confidence >= ConfidentAt {
			c.Confident++
		}
	}
	if c.First > 0 {
		c.Share = round4(float64(c.Confident) / float64(c.First))
	}
	return c, nil
}

// CalibrateAbsent runs the queries of qs that name none of domains (see
// OutsideDomains) through s, whose catalog lacks their tools, and counts
// those that get no result at ConfidentAt or above.
func CalibrateAbsent(ctx context.Context, s *Searcher, qs []EvalQuery, domains []string, q Query) (AbsentCalibration, error) {
	kept := OutsideDomains(qs, domains)
	c := AbsentCalibration{LeftOut: len(qs) - len(kept)}
	for i, eq := range kept {
		rs, err := s.Search(ctx, eq.Query, q)
		if err != nil {
			return c, fmt.Errorf("calibrating on query %d %q: %w", i, eq.Query, err)
		}
		c.Queries++
		if !slices.ContainsFunc(rs, func(r Result) bool { return r.Confidence >= ConfidentAt }) {
			c.Quiet++
		}
	}
	if c.Queries > 0 {
		c.Share = round4(float64(c.Quiet) / float64(c.Queries))
	}
	return c, nil
}

// OutsideDomains returns the queries of qs that name none of domains.
// A domain is a word or a phrase ("pull request"); a query names it when
// its words hold the domain's words in a row, each as it is or in the
// plural (files, repositories).
func OutsideDomains(qs []EvalQuery, domains []string) []EvalQuery {
	phrases := make([][]string, 0, len(domains))
	for _, d := range domains {
		if ws := words(d); len(ws) > 0 {
			phrases = append(phrases, ws)
		}
	}
	var out []EvalQuery
	for _, q := range qs {
		ws := words(q.Query)
		if !slices.ContainsFunc(phrases, func(p []string) bool { return holdsPhrase(ws, p) }) {
			out = append(out, q)
		}
	}
	return out
}

// holdsPhrase reports whether ws holds the words of p in a row, each
// equal or a plural of p's word.
func holdsPhrase(ws, p []string) bool {
	for i := 0; i+len(p) <= len(ws); i++ {
		all := true
		for j, w := range p {
			if ws[i+j] != w && !slices.Contains(singulars(ws[i+j]), w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// ReadDomains reads a list of domain words and phrases, one a line;
// blank lines and lines starting with # are skipped.
func ReadDomains(r io.Reader) ([]string, error) {
	var out []string
	err := eachLine(r, func(_ int, line []byte) error {
		if d := strings.TrimSpace(string(line)); d != "" && !strings.HasPrefix(d, "#") {
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading domains: %w", err)
	}
	return out, nil
}
