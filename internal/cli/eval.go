package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// evalReport is what `capbridge eval --json` prints: the fused figures at
// the top level and the same keys for each leg run alone.
type evalReport struct {
	search.Metrics
	Legs map[string]search.Metrics `json:"legs"`
	// Confidence is the calibration report of --confidence.
	Confidence *search.Calibration `json:"confidence,omitempty"`
	// Replay is the report of --replay, learning off and on.
	Replay *replayReport `json:"replay,omitempty"`
}

// replayReport is a replay of the queries in order (search.Replay) without
// learning and with it.
type replayReport struct {
	Off search.ReplayReport `json:"off"`
	On  search.ReplayReport `json:"on"`
}

var evalHelp = commandHelp{
	usage: []string{"eval --catalog F.jsonl [--catalog F.jsonl...] --queries F.jsonl [--limit N] [--half even|odd] [--confidence F.jsonl [--domains F.txt]] [--replay] [--json]",
		"eval --catalog F.jsonl --names spaced|camel|kebab|typo [--half even|odd] [--json]"},
	about: `Loads the catalog into a temporary database through the same normalization
and store path as real servers, runs every query through discovery's search
and prints recall@1/3/5, hit@5, MRR and p50/p95 latency, fused and per leg.
With --names, the queries are the catalog's own tool names, one a tool,
written spaced, camelCase, kebab-case, or spaced with one typo in the
longest word (seeded, so every run is the same), each naming its tool.
With --confidence it also measures what confidence means: how often a
relevant tool ranked first reaches the close-match bar, and how often the
queries run against another catalog (one lacking their tools, less the
queries naming a domain listed in --domains) get no card that reaches it.
Files ending in .gz are read gzipped. --catalog may be given more than once:
the catalogs are loaded together, as servers configured side by side. A query
whose relevant list is empty is an absent case, answered right by no close
match; "right first" and "among five" count both kinds. --replay also runs
the queries in order as a model would, learning from each run as the bridge
does (bridge.learning): the simulated model runs the right tool when it is
among the cards shown, else the first card; each query is scored before it is
learned from, and the later half shows what learning reached, beside the same
replay without learning.`,
	examples: []string{
		"capbridge eval --catalog testdata/bench/retrieval_bfcl/catalog.jsonl.gz --queries testdata/bench/retrieval_bfcl/queries.jsonl.gz --half odd",
		"capbridge eval --catalog testdata/bench/retrieval_bfcl/catalog.jsonl.gz --names typo",
		"capbridge eval --catalog testdata/bench/retrieval_metatool/catalog.jsonl.gz --queries testdata/bench/retrieval_metatool/queries.jsonl.gz --half odd --replay",
		"capbridge eval --catalog testdata/bench/retrieval_bfcl/catalog.jsonl.gz --queries testdata/bench/retrieval_bfcl/queries.jsonl.gz --half odd --confidence testdata/catalogs/laptop.jsonl.gz --domains testdata/catalogs/laptop.domains.txt",
	},
}

func runEval(ctx context.Context, e env) error {
	fs := newFlagSet("eval", e)
	var catalogs fileList
	fs.Var(&catalogs, "catalog", "catalog `file` (JSONL: one tool a line with its server); repeat to load several")
	queries := fs.String("queries", "", "queries `file` (JSONL: {query, relevant:[{server,name}]})")
	limit := fs.Int("limit", 5, "results per query, as discover_capability's limit")
	embedURL := fs.String("embed", "", "OpenAI-compatible embeddings base `URL` (enables the vector leg)")
	embedModel := fs.String("embed-model", "", "embedding `model` name (with --embed)")
	embedKeyEnv := fs.String("embed-key-env", "", "environment `variable` holding the embeddings API key")
	half := fs.String("half", "all", "queries to run: even (tuning half), odd (held out) or all")
	asJSON := fs.Bool("json", false, "print one JSON object")
	replay := fs.Bool("replay", false, "also replay the queries in order, learning from each run, and without learning")
	names := fs.String("names", "", "instead of --queries, one query per tool: its name words written `form` spaced, camel, kebab or typo")
	var absent absentCase
	fs.StringVar(&absent.catalog, "confidence", "", "also measure confidence; the absent case runs the queries against this catalog `file`, which lacks their tools")
	fs.StringVar(&absent.domains, "domains", "", "with --confidence: `file` of words and phrases, one a line, naming what that catalog serves (queries naming one are left out)")
	args, done, err := parseFlags(fs, e, evalHelp)
	if done {
		return err
	}
	switch {
	case len(args) > 0:
		return &usageError{msg: fmt.Sprintf("eval: unexpected argument %q", args[0])}
	case len(catalogs) == 0 || (*queries == "") == (*names == ""):
		return &usageError{msg: "eval: --catalog and one of --queries or --names are required"}
	case *limit < 1:
		return &usageError{msg: "eval: --limit must be at least 1"}
	case *half != "all" && *half != "even" && *half != "odd":
		return &usageError{msg: "eval: --half must be even, odd or all"}
	case (*embedURL == "") != (*embedModel == ""):
		return &usageError{msg: "eval: --embed and --embed-model go together"}
	case absent.domains != "" && absent.catalog == "":
		return &usageError{msg: "eval: --domains goes with --confidence"}
	case *replay && *names != "":
		return &usageError{msg: "eval: --replay goes with --queries"}
	}
	var form search.NameForm
	var qs []search.EvalQuery
	if *names != "" {
		if form, err = search.ParseNameForm(*names); err != nil {
			return &usageError{msg: "eval: " + err.Error()}
		}
	} else if qs, err = readEvalQueries(*queries); err != nil {
		return err
	}
	var emb *search.Embedder
	if *embedURL != "" {
		if emb, err = search.NewEmbedder(search.EmbedderOptions{URL: *embedURL, Model: *embedModel, APIKey: os.Getenv(*embedKeyEnv)}); err != nil {
			return err
		}
	}
	rep, err := evaluate(ctx, catalogs, qs, form, *half, *limit, emb, absent, *replay)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	}
	printEval(e.stdout, rep)
	return nil
}

func readEvalQueries(path string) ([]search.EvalQuery, error) {
	f, err := search.OpenFile(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	return search.ReadQueries(f)
}

// fileList is a flag given once for each file.
type fileList []string

func (l *fileList) String() string { return strings.Join(*l, ",") }

func (l *fileList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// evaluate loads the catalogs into a temporary store and measures the fused
// search and each leg alone, on qs or, with a name form, on one query per
// tool (search.NameQueries), either cut to half; and confidence when absent
// names a catalog; and a replay of the queries in order, without learning
// and with it, when replay is set.
func evaluate(ctx context.Context, catalogs []string, qs []search.EvalQuery, names search.NameForm, half string, limit int, emb *search.Embedder, absent absentCase, replay bool) (*evalReport, error) {
	dir, err := os.MkdirTemp("", "capbridge-eval-")
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, filepath.Join(dir, "catalog.db"), nil)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer st.Close()
	tools, err := loadCatalogs(ctx, st, catalogs, emb)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if names != "" {
		if qs, err = search.NameQueries(ctx, st, names, 1); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	}
	if qs, err = search.Half(qs, half); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	s := search.New(st, &search.Options{Embedder: emb})
	rep := &evalReport{Legs: make(map[string]search.Metrics)}
	if rep.Metrics, err = search.Evaluate(ctx, s, qs, search.Query{Limit: limit}, tools); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	for _, leg := range search.AllLegs {
		if leg == search.LegVectors && emb == nil {
			continue
		}
		m, err := search.Evaluate(ctx, s, qs, search.Query{Limit: limit, Legs: []search.Leg{leg}}, tools)
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		rep.Legs[leg.String()] = m
	}
	if absent.catalog != "" {
		if rep.Confidence, err = calibrate(ctx, dir, s, qs, limit, emb, absent); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	}
	if replay {
		// Off first: it learns nothing, so the store is fresh for On.
		rep.Replay = &replayReport{}
		if rep.Replay.Off, err = search.Replay(ctx, s, qs, search.Query{Limit: limit}, tools); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		if rep.Replay.On, err = search.Replay(ctx, s, qs, search.Query{Limit: limit, Learning: true}, tools); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	}
	return rep, nil
}

// loadCatalogs loads each catalog file into st and returns the number of
// searchable tools stored.
func loadCatalogs(ctx context.Context, st *store.Store, catalogs []string, emb *search.Embedder) (int, error) {
	tools := 0
	for _, path := range catalogs {
		f, err := search.OpenFile(path)
		if err != nil {
			return tools, err
		}
		n, err := search.LoadCatalog(ctx, st, f, &search.IngestOptions{Embedder: emb})
		f.Close()
		if err != nil {
			return tools, fmt.Errorf("%s: %w", path, err)
		}
		tools += n
	}
	return tools, nil
}

func printEval(w io.Writer, rep *evalReport) {
	fmt.Fprintf(w, "%d queries, %d tools\n\n", rep.Queries, rep.Tools)
	fmt.Fprintf(w, "%-9s %8s %8s %8s %8s %8s %8s %8s\n", "", "recall@1", "recall@3", "recall@5", "hit@5", "MRR", "p50 ms", "p95 ms")
	row := func(name string, m search.Metrics) {
		fmt.Fprintf(w, "%-9s %8.3f %8.3f %8.3f %8.3f %8.3f %8.2f %8.2f\n", name, m.Recall1, m.Recall3, m.Recall5, m.Hit5, m.MRR, m.P50ms, m.P95ms)
	}
	row("fused", rep.Metrics)
	for _, leg := range search.AllLegs {
		if m, ok := rep.Legs[leg.String()]; ok {
			row(leg.String(), m)
		}
	}
	if m := rep.Metrics; m.Absent > 0 {
		fmt.Fprintf(w, "\nright answer (a relevant tool, or no close match when none is: %d absent cases)\n", m.Absent)
		fmt.Fprintf(w, "  first %.3f, among five %.3f\n", m.RightFirst, m.RightFive)
	}
	if rep.Confidence != nil {
		printCalibration(w, rep.Confidence)
	}
	if r := rep.Replay; r != nil {
		fmt.Fprintf(w, "\nreplay in order: the later %d queries, after learning from the %d before them\n", r.On.Later.Queries, r.On.All.Queries-r.On.Later.Queries)
		fmt.Fprintf(w, "%-12s %8s %8s %8s %8s %8s %8s %8s\n", "", "recall@1", "recall@3", "recall@5", "MRR", "first", "p50 ms", "p95 ms")
		for _, row := range []struct {
			name string
			m    search.Metrics
		}{{"learning off", r.Off.Later}, {"learning on", r.On.Later}} {
			fmt.Fprintf(w, "%-12s %8.3f %8.3f %8.3f %8.3f %8.3f %8.2f %8.2f\n", row.name, row.m.Recall1, row.m.Recall3, row.m.Recall5, row.m.MRR, row.m.RightFirst, row.m.P50ms, row.m.P95ms)
		}
		fmt.Fprintf(w, "  learned from %d runs, %d of them a wrong tool (the right one not among the cards)\n", r.On.Learned, r.On.Mistakes)
	}
}
