package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/internal/cputime"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a discovery costs, layer by layer, over two catalogs of 5,000 tools:
//
//   - catalog=synthetic: the one TestLoadBigCatalog serves (one server of
//     synthetic demo tools, `demo-server --fault big-catalog:5000`) and its
//     five intents;
//   - catalog=shared: search's BenchmarkSearch mix of the shared real
//     catalogs (laptop, twilio, MetaTool, BFCL, cycled to 5,000 under
//     renamed servers) and its BFCL and MetaTool queries.
//
// and, for each, the layers:
//
//   - search:  search.Searcher.Search alone, scoped as discover scopes it;
//   - answer:  the handler's work after the search: cards from the ranked
//     rows, fitting them to the budgets, action ids, the answer's JSON;
//   - handler: the discover_capability handler (search, cards, fitting,
//     action ids, answer JSON), called directly;
//   - memory:  a real go-sdk client calling it through the bridge's server
//     over mcp.NewInMemoryTransports;
//   - stdio:   the same client through [NewStdioTransport] (stdin guard,
//     locked writer, draining connection) over OS pipes: serve over stdio
//     without the process boundary;
//   - process: the same client talking to a `capbridge serve` child over
//     its stdin and stdout (mcp.CommandTransport), as TestLoadBigCatalog
//     does; its cpu-ms/op counts the client's process only.
//
// Every discovery asks for limit 5. Each layer reports p50-ms and p95-ms
// over the timed calls, and cpu-ms/op (the process's CPU, the client's
// included), which a busy machine does not inflate as it does wall time.
// Profile one layer with, e.g.,
//
//	go test -run '^$' -bench 'BenchmarkDiscover/catalog=synthetic/stdio' -benchtime 2000x -cpuprofile cpu.out ./bridge/
//
// or, to profile the timed calls alone without the catalog's loading, set
// BENCH_DISCOVER_PROFILES to a directory: each layer writes its CPU
// profile there (catalog=synthetic_stdio.cpu and so on).
func BenchmarkDiscover(b *testing.B) {
	const tools = 5000
	b.Run("catalog=synthetic", func(b *testing.B) {
		intents := []string{"export invoices from billing", "approve a shipment", "sync sensor data", "archive old builds", "restore a policy"}
		benchDiscoverLayers(b, benchCatalog{"big": syntheticCatalog(b, tools)}, intents)
	})
	b.Run("catalog=shared", func(b *testing.B) {
		benchDiscoverLayers(b, sharedCatalog(b, tools), sharedQueries(b))
	})
}

// benchCatalog is a catalog by server, each server's tools as tools/list
// sends them.
type benchCatalog map[string][]json.RawMessage

// benchDiscoverLayers stores catalog and times discoveries of intents, in
// turn, at each layer of a Server over it.
func benchDiscoverLayers(b *testing.B, catalog benchCatalog, intents []string) {
	ctx := context.Background()
	dir := b.TempDir()
	// A config file, for serve as much as for the Bridge: servers that are
	// never started, stored as if indexed from this very config, so that
	// nothing is indexed again.
	entries := map[string]any{}
	for name := range catalog {
		entries[name] = map[string]any{"command": "capbridge-bench-never-started"}
	}
	cfgPath, cfg, st := benchConfigAndStore(ctx, b, dir, entries)
	stored := 0
	for name, raws := range catalog {
		srv := store.Server{Name: name, Fingerprint: cfg.Servers[name].Fingerprint(), State: store.StateStored, LastListed: time.Now()}
		rep, err := search.Ingest(ctx, st, srv, raws, nil)
		if err != nil {
			b.Fatal(err)
		}
		stored += rep.Stored
	}
	if stored == 0 {
		b.Fatal("no tool stored")
	}
	br, err := New(cfg, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { br.Close() })

	args := make([]json.RawMessage, len(intents))
	for i, intent := range intents {
		args[i], _ = json.Marshal(map[string]any{"intent": intent, "limit": 5})
	}

	b.Run("search", func(b *testing.B) {
		q := search.Query{Limit: 5, Allowed: Scope(cfg)}
		timeDiscoveries(b, func(i int) error {
			_, err := br.searcher.Search(ctx, intents[i%len(intents)], q)
			return err
		})
	})
	b.Run("answer", func(b *testing.B) {
		ranked := make([][]search.Result, len(intents))
		for i, intent := range intents {
			var err error
			if ranked[i], err = br.searcher.Search(ctx, intent, search.Query{Limit: 5, Allowed: Scope(cfg)}); err != nil {
				b.Fatal(err)
			}
		}
		timeDiscoveries(b, func(i int) error {
			ans, err := br.fitDiscovery("session", br.cards(ranked[i%len(ranked)]), 0)
			if err != nil {
				return err
			}
			return discoveredOK(textAnswer(ans, false), nil)
		})
	})
	b.Run("handler", func(b *testing.B) {
		timeDiscoveries(b, func(i int) error {
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: DiscoverTool, Arguments: args[i%len(args)]}}
			res, err := br.discover(ctx, req)
			return discoveredOK(res, err)
		})
	})
	b.Run("memory", func(b *testing.B) {
		ct, sst := mcp.NewInMemoryTransports()
		ss, err := br.MCP().Connect(ctx, sst, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs := benchClient(b, ct)
		timeDiscoveries(b, func(i int) error {
			return discoveredOK(cs.CallTool(ctx, &mcp.CallToolParams{Name: DiscoverTool, Arguments: args[i%len(args)]}))
		})
	})
	b.Run("stdio", func(b *testing.B) {
		cs := stdioClient(ctx, b, br, time.Second)
		timeDiscoveries(b, func(i int) error {
			return discoveredOK(cs.CallTool(ctx, &mcp.CallToolParams{Name: DiscoverTool, Arguments: args[i%len(args)]}))
		})
	})
	b.Run("process", func(b *testing.B) {
		bin, err := demoBinary()
		if err != nil {
			b.Fatalf("building capbridge: %v", err)
		}
		cmd := exec.Command(bin, "serve", "--config", cfgPath, "--db", st.Path(), "--log-level", "warn")
		cmd.Stderr = os.Stderr
		cs := benchClient(b, &mcp.CommandTransport{Command: cmd})
		timeDiscoveries(b, func(i int) error {
			return discoveredOK(cs.CallTool(ctx, &mcp.CallToolParams{Name: DiscoverTool, Arguments: args[i%len(args)]}))
		})
	})
}

// sharedCatalogFiles are mixed, in this order, as search's BenchmarkSearch
// mixes them.
var sharedCatalogFiles = []string{
	filepath.Join("..", "testdata", "catalogs", "laptop.jsonl.gz"),
	filepath.Join("..", "testdata", "catalogs", "twilio-all.jsonl.gz"),
	filepath.Join("..", "testdata", "bench", "retrieval_metatool", "catalog.jsonl.gz"),
	filepath.Join("..", "testdata", "bench", "retrieval_bfcl", "catalog.jsonl.gz"),
}

// sharedCatalog returns the first n tools of the shared catalogs,
// cycling through them again under renamed servers ("name-1"...) until
// there are n.
func sharedCatalog(b *testing.B, n int) benchCatalog {
	b.Helper()
	out := benchCatalog{}
	for round, count := 0, 0; count < n; round++ {
		for _, path := range sharedCatalogFiles {
			f, err := search.OpenFile(path)
			if err != nil {
				b.Fatalf("bench catalog missing: %v", err)
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			for line := range bytes.Lines(data) {
				if count == n || len(bytes.TrimSpace(line)) == 0 {
					continue
				}
				var obj map[string]json.RawMessage
				var server string
				if err := json.Unmarshal(line, &obj); err != nil || json.Unmarshal(obj["server"], &server) != nil {
					b.Fatalf("reading %s: a line without a server: %v", path, err)
				}
				if round > 0 {
					server = fmt.Sprintf("%s-%d", server, round)
				}
				delete(obj, "server")
				raw, err := json.Marshal(obj)
				if err != nil {
					b.Fatal(err)
				}
				out[server] = append(out[server], raw)
				count++
			}
		}
	}
	return out
}

// sharedQueries are the first 250 BFCL and 250 MetaTool queries, as
// search's BenchmarkSearch asks them.
func sharedQueries(b *testing.B) []string {
	b.Helper()
	var out []string
	for _, set := range []string{"retrieval_bfcl", "retrieval_metatool"} {
		f, err := search.OpenFile(filepath.Join("..", "testdata", "bench", set, "queries.jsonl.gz"))
		if err != nil {
			b.Fatalf("bench queries missing: %v", err)
		}
		qs, err := search.ReadQueries(f)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range qs[:min(250, len(qs))] {
			out = append(out, q.Query)
		}
	}
	return out
}

// timeDiscoveries runs discover(i) b.N times and reports the percentiles
// and CPU per call besides ns/op.
func timeDiscoveries(b *testing.B, discover func(i int) error) {
	for i := range 3 { // warm the caches the first calls fill
		if err := discover(i); err != nil {
			b.Fatal(err)
		}
	}
	took := make([]time.Duration, 0, b.N)
	stopProfile := profileCPU(b)
	cpu := cputime.Process()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if err := discover(i); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	stopProfile()
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(time.Millisecond)/float64(len(took)), "cpu-ms/op")
	slices.Sort(took)
	for _, p := range []int{50, 95} {
		b.ReportMetric(float64(took[(len(took)-1)*p/100])/float64(time.Millisecond), fmt.Sprintf("p%d-ms", p))
	}
}

// profileCPU starts a CPU profile of b's timed calls when
// BENCH_DISCOVER_PROFILES names a directory, and returns what stops it.
func profileCPU(b *testing.B) (stop func()) {
	dir := os.Getenv("BENCH_DISCOVER_PROFILES")
	if dir == "" {
		return func() {}
	}
	name := strings.ReplaceAll(strings.TrimPrefix(b.Name(), "BenchmarkDiscover/"), "/", "_")
	f, err := os.Create(filepath.Join(dir, name+".cpu"))
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		b.Fatalf("profiling %s (not with -cpuprofile): %v", name, err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Error(err)
		}
	}
}

// discoveredOK is nil when a discovery answered cards.
func discoveredOK(res *mcp.CallToolResult, err error) error {
	if err != nil {
		return err
	}
	if res.IsError || len(res.Content) != 1 {
		return fmt.Errorf("discovery failed: %+v", res)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return fmt.Errorf("discovery answered %T", res.Content[0])
	}
	var ans discovery
	if err := json.Unmarshal([]byte(tc.Text), &ans); err != nil {
		return fmt.Errorf("reading the discovery: %w", err)
	}
	if len(ans.Matches) == 0 {
		return fmt.Errorf("discovery matched nothing: %s", tc.Text)
	}
	return nil
}

// benchClient connects a go-sdk client over t, closed when b ends.
func benchClient(b *testing.B, t mcp.Transport) *mcp.ClientSession {
	b.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), t, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// nopWriteCloser keeps the client from closing its pipe end: the benchmark
// closes it after the session, to end the server's input.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// syntheticCatalog lists n synthetic tools from an in-process demo server
// with the big-catalog fault (the tools `capbridge demo-server --fault
// big-catalog:N` serves), over in-memory transports.
func syntheticCatalog(b *testing.B, n int) []json.RawMessage {
	b.Helper()
	ctx := context.Background()
	srv, err := demo.NewServer(&demo.Options{Name: "big", Fault: demo.Fault{Mode: demo.FaultBigCatalog, N: n}})
	if err != nil {
		b.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs := benchClient(b, ct)
	defer cs.Close()
	var out []json.RawMessage
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			b.Fatal(err)
		}
		raw, err := json.Marshal(tool)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, raw)
	}
	return out
}

// stdioClient serves br over a pair of OS pipes, as serve does over its
// stdin and stdout, and returns a client session on the other ends; both
// are closed when the benchmark ends.
func stdioClient(ctx context.Context, b *testing.B, br *Server, drain time.Duration) *mcp.ClientSession {
	b.Helper()
	toServer, clientOut, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	clientIn, fromServer, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- br.Serve(sctx, NewStdioTransport(toServer, fromServer, drain, nil)) }()
	b.Cleanup(func() {
		clientOut.Close()
		stop()
		<-served
		toServer.Close()
		fromServer.Close()
		clientIn.Close()
	})
	return benchClient(b, &mcp.IOTransport{Reader: clientIn, Writer: nopWriteCloser{clientOut}})
}

// benchConfigAndStore writes a config file of these mcpServers entries in
// dir, loads it, and opens a new catalog there, closed when the benchmark
// ends.
func benchConfigAndStore(ctx context.Context, b *testing.B, dir string, entries map[string]any) (string, *config.File, *store.Store) {
	b.Helper()
	data, err := json.Marshal(map[string]any{"mcpServers": entries})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "catalog.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return path, cfg, st
}
