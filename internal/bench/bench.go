// Package bench is the standing benchmark behind `capbridge bench`: it
// measures discovery latency at 100, 1,000 and 5,000 tools, serve's start,
// run overhead, shaping, indexing and peak memory with real child processes
// of the capbridge binary ([Run]), and soaks a bridge under mixed traffic
// with crashing upstreams ([Soak]). The product never imports it.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/search"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options choose what [Run] measures. Exe is the capbridge binary to run
// as serve, index and the upstream demo servers.
type Options struct {
	Exe      string
	Quick    bool     // fewer repetitions of each measure
	Catalogs []string // JSONL catalogs to search (default: demo + synthetic tools)
	Queries  []string // queries.jsonl files of discovery intents (default: built-in)
	Laptop   string   // a recorded catalog to replay and index ("" or absent: skipped)
}

// benchReps are how many times each row measures.
type benchReps struct {
	searches, serveStarts, runCalls, shapes, discoveries int
}

func (o Options) reps() benchReps {
	if o.Quick {
		return benchReps{searches: 100, serveStarts: 3, runCalls: 50, shapes: 20, discoveries: 100}
	}
	return benchReps{searches: 1000, serveStarts: 15, runCalls: 300, shapes: 100, discoveries: 100}
}

// LaptopCatalog is the recorded laptop catalog the repository carries,
// relative to a checkout.
const LaptopCatalog = "testdata/catalogs/laptop.jsonl.gz"

// Memory targets over 5,000 tools, in MiB: the peak RSS of indexing them
// from scratch, of serve after 100 discoveries from its stored catalog,
// and of serve after a first run (which re-lists the server). The table
// prints them beside what it measured; TestBenchQuick holds them.
const (
	IndexRSSTargetMiB    = 120
	ServeRSSTargetMiB    = 60
	ServeRunRSSTargetMiB = 80
)

// Run measures every row of the table; a line a step goes to progress.
func Run(ctx context.Context, o Options, progress io.Writer) (*Report, error) {
	dir, err := os.MkdirTemp("", "capbridge-bench-")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer os.RemoveAll(dir)
	return table(ctx, benchProcs{exe: o.Exe, dir: dir}, o, progress)
}

// Soak runs mixed discover/run traffic for d through a bridge in this
// process, with upstream demo servers (exe) that crash at random, and
// prints samples and a verdict to w.
func Soak(ctx context.Context, exe string, d time.Duration, w io.Writer) error {
	dir, err := os.MkdirTemp("", "capbridge-soak-")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer os.RemoveAll(dir)
	return runSoak(ctx, benchProcs{exe: exe, dir: dir}, d, w)
}

// Row is one line of the table; Figures holds its numbers for --json.
type Row struct {
	Measure string             `json:"measure"`
	Value   string             `json:"value"`
	Note    string             `json:"note,omitempty"`
	Figures map[string]float64 `json:"figures"`
}

// Report is the whole table and the machine it ran on.
type Report struct {
	Machine    string `json:"machine"`
	LoadBefore string `json:"load_before"`
	LoadAfter  string `json:"load_after"`
	Catalog    string `json:"catalog"`
	Took       string `json:"took"`
	Rows       []Row  `json:"rows"`
}

func (t *Report) add(measure, value, note string, figures map[string]float64) {
	t.Rows = append(t.Rows, Row{Measure: measure, Value: value, Note: note, Figures: figures})
}

// table measures every row; progress goes to progress.
func table(ctx context.Context, procs benchProcs, o Options, progress io.Writer) (*Report, error) {
	start := time.Now()
	reps := o.reps()
	t := &Report{Machine: machine(), LoadBefore: loadAverage()}
	step := func(what string) {
		fmt.Fprintf(progress, "bench: %s (%v so far)\n", what, time.Since(start).Round(time.Second))
	}

	step("discovery")
	if err := discoveryRows(ctx, t, procs.dir, o, reps); err != nil {
		return nil, err
	}
	step("serve start with 20 stored servers")
	start20, err := procs.serveStartTwenty(ctx, 120, reps.serveStarts)
	if err != nil {
		return nil, err
	}
	t.addStartRow(fmt.Sprintf("20 stored servers, 2,400 tools, %d prompts, resources and templates", 20*(TwentyPrompts+TwentyResources+TwentyTemplates)), start20)

	step("run overhead")
	ov, err := procs.runOverhead(ctx, reps.runCalls)
	if err != nil {
		return nil, err
	}
	t.add("run overhead vs a direct call (p50)", fmt.Sprintf("+%s (bridge %s, direct %s)", ms(ov.bridge-ov.direct), ms(ov.bridge), ms(ov.direct)),
		fmt.Sprintf("%d calls each, interleaved, stdio both ways; target ≤ +0.5 ms on a quiet machine (where the time goes: go test -bench BenchmarkRun ./bridge/)", ov.calls),
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
	t.add("index 5,000 tools (~15.7 MB, one server)", fmt.Sprintf("%s, peak RSS %s", ms(big.index.wall), MiB(big.index.maxRSS)),
		fmt.Sprintf("capbridge index from scratch: %d stored, %d refused; target peak ≤ %d MiB", big.index.stored, big.index.refused, IndexRSSTargetMiB),
		map[string]float64{"ms": msf(big.index.wall), "peak_rss_mib": mibf(big.index.maxRSS)})
	t.add("refresh 5,000 tools (unchanged)", fmt.Sprintf("%s, peak RSS %s", ms(big.refresh.wall), MiB(big.refresh.maxRSS)), "capbridge index again",
		map[string]float64{"ms": msf(big.refresh.wall), "peak_rss_mib": mibf(big.refresh.maxRSS)})
	step("serve start with 5,000 stored tools")
	start5k, err := procs.serveStartOn(ctx, filepath.Join(procs.dir, "big.json"), filepath.Join(procs.dir, "big.db"), reps.serveStarts)
	if err != nil {
		return nil, err
	}
	t.addStartRow(fmt.Sprintf("5,000 stored tools, %d prompts, resources and templates", BigPrompts+BigResources+BigTemplates), start5k)
	t.add("serve peak RSS, 5,000 tools", MiB(big.servePeak),
		fmt.Sprintf("VmHWM after %d discoveries over stdio (p50 %s, p95 %s) and listing every prompt and resource; target ≤ %d MiB", big.discoveries, ms(big.discP50), ms(big.discP95), ServeRSSTargetMiB),
		map[string]float64{"peak_rss_mib": mibf(big.servePeak), "discover_p50_ms": msf(big.discP50), "discover_p95_ms": msf(big.discP95)})
	t.add("serve peak RSS, 5,000 tools, after a first run", MiB(big.runPeak),
		fmt.Sprintf("VmHWM after one run_capability: the bridge starts the server and re-lists its catalog before the call (re-indexed only if the listing changed); target ≤ %d MiB", ServeRunRSSTargetMiB),
		map[string]float64{"peak_rss_mib": mibf(big.runPeak)})

	if _, err := os.Stat(o.Laptop); o.Laptop != "" && err == nil {
		step("replaying " + o.Laptop)
		servers, tools, f, err := procs.replayCatalog(ctx, o.Laptop)
		if err != nil {
			return nil, err
		}
		t.add(fmt.Sprintf("index %s (%d servers, %d tools)", o.Laptop, servers, tools), fmt.Sprintf("%s, peak RSS %s", ms(f.wall), MiB(f.maxRSS)),
			fmt.Sprintf("from scratch, one demo-server replay process per server; %d stored, %d refused", f.stored, f.refused),
			map[string]float64{"ms": msf(f.wall), "peak_rss_mib": mibf(f.maxRSS)})
	} else {
		t.add("index a recorded catalog", "skipped", fmt.Sprintf("no catalog at %q (--laptop FILE)", o.Laptop), nil)
	}
	t.add("bench process peak RSS", MiB(selfMaxRSS()), "in-process discovery stores up to 5,000 tools with vectors", map[string]float64{"peak_rss_mib": mibf(selfMaxRSS())})
	t.LoadAfter = loadAverage()
	t.Took = time.Since(start).Round(time.Second).String()
	return t, nil
}

// discoveryRows measures search latency at 100, 1,000 and 5,000 tools,
// without and with vectors.
func discoveryRows(ctx context.Context, t *Report, dir string, o Options, reps benchReps) error {
	sizes := []int{100, 1000, 5000}
	lines, source, err := benchCatalogLines(ctx, o.Catalogs, sizes[len(sizes)-1])
	if err != nil {
		return err
	}
	queries, err := benchQueries(o.Queries)
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
				fmt.Sprintf("%s%d searches (search.Search, limit 5), %s CPU each; load %s", note, f.searches, ms(f.cpu), ms(f.load)),
				map[string]float64{"tools": float64(n), "p50_ms": msf(f.p50), "p95_ms": msf(f.p95), "cpu_ms": msf(f.cpu), "load_ms": msf(f.load)})
		}
	}
	return nil
}

// shapeRow measures output.Shape on a 500-record JSON result.
func shapeRow(t *Report, reps int) error {
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
	p50 := search.Percentile(took, 50)
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

// Print writes the table as Markdown.
func (t *Report) Print(w io.Writer) {
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
