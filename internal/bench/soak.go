package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/errgroup"
)

// soakWorkers is how many clients' worth of calls run at once in a soak.
const soakWorkers = 4

// soakTask is one kind of request the soak makes: discover intent, run the
// card of provider's tool with params, and follow one cursor when paged.
type soakTask struct {
	intent, provider, tool string
	params                 func(i int) map[string]any
}

var soakTasks = []soakTask{
	{"get a ticket by id", "helpdesk", "get_ticket", func(i int) map[string]any { return map[string]any{"ticket_id": fmt.Sprintf("TCK-%06d", i%1000000)} }},
	{"add a comment to a ticket", "helpdesk", "add_comment", func(i int) map[string]any {
		return map[string]any{"ticket_id": fmt.Sprintf("TCK-%06d", i%1000000), "body": fmt.Sprintf("soak comment %d", i)}
	}},
	{"list the comments of a ticket", "helpdesk", "list_ticket_comments", func(i int) map[string]any { return map[string]any{"ticket_id": "TCK-000042", "limit": 300} }},
	{"look up a customer by email", "crm", "lookup_customer_by_email", func(i int) map[string]any { return map[string]any{"email": fmt.Sprintf("user%d@example.com", i)} }},
	{"list calendar events this week", "calendar", "list_events", func(int) map[string]any {
		return map[string]any{"time_min": "2026-11-30T00:00:00Z", "time_max": "2026-12-07T00:00:00Z"}
	}},
	{"read a file", "files", "read_file", func(i int) map[string]any { return map[string]any{"path": fmt.Sprintf("/tmp/soak/%d.txt", i)} }},
}

// soakCounts tally the soak's outcomes.
type soakCounts struct {
	discoveries, runs, pages, ok, upstreamErrors, otherStatus, misses, protocolErrors atomic.Int64
}

// soakSample is one look at the process.
type soakSample struct {
	at        time.Duration
	rss, heap int64
	goHeld    int64 // memory the Go runtime holds from the OS (Sys - HeapReleased)
	// heapGoal is the heap size at which the next collection starts:
	// twice the live heap (GOGC=100). Go-held follows it, not the heap.
	heapGoal                int64
	goroutines, fds, childs int
	gauges                  bridge.Gauges
}

// notGo is the part of RSS the Go runtime does not account for: the
// binary, SQLite's C allocations (modernc.org/libc maps its own memory)
// and the database's memory map.
func (s soakSample) notGo() int64 { return s.rss - s.goHeld }

// runSoak runs mixed discover/run traffic for d through a bridge in this
// process (in-memory client transport, real upstream child processes that
// crash at a random call), printing a sample every 30 s and a verdict.
func runSoak(ctx context.Context, procs benchProcs, d time.Duration, w io.Writer) error {
	servers := map[string]benchServer{}
	for _, name := range []string{"helpdesk", "calendar", "crm"} {
		// Each start of the server picks its crash from its pid: every
		// process dies in the middle of one of its first ~30 calls.
		servers[name] = benchServer{Command: "sh", Args: []string{"-c",
			`CAPBRIDGE_DEMO_FAULT=crash-on-call:$(( $$ % 28 + 3 )) exec "$0" "$@"`, procs.exe, "demo-server", "--server", name}}
	}
	servers["files"] = procs.demoServer("--server", "files") // healthy
	cfgPath, err := procs.writeConfig("soak", servers)
	if err != nil {
		return err
	}
	db := filepath.Join(procs.dir, "soak.db")
	if _, err := procs.index(ctx, cfgPath, db); err != nil {
		return err
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	logger := slog.New(slog.DiscardHandler)
	baseline := sampleSoak(0, nil)
	st, err := store.Open(ctx, db, &store.Options{Logger: logger})
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	defer st.Close()
	b, err := bridge.New(cfg, st, &bridge.Options{Logger: logger})
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}

	serveCtx, stopServe := context.WithCancel(ctx)
	ct, stT := mcp.NewInMemoryTransports()
	var serving sync.WaitGroup
	serving.Go(func() { b.Serve(serveCtx, stT) })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "capbridge-soak", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		stopServe()
		serving.Wait()
		b.Close()
		return fmt.Errorf("soak: connecting: %w", err)
	}

	interval := min(30*time.Second, max(d/4, time.Second))
	fmt.Fprintf(w, "capbridge bench --soak %v: %d workers; helpdesk, calendar and crm crash at a random call of each process, files is healthy; a sample every %v\n",
		d, soakWorkers, interval)
	fmt.Fprintln(w, "| at | RSS | Go-held | RSS - Go-held | heap goal | heap | goroutines | fds | children | actions numbered | paged results | cursors | page bytes | discoveries | runs | ok | upstream_error | other | misses | protocol errors |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	var counts soakCounts
	start := time.Now()
	runCtx, stopRun := context.WithTimeout(ctx, d)
	defer stopRun()
	g, gctx := errgroup.WithContext(runCtx)
	for wk := range soakWorkers {
		g.Go(func() error { soakWorker(gctx, cs, wk, &counts); return nil })
	}
	var samples []soakSample
	tick := time.NewTicker(interval)
	for done := false; !done; {
		select {
		case <-tick.C:
			s := sampleSoak(time.Since(start), b)
			samples = append(samples, s)
			printSample(w, s, &counts)
		case <-runCtx.Done():
			done = true
		}
	}
	tick.Stop()
	g.Wait()
	cs.Close()
	stopServe()
	serving.Wait()
	last := sampleSoak(time.Since(start), b)
	samples = append(samples, last)
	if err := b.Close(); err != nil {
		return fmt.Errorf("soak: closing the bridge: %w", err)
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("soak: closing the store: %w", err)
	}
	time.Sleep(200 * time.Millisecond) // let closed sessions' goroutines return
	closed := sampleSoak(time.Since(start), nil)
	printSample(w, last, &counts)
	fmt.Fprintf(w, "\nafter closing the bridge and the store: goroutines %d (before opening them %d), fds %d (before %d), children %d (before %d)\n",
		closed.goroutines, baseline.goroutines, closed.fds, baseline.fds, closed.childs, baseline.childs)
	fmt.Fprintln(w, soakVerdict(samples, baseline, closed, &counts))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// soakWorker makes requests until ctx ends.
func soakWorker(ctx context.Context, cs *mcp.ClientSession, worker int, c *soakCounts) {
	rng := rand.New(rand.NewPCG(uint64(worker), 7))
	for i := worker * 1_000_000; ctx.Err() == nil; i++ {
		task := soakTasks[rng.IntN(len(soakTasks))]
		c.discoveries.Add(1)
		id, err := discoverID(ctx, cs, task.intent, task.provider, task.tool)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			c.misses.Add(1) // the loose wording missed; the exact form must not
			c.discoveries.Add(1)
			if id, err = discoverID(ctx, cs, task.provider+"/"+task.tool, task.provider, task.tool); err != nil {
				c.protocolErrors.Add(1)
				continue
			}
		}
		c.runs.Add(1)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": id, "params": task.params(i)}})
		if err != nil {
			if ctx.Err() == nil {
				c.protocolErrors.Add(1)
			}
			continue
		}
		tallyRun(res, c)
		if cursor := nextCursor(textOf(res)); cursor != "" {
			c.pages.Add(1)
			page, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"cursor": cursor}})
			if err == nil && page.IsError {
				c.otherStatus.Add(1)
			}
		}
	}
}

// tallyRun counts one run_capability answer by its status.
func tallyRun(res *mcp.CallToolResult, c *soakCounts) {
	if !res.IsError {
		c.ok.Add(1)
		return
	}
	var ans struct {
		Status string `json:"status"`
	}
	json.Unmarshal([]byte(textOf(res)), &ans)
	if ans.Status == "upstream_error" {
		c.upstreamErrors.Add(1)
	} else {
		c.otherStatus.Add(1)
	}
}

// nextCursor finds the cursor of a truncated page's last line.
func nextCursor(text string) string {
	const mark = `{"cursor":"`
	i := len(text) - 200
	if i < 0 {
		i = 0
	}
	tail := text[i:]
	for j := 0; j+len(mark) <= len(tail); j++ {
		if tail[j:j+len(mark)] == mark {
			rest := tail[j+len(mark):]
			for k := range len(rest) {
				if rest[k] == '"' {
					return rest[:k]
				}
			}
		}
	}
	return ""
}

// sampleSoak looks at this process after a collection, and at b's gauges
// unless b is nil.
func sampleSoak(at time.Duration, b *bridge.Server) soakSample {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	pid := os.Getpid()
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(goal)
	s := soakSample{at: at, heap: int64(m.HeapAlloc), goHeld: int64(m.Sys - m.HeapReleased), goroutines: runtime.NumGoroutine(), childs: len(childPids(pid))}
	if goal[0].Value.Kind() == metrics.KindUint64 {
		s.heapGoal = int64(goal[0].Value.Uint64())
	}
	if b != nil {
		s.gauges = b.Gauges()
	}
	s.rss, _ = ProcStatusBytes(pid, "VmRSS")
	s.fds, _ = procOpenFDs(pid)
	return s
}

func printSample(w io.Writer, s soakSample, c *soakCounts) {
	fmt.Fprintf(w, "| %v | %s | %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n",
		s.at.Round(time.Second), MiB(s.rss), MiB(s.goHeld), MiB(s.notGo()), MiB(s.heapGoal), MiB(s.heap), s.goroutines, s.fds, s.childs,
		s.gauges.Actions, s.gauges.PagedResults, s.gauges.Cursors, s.gauges.PageBytes,
		c.discoveries.Load(), c.runs.Load(), c.ok.Load(), c.upstreamErrors.Load(), c.otherStatus.Load(), c.misses.Load(), c.protocolErrors.Load())
}

// Growth a soak tolerates over the second half of its samples before
// calling it growing. Memory is judged by its trend (see trend), not by
// its two ends: one sample may catch a few large results in flight (the
// heap after a collection jumped by 45 MiB for one sample of a 15-minute
// soak), and Go returns freed pages lazily. The heap after a collection
// may grow by 8 MiB; RSS and Go-held by 16 MiB or a tenth (Go keeps about
// twice the live heap, so they wander twice as far); RSS - Go-held,
// SQLite's side, by 8 MiB. Goroutines and fds, counted at the two ends,
// by 16.
const (
	soakHeapSlack  = 8 << 20
	soakHeldSlack  = 16 << 20
	soakHeldShare  = 0.1
	soakNotGoSlack = 8 << 20
	soakCountSlack = 16
)

// trend is how much v grew over samples: the median of the slopes between
// every two samples (Theil-Sen, which a few outliers do not move) times
// the time from the first sample to the last.
func trend(samples []soakSample, v func(soakSample) int64) int64 {
	var slopes []float64
	for i := range samples {
		for j := i + 1; j < len(samples); j++ {
			if dt := samples[j].at - samples[i].at; dt > 0 {
				slopes = append(slopes, float64(v(samples[j])-v(samples[i]))/float64(dt))
			}
		}
	}
	if len(slopes) == 0 {
		return 0
	}
	slices.Sort(slopes)
	n := len(slopes)
	median := slopes[n/2]
	if n%2 == 0 {
		median = (slopes[n/2-1] + slopes[n/2]) / 2
	}
	return int64(median * float64(samples[len(samples)-1].at-samples[0].at))
}

// soakVerdict says whether memory and resources stayed flat over the second
// half of the samples (in the first minutes the pager fills towards its byte
// cap and caches warm: bounded growth, not a leak), and whether anything was
// left behind once the bridge and store were closed. Cursors are kept
// while live, 10 minutes, so in a soak shorter than twice that they may
// still grow. Action ids cost nothing; the tools they name are numbered
// once each, and the verdict names any numbered meanwhile.
func soakVerdict(samples []soakSample, baseline, closed soakSample, c *soakCounts) string {
	if len(samples) < 3 {
		return "verdict: too short to judge (fewer than 3 samples); run longer"
	}
	half := samples[len(samples)/2:]
	first, last := half[0], half[len(half)-1]
	span := (last.at - first.at).Round(time.Second)
	var growing []string
	memory := func(what string, v func(soakSample) int64, slack int64) {
		if g := trend(half, v); g > slack {
			growing = append(growing, fmt.Sprintf("%s +%s over %v (samples %s -> %s)", what, MiB(g), span, MiB(v(first)), MiB(v(last))))
		}
	}
	heldSlack := func(v int64) int64 { return max(soakHeldSlack, int64(soakHeldShare*float64(v))) }
	memory("heap", func(s soakSample) int64 { return s.heap }, soakHeapSlack)
	memory("RSS", func(s soakSample) int64 { return s.rss }, heldSlack(first.rss))
	memory("Go-held", func(s soakSample) int64 { return s.goHeld }, heldSlack(first.goHeld))
	memory("RSS - Go-held", soakSample.notGo, soakNotGoSlack)
	if last.goroutines-first.goroutines > soakCountSlack {
		growing = append(growing, fmt.Sprintf("goroutines %d -> %d", first.goroutines, last.goroutines))
	}
	if last.fds-first.fds > soakCountSlack {
		growing = append(growing, fmt.Sprintf("fds %d -> %d", first.fds, last.fds))
	}
	if closed.goroutines > baseline.goroutines+4 || closed.fds > baseline.fds+2 || closed.childs > baseline.childs {
		growing = append(growing, "left behind after Close")
	}
	if c.protocolErrors.Load() > 0 {
		growing = append(growing, fmt.Sprintf("%d protocol errors", c.protocolErrors.Load()))
	}
	judged := fmt.Sprintf("from %v to %v: heap %s -> %s, heap goal %s -> %s, Go-held %s -> %s, RSS %s -> %s, RSS - Go-held %s -> %s, goroutines %d -> %d, fds %d -> %d; page bytes %d -> %d (capped by the pager), actions numbered for ids %d -> %d (ids themselves cost nothing); %d runs, %d upstream_error from crashes",
		first.at.Round(time.Second), last.at.Round(time.Second), MiB(first.heap), MiB(last.heap), MiB(first.heapGoal), MiB(last.heapGoal),
		MiB(first.goHeld), MiB(last.goHeld), MiB(first.rss), MiB(last.rss), MiB(first.notGo()), MiB(last.notGo()),
		first.goroutines, last.goroutines, first.fds, last.fds, first.gauges.PageBytes, last.gauges.PageBytes,
		first.gauges.Actions, last.gauges.Actions, c.runs.Load(), c.upstreamErrors.Load())
	if len(growing) > 0 {
		if n := last.gauges.Actions - first.gauges.Actions; n > 0 {
			growing = append(growing, fmt.Sprintf("while %d more actions were numbered", n))
		}
		return fmt.Sprintf("verdict: GROWING: %v (%s)", growing, judged)
	}
	return "verdict: flat (" + judged + ")"
}
