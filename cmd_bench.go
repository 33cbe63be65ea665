package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/search"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var benchHelp = commandHelp{
	usage: []string{"bench [--quick] [--json] [--catalog F.jsonl]... [--queries F.jsonl]... [--laptop F.jsonl]", "bench --soak DURATION"},
	about: `Measures capbridge on this machine and prints one table: discovery p50/p95
at 100, 1,000 and 5,000 tools with and without vectors (toy 384-dimension
embeddings served over HTTP on loopback: the real client and vec0 path, not
a model's latency), serve start to first answer with 20 stored servers, run
overhead against a direct call, shaping a 500-record result, indexing and
refreshing 5,000 tools, a recorded catalog replayed by one process per
server, and peak RSS. serve, index and the upstream demo servers run as real
child processes of this binary. Timings on a loaded machine are noisy: the
table prints the load average before and after.

--soak runs mixed discover/run traffic for DURATION through a bridge in this
process, with upstream servers that crash at random, and prints RSS, the
memory the Go runtime holds, the heap and its goal, goroutines, open files,
child processes, action ids and kept pages every 30 s, then a verdict: flat,
or growing when the trend of the heap, RSS or either part of RSS over the
second half of the run exceeds its slack.`,
	examples: []string{
		"capbridge bench",
		"capbridge bench --quick --json",
		"capbridge bench --catalog testdata/catalogs/laptop.jsonl.gz --queries testdata/bench/retrieval_bfcl/queries.jsonl.gz",
		"capbridge bench --soak 10m",
	},
}

// benchOptions are bench's flags.
type benchOptions struct {
	quick    bool
	asJSON   bool
	soak     time.Duration
	catalogs []string
	queries  []string
	laptop   string
}

// benchReps are how many times each row measures.
type benchReps struct {
	searches, serveStarts, runCalls, shapes, discoveries int
}

func (o benchOptions) reps() benchReps {
	if o.quick {
		return benchReps{searches: 100, serveStarts: 3, runCalls: 50, shapes: 20, discoveries: 100}
	}
	return benchReps{searches: 1000, serveStarts: 15, runCalls: 300, shapes: 100, discoveries: 100}
}

func runBench(ctx context.Context, e env) error {
	fs := newFlagSet("bench", e)
	var o benchOptions
	fs.BoolVar(&o.quick, "quick", false, "fewer repetitions of each measure (about a minute in all)")
	fs.BoolVar(&o.asJSON, "json", false, "print the table as one JSON object")
	fs.DurationVar(&o.soak, "soak", 0, "run the soak for `DURATION` (e.g. 10m) instead of the table")
	fs.Func("catalog", "search the tools of `FILE` (JSONL with a \"server\" key; repeatable; default: built-in demo + synthetic tools)", func(s string) error {
		o.catalogs = append(o.catalogs, s)
		return nil
	})
	fs.Func("queries", "take discovery intents from `FILE` (queries.jsonl; repeatable; default: built-in intents)", func(s string) error {
		o.queries = append(o.queries, s)
		return nil
	})
	fs.StringVar(&o.laptop, "laptop", laptopCatalogPath, "replay and index the catalog `FILE`, one process per server (skipped when absent)")
	args, done, err := parseFlags(fs, e, benchHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("bench takes no arguments, got %q; run 'capbridge bench -h'", args)}
	}
	if o.soak < 0 {
		return &usageError{msg: "--soak needs a positive duration, as in --soak 10m"}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: finding this binary to run as serve and index: %w", err)
	}
	dir, err := os.MkdirTemp("", "capbridge-bench-")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer os.RemoveAll(dir)
	procs := benchProcs{exe: exe, dir: dir}
	if o.soak > 0 {
		return runSoak(ctx, procs, o.soak, e.stdout)
	}
	t, err := benchTable(ctx, procs, o, e.stderr)
	if err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	t.print(e.stdout)
	return nil
}

// laptopCatalogPath is the recorded laptop catalog the repository carries
// data, relative to a checkout.
const laptopCatalogPath = "testdata/catalogs/laptop.jsonl.gz"

// benchRow is one line of the table; Figures holds its numbers for --json.
type benchRow struct {
	Measure string             `json:"measure"`
	Value   string             `json:"value"`
	Note    string             `json:"note,omitempty"`
	Figures map[string]float64 `json:"figures"`
}

// benchReport is the whole table and the machine it ran on.
type benchReport struct {
	Machine    string     `json:"machine"`
	LoadBefore string     `json:"load_before"`
	LoadAfter  string     `json:"load_after"`
	Catalog    string     `json:"catalog"`
	Took       string     `json:"took"`
	Rows       []benchRow `json:"rows"`
}

func (t *benchReport) add(measure, value, note string, figures map[string]float64) {
	t.Rows = append(t.Rows, benchRow{Measure: measure, Value: value, Note: note, Figures: figures})
}

// benchTable measures every row; progress goes to progress.
func benchTable(ctx context.Context, procs benchProcs, o benchOptions, progress io.Writer) (*benchReport, error) {
	start := time.Now()
	reps := o.reps()
	t := &benchReport{Machine: machine(), LoadBefore: loadAverage()}
	step := func(what string) {
		fmt.Fprintf(progress, "bench: %s (%v so far)\n", what, time.Since(start).Round(time.Second))
	}

	step("discovery")
	if err := discoveryRows(ctx, t, procs.dir, o, reps); err != nil {
		return nil, err
	}
	step("serve start with 20 stored servers")
	p50, p95, err := procs.serveStart(ctx, reps.serveStarts)
	if err != nil {
		return nil, err
	}
	t.add("serve start to first tools/list answer, 20 stored servers", fmt.Sprintf("p50 %s, p95 %s", ms(p50), ms(p95)),
		fmt.Sprintf("%d process starts; no upstream started", reps.serveStarts), map[string]float64{"p50_ms": msf(p50), "p95_ms": msf(p95)})

	step("run overhead")
	ov, err := procs.runOverhead(ctx, reps.runCalls)
	if err != nil {
		return nil, err
	}
	t.add("run overhead vs a direct call (p50)", fmt.Sprintf("+%s (bridge %s, direct %s)", ms(ov.bridge-ov.direct), ms(ov.bridge), ms(ov.direct)),
		fmt.Sprintf("%d calls each, interleaved, stdio both ways", ov.calls),
		map[string]float64{"added_p50_ms": msf(ov.bridge - ov.direct), "bridge_p50_ms": msf(ov.bridge), "direct_p50_ms": msf(ov.direct)})

	step("shaping")
	if err := shapeRow(t, reps.shapes); err != nil {
		return nil, err
	}

	step("5,000-tool catalog")
	big, err := procs.bigCatalog(ctx, 5000, reps.discoveries)
	if err != nil {
		return nil, err
	}
	t.add("index 5,000 tools (~15.7 MB, one server)", fmt.Sprintf("%s, peak RSS %s", ms(big.index.wall), mib(big.index.maxRSS)),
		fmt.Sprintf("capbridge index from scratch: %d stored, %d refused", big.index.stored, big.index.refused),
		map[string]float64{"ms": msf(big.index.wall), "peak_rss_mib": mibf(big.index.maxRSS)})
	t.add("refresh 5,000 tools (unchanged)", fmt.Sprintf("%s, peak RSS %s", ms(big.refresh.wall), mib(big.refresh.maxRSS)), "capbridge index again",
		map[string]float64{"ms": msf(big.refresh.wall), "peak_rss_mib": mibf(big.refresh.maxRSS)})
	t.add("serve peak RSS, 5,000 tools", mib(big.servePeak),
		fmt.Sprintf("VmHWM after %d discoveries over stdio (p50 %s, p95 %s); target < 150 MB", big.discoveries, ms(big.discP50), ms(big.discP95)),
		map[string]float64{"peak_rss_mib": mibf(big.servePeak), "discover_p50_ms": msf(big.discP50), "discover_p95_ms": msf(big.discP95)})
	t.add("serve peak RSS, 5,000 tools, after a first run", mib(big.runPeak),
		"VmHWM after one run_capability: the bridge starts the server and re-lists its catalog before the call (re-indexed only if the listing changed); target < 150 MB",
		map[string]float64{"peak_rss_mib": mibf(big.runPeak)})

	if _, err := os.Stat(o.laptop); o.laptop != "" && err == nil {
		step("replaying " + o.laptop)
		servers, tools, f, err := procs.replayCatalog(ctx, o.laptop)
		if err != nil {
			return nil, err
		}
		t.add(fmt.Sprintf("index %s (%d servers, %d tools)", o.laptop, servers, tools), fmt.Sprintf("%s, peak RSS %s", ms(f.wall), mib(f.maxRSS)),
			fmt.Sprintf("from scratch, one demo-server replay process per server; %d stored, %d refused", f.stored, f.refused),
			map[string]float64{"ms": msf(f.wall), "peak_rss_mib": mibf(f.maxRSS)})
	} else {
		t.add("index a recorded catalog", "skipped", fmt.Sprintf("no catalog at %q (--laptop FILE)", o.laptop), nil)
	}
	t.add("bench process peak RSS", mib(selfMaxRSS()), "in-process discovery stores up to 5,000 tools with vectors", map[string]float64{"peak_rss_mib": mibf(selfMaxRSS())})
	t.LoadAfter = loadAverage()
	t.Took = time.Since(start).Round(time.Second).String()
	return t, nil
}

// discoveryRows measures search latency at 100, 1,000 and 5,000 tools,
// without and with vectors.
func discoveryRows(ctx context.Context, t *benchReport, dir string, o benchOptions, reps benchReps) error {
	sizes := []int{100, 1000, 5000}
	lines, source, err := benchCatalogLines(ctx, o.catalogs, sizes[len(sizes)-1])
	if err != nil {
		return err
	}
	queries, err := benchQueries(o.queries)
	if err != nil {
		return err
	}
	t.Catalog = source
	embURL, err := toyEmbeddings(ctx)
	if err != nil {
		return err
	}
	for _, n := range sizes {
		for _, vectors := range []bool{false, true} {
			var emb *search.Embedder
			if vectors {
				if emb, err = search.NewEmbedder(search.EmbedderOptions{URL: embURL, Model: "toy-384"}); err != nil {
					return fmt.Errorf("bench: toy embedder: %w", err)
				}
			}
			f, err := measureDiscovery(ctx, dir, lines, n, emb, queries, reps.searches)
			if err != nil {
				return err
			}
			legs, note := "words + trigrams", ""
			if vectors {
				legs, note = "+ vectors", "toy 384-dim embeddings over loopback HTTP; "
			}
			t.add(fmt.Sprintf("discovery, %d tools, %s", n, legs), fmt.Sprintf("p50 %s, p95 %s", ms(f.p50), ms(f.p95)),
				fmt.Sprintf("%s%d searches (search.Search, limit 5); load %s", note, f.searches, ms(f.load)),
				map[string]float64{"tools": float64(n), "p50_ms": msf(f.p50), "p95_ms": msf(f.p95), "load_ms": msf(f.load)})
		}
	}
	return nil
}

// shapeRow measures output.Shape on a 500-record JSON result.
func shapeRow(t *benchReport, reps int) error {
	res, err := records500()
	if err != nil {
		return err
	}
	var took []time.Duration
	var sh *output.Shaped
	for range reps {
		start := time.Now()
		if sh, err = output.Shape(res, nil); err != nil {
			return fmt.Errorf("bench: shaping 500 records: %w", err)
		}
		took = append(took, time.Since(start))
	}
	p50 := percentile(took, 50)
	t.add("shape a 500-record result", fmt.Sprintf("p50 %s", ms(p50)),
		fmt.Sprintf("%d B in, %d B out, %d pages, first page ≤ %d tokens (est.); %d runs of output.Shape", sh.BytesIn, sh.BytesOut, sh.PageCount(), sh.MaxTokens, reps),
		map[string]float64{"p50_ms": msf(p50), "bytes_in": float64(sh.BytesIn), "bytes_out": float64(sh.BytesOut)})
	return nil
}

// records500 is a tool result of 500 issue-like records, internal fields
// included, as JSON text and structured content.
func records500() (*mcp.CallToolResult, error) {
	type user struct {
		Login string `json:"login"`
		ID    int    `json:"id"`
	}
	type issue struct {
		ID        string   `json:"_id"`
		V         int      `json:"__v"`
		Number    int      `json:"number"`
		Title     string   `json:"title"`
		State     string   `json:"state"`
		Assignee  user     `json:"assignee"`
		Labels    []string `json:"labels"`
		LabelIDs  []int    `json:"label_ids"`
		Body      string   `json:"body"`
		Hash      string   `json:"hash"`
		CreatedAt string   `json:"created_at"`
		UpdatedAt string   `json:"updated_at"`
	}
	items := make([]issue, 500)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range items {
		items[i] = issue{
			ID: fmt.Sprintf("%024x", i), Number: 1000 + i, Title: fmt.Sprintf("Login page fails on step %d for some users", i),
			State: []string{"open", "closed"}[i%2], Assignee: user{Login: fmt.Sprintf("dev%02d", i%17), ID: 5000 + i%17},
			Labels: []string{"bug", "p" + fmt.Sprint(i%4)}, LabelIDs: []int{i, i + 1},
			Body: strings.Repeat("Steps to reproduce and what was expected. ", 3),
			Hash: fmt.Sprintf("%040x", i*7919), CreatedAt: base.Add(time.Duration(i) * time.Hour).Format(time.RFC3339),
			UpdatedAt: base.Add(time.Duration(i+3) * time.Hour).Format(time.RFC3339),
		}
	}
	text, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("bench: 500 records: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
}

// print writes the table as Markdown.
func (t *benchReport) print(w io.Writer) {
	fmt.Fprintf(w, "capbridge bench: %s\nload average before %s, after %s; took %s\ndiscovery catalog: %s\n\n", t.Machine, t.LoadBefore, t.LoadAfter, t.Took, t.Catalog)
	fmt.Fprintln(w, "| measure | value | how |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	for _, r := range t.Rows {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.Measure, r.Value, r.Note)
	}
}

// machine names the machine the bench runs on.
func machine() string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range bytes.Lines(data) {
			if k, v, ok := strings.Cut(string(line), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s/%s, %d CPUs (%s), %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, runtime.Version())
}

// loadAverage is the 1, 5 and 15 minute load average.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func mibf(b int64) float64        { return float64(b) / (1 << 20) }
