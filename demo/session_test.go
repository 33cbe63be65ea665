package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// demoCatalogPath is the demo catalog as the binary embeds it.
const demoCatalogPath = "catalog/tools.jsonl"

// demoTools reads the whole demo catalog.
func demoTools(t testing.TB) []json.RawMessage {
	t.Helper()
	f, err := os.Open(demoCatalogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tools, err := ReadCatalog(f, "")
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// connect runs a demo server on in-memory transports and returns a real
// client session to it.
func connect(t *testing.T, opts *Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "1"}, copts)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", tool, err)
	}
	return res
}

// text returns the text of a result's only content.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("got %d contents, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// listAll lists every tool, page by page, and returns them with the number
// of pages.
func listAll(t *testing.T, cs *mcp.ClientSession) ([]*mcp.Tool, int) {
	t.Helper()
	var (
		tools  []*mcp.Tool
		cursor string
	)
	for pages := 1; ; pages++ {
		res, err := cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, pages
		}
		if pages > 1000 {
			t.Fatal("more than 1000 pages")
		}
		cursor = res.NextCursor
	}
}

// rawPeer speaks newline-delimited JSON-RPC to [ServeStdio] over pipes, so a
// test sees every byte the server writes. A goroutine reads the server's
// stdout into lines, so the server never blocks on a write the test has not
// asked for yet.
type rawPeer struct {
	in    io.WriteCloser
	lines chan string
}

// serveRaw runs ServeStdio on pipes and returns the client's end.
func serveRaw(t *testing.T, opts *Options) *rawPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &rawPeer{in: inW, lines: make(chan string, 1024)}
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), inR, outW, opts)
		outW.Close()
	}()
	go func() {
		defer close(p.lines)
		r := bufio.NewReaderSize(outR, 1<<20)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			p.lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop after stdin closed")
		}
	})
	return p
}

func (p *rawPeer) send(t *testing.T, msg string) {
	t.Helper()
	if _, err := io.WriteString(p.in, msg+"\n"); err != nil {
		t.Fatal(err)
	}
}

// line returns the next line the server wrote, without its newline.
func (p *rawPeer) line(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatal("server closed stdout")
		}
		return l
	case <-time.After(5 * time.Second):
		t.Fatal("no line from the server in 5s")
		return ""
	}
}

const (
	rawInitialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	rawInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)
