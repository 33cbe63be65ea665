package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/internal/cputime"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toyDim is the dimension of the toy embeddings, that of small real models
// (all-MiniLM-L6-v2, bge-small).
const toyDim = 384

// catalogLine is one tool of a catalog in the shared JSONL form.
type catalogLine struct {
	server string
	raw    json.RawMessage // the tool without its "server" key
}

// benchCatalogLines reads the tools the discovery rows search: the given
// catalog files in order, or else the built-in demo catalog followed by
// the demo server's synthetic tools (big-catalog), enough for want tools.
func benchCatalogLines(ctx context.Context, files []string, want int) ([]catalogLine, string, error) {
	if len(files) == 0 {
		lines, err := splitCatalog(demo.BuiltinCatalog())
		if err != nil {
			return nil, "", fmt.Errorf("reading the built-in demo catalog: %w", err)
		}
		synth, err := syntheticLines(ctx, want)
		if err != nil {
			return nil, "", err
		}
		return append(lines, synth...), "built-in demo catalog + demo big-catalog synthetic tools", nil
	}
	var all []catalogLine
	var names []string
	for _, f := range files {
		lines, err := readCatalog(f)
		if err != nil {
			return nil, "", fmt.Errorf("reading bench catalog: %w", err)
		}
		all = append(all, lines...)
		names = append(names, filepath.Join(filepath.Base(filepath.Dir(f)), filepath.Base(f)))
	}
	return all, strings.Join(names, " + "), nil
}

// readCatalog reads a JSONL catalog file, gzipped or not.
func readCatalog(path string) ([]catalogLine, error) {
	r, err := search.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	lines, err := splitCatalog(data)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return lines, nil
}

// splitCatalog splits JSONL catalog data into tools with their servers.
func splitCatalog(data []byte) ([]catalogLine, error) {
	var out []catalogLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		var server string
		if err := json.Unmarshal(obj["server"], &server); err != nil || server == "" {
			return nil, fmt.Errorf("line %d: no server name", n)
		}
		delete(obj, "server")
		raw, err := json.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, catalogLine{server: server, raw: raw})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// syntheticLines lists n synthetic tools from an in-process demo server
// with the big-catalog fault, over in-memory transports.
func syntheticLines(ctx context.Context, n int) ([]catalogLine, error) {
	srv, err := demo.NewServer(&demo.Options{Name: "synthetic", Fault: demo.Fault{Mode: demo.FaultBigCatalog, N: n}})
	if err != nil {
		return nil, fmt.Errorf("starting the synthetic catalog: %w", err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("starting the synthetic catalog: %w", err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "capbridge-bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("listing the synthetic catalog: %w", err)
	}
	defer cs.Close()
	var out []catalogLine
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the synthetic catalog: %w", err)
		}
		raw, err := json.Marshal(tool)
		if err != nil {
			return nil, fmt.Errorf("listing the synthetic catalog: %w", err)
		}
		out = append(out, catalogLine{server: "synthetic", raw: raw})
	}
	return out, nil
}

// firstTools takes n tools from lines, cycling through them again under
// renamed servers ("name-2"...) when lines holds fewer.
func firstTools(lines []catalogLine, n int) []catalogLine {
	out := make([]catalogLine, 0, n)
	for round := 1; len(out) < n && len(lines) > 0; round++ {
		for _, l := range lines {
			if len(out) == n {
				break
			}
			if round > 1 {
				l.server = fmt.Sprintf("%s-%d", l.server, round)
			}
			out = append(out, l)
		}
	}
	return out
}

// catalogJSONL writes tools back in the shared JSONL form, for
// search.LoadCatalog (which ingests one server at a time, like index, and
// merges the search index segments).
func catalogJSONL(tools []catalogLine) ([]byte, error) {
	var b bytes.Buffer
	for _, t := range tools {
		server, err := json.Marshal(t.server)
		if err != nil {
			return nil, err
		}
		b.WriteString(`{"server":`)
		b.Write(server)
		if rest := bytes.TrimPrefix(bytes.TrimSpace(t.raw), []byte("{")); len(bytes.TrimSpace(rest)) > 1 {
			b.WriteByte(',')
			b.Write(rest)
		} else {
			b.WriteByte('}')
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// builtinIntents are the default discovery queries: loose wordings of tasks
// across the demo catalog and the synthetic tools, typos included.
var builtinIntents = []string{
	"open a support ticket for a broken login", "list my open tickets", "add a comment to ticket 42",
	"escalate an urgent case", "close the ticket as resolved", "find free time with Ana next week",
	"schedule a meeting tomorrow at 10", "cancel my 3pm event", "who is busy on friday",
	"look up a customer by email", "create a new contact", "move the deal to negotiation",
	"log a phone call with a client", "reset a customer's password", "export customers to csv",
	"read the config file", "write notes to a file", "search files for TODO", "zip these files",
	"share a file with a link", "export invoices from billing", "approve a shipment",
	"sync sensor readings", "archive old builds", "restore a security policy", "delete a dataset",
	"update an order in sales", "list alerts in ops", "get a workspace in admin", "calender invite",
	"custmer lookup", "tickt comments", "send an invoice reminder", "rotate an api token",
}

// benchQueries reads the query texts of queries.jsonl files, or returns the
// built-in intents.
func benchQueries(files []string) ([]string, error) {
	if len(files) == 0 {
		return builtinIntents, nil
	}
	var out []string
	for _, f := range files {
		r, err := search.OpenFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading bench queries: %w", err)
		}
		qs, err := search.ReadQueries(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("reading bench queries %s: %w", f, err)
		}
		for _, q := range qs {
			out = append(out, q.Query)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("reading bench queries: no queries in the files")
	}
	return out, nil
}

// discoveryFigures are the latencies of one catalog size with or without
// vectors.
type discoveryFigures struct {
	tools    int
	vectors  bool
	load     time.Duration // loading and indexing the catalog
	p50, p95 time.Duration
	cpu      time.Duration // process CPU per search (0: unknown)
	searches int
}

// measureDiscovery loads n tools into a fresh store in dir (embedding them
// with emb when not nil) and times searches (limit 5, as discovery with the
// largest limit) over queries.
func measureDiscovery(ctx context.Context, dir string, lines []catalogLine, n int, emb *search.Embedder, queries []string, searches int) (discoveryFigures, error) {
	f := discoveryFigures{tools: n, vectors: emb != nil, searches: searches}
	path := filepath.Join(dir, fmt.Sprintf("discovery-%d-%t.db", n, emb != nil))
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		return f, fmt.Errorf("opening the bench store: %w", err)
	}
	defer st.Close()
	data, err := catalogJSONL(firstTools(lines, n))
	if err != nil {
		return f, fmt.Errorf("writing the bench catalog: %w", err)
	}
	start := time.Now()
	if _, err := search.LoadCatalog(ctx, st, bytes.NewReader(data), &search.IngestOptions{Embedder: emb}); err != nil {
		return f, fmt.Errorf("loading %d tools: %w", n, err)
	}
	f.load = time.Since(start)
	s := search.New(st, &search.Options{Embedder: emb})
	for i := range min(10, len(queries)) { // warm the caches, as a serving bridge has
		if _, err := s.Search(ctx, queries[i], search.Query{Limit: 5}); err != nil {
			return f, fmt.Errorf("searching %d tools: %w", n, err)
		}
	}
	took := make([]time.Duration, 0, searches)
	cpu := cputime.Process()
	for i := range searches {
		start := time.Now()
		if _, err := s.Search(ctx, queries[i%len(queries)], search.Query{Limit: 5}); err != nil {
			return f, fmt.Errorf("searching %d tools: %w", n, err)
		}
		took = append(took, time.Since(start))
	}
	if cpu > 0 {
		f.cpu = (cputime.Process() - cpu) / time.Duration(searches)
	}
	f.p50, f.p95 = search.Percentile(took, 50), search.Percentile(took, 95)
	return f, nil
}

// toyEmbeddings serves [search.ToyEmbeddings] of toyDim dimensions on a
// loopback port until ctx ends, so the vector leg's real path (HTTP
// client, vec0 KNN) is measured; it says nothing of a model's own latency.
func toyEmbeddings(ctx context.Context) (url string, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("starting the toy embeddings endpoint: %w", err)
	}
	srv := &http.Server{Handler: search.ToyEmbeddings(toyDim), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) // returns when ctx ends and AfterFunc closes the server
	context.AfterFunc(ctx, func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/v1", nil
}
