package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// absentCase is what eval's --confidence and --domains name: a catalog
// lacking the query set's tools, and the domains it serves.
type absentCase struct {
	catalog, domains string
}

// calibrate measures confidence (search.Calibration): the present case on
// s, the query set's own catalog; the absent case on absent.catalog,
// loaded into a store under dir, less the queries naming its domains.
func calibrate(ctx context.Context, dir string, s *search.Searcher, qs []search.EvalQuery, limit int, emb *search.Embedder, absent absentCase) (*search.Calibration, error) {
	var domains []string
	if absent.domains != "" {
		f, err := search.OpenFile(absent.domains)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if domains, err = search.ReadDomains(f); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(ctx, filepath.Join(dir, "absent.db"), nil)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	f, err := search.OpenFile(absent.catalog)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := search.LoadCatalog(ctx, st, f, &search.IngestOptions{Embedder: emb}); err != nil {
		return nil, err
	}
	q := search.Query{Limit: limit}
	cal := &search.Calibration{}
	if cal.Present, err = search.CalibratePresent(ctx, s, qs, q); err != nil {
		return nil, err
	}
	if cal.Absent, err = search.CalibrateAbsent(ctx, search.New(st, &search.Options{Embedder: emb}), qs, domains, q); err != nil {
		return nil, err
	}
	return cal, nil
}

// printCalibration prints the confidence report under eval's table.
func printCalibration(w io.Writer, c *search.Calibration) {
	fmt.Fprintf(w, "\nconfidence (close match at %.1f or more)\n", search.ConfidentAt)
	fmt.Fprintf(w, "  present: relevant tool first in %d of %d queries; confident in %d of them (%.3f)\n",
		c.Present.First, c.Present.Queries, c.Present.Confident, c.Present.Share)
	fmt.Fprintf(w, "  absent:  %d queries (%d left out as naming the catalog's domains); no confident card in %d (%.3f)\n",
		c.Absent.Queries, c.Absent.LeftOut, c.Absent.Quiet, c.Absent.Share)
}
