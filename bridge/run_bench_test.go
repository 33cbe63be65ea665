package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a run_capability costs, layer by layer, for helpdesk's get_ticket (a
// small record) served by a real `capbridge demo-server --server helpdesk`
// child over stdio:
//
//   - decode:   the handler reading run_capability's arguments (decodeExact);
//   - alias:    mapping the card's input names back to the provider's
//     (schema.Record.ProviderArgs);
//   - validate: schema.Validator.Check, which decodes, maps aliases, finds
//     missing inputs and validates against the exact schema;
//   - upstream: the upstream round trip alone, Upstreams.Call (go-sdk
//     client, stdio, the demo server);
//   - direct:   a go-sdk client calling the demo server itself over stdio,
//     as an agent would without the bridge (the baseline);
//   - shape:    output.Shape and Pager.First on the upstream's result;
//   - handler:  the run_capability handler called directly: all of the
//     above but direct, and the handle, drift check and telemetry;
//   - memory:   a go-sdk client calling the handler through the bridge's
//     server over mcp.NewInMemoryTransports (adds the SDK, both ends);
//   - stdio:    the same client through NewStdioTransport over OS pipes:
//     serve without the process boundary. stdio - direct is what the
//     bridge adds to a direct call, less one process hop.
//
// Each layer reports p50-ms, p95-ms and cpu-ms/op, as BenchmarkDiscover:
//
//	go test -run '^$' -bench BenchmarkRun -benchtime 2000x ./bridge/
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	bin, err := demoBinary()
	if err != nil {
		b.Fatalf("building capbridge: %v", err)
	}
	dir := b.TempDir()
	_, cfg, st := benchConfigAndStore(ctx, b, dir, map[string]any{
		"helpdesk": map[string]any{"command": bin, "args": []string{"demo-server", "--server", "helpdesk"}},
	})
	br, err := New(cfg, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { br.Close() })
	if _, err := Index(ctx, cfg, st, br.ups, nil, nil); err != nil {
		b.Fatal(err)
	}
	tool, err := st.Tool(ctx, "helpdesk", "get_ticket")
	if err != nil {
		b.Fatal(err)
	}
	var rec schema.Record
	if err := json.Unmarshal(tool.Record, &rec); err != nil {
		b.Fatal(err)
	}
	v, err := br.validators.get(tool)
	if err != nil {
		b.Fatal(err)
	}
	params := json.RawMessage(`{"ticket_id":"TCK-001042"}`)
	runArgsFor := func(id string) json.RawMessage {
		raw, _ := json.Marshal(map[string]any{"actionId": id, "params": params})
		return raw
	}
	act := action{server: "helpdesk", tool: "get_ticket", hash: tool.Hash}

	b.Run("decode", func(b *testing.B) {
		raw := runArgsFor(handlePrefix + "x")
		timeRuns(b, func() error {
			var args runArgs
			if errs := decodeExact(raw, &args, runKeys); len(errs) > 0 {
				return fmt.Errorf("decoding: %v", errs)
			}
			return nil
		})
	})
	b.Run("alias", func(b *testing.B) {
		timeRuns(b, func() error {
			var m map[string]any
			if err := json.Unmarshal(params, &m); err != nil {
				return err
			}
			_, err := rec.ProviderArgs(m)
			return err
		})
	})
	b.Run("validate", func(b *testing.B) {
		timeRuns(b, func() error {
			c, err := v.Check(params)
			if err == nil && (len(c.Missing) > 0 || len(c.Errors) > 0) {
				err = fmt.Errorf("invalid: %+v", c)
			}
			return err
		})
	})
	b.Run("upstream", func(b *testing.B) {
		timeRuns(b, func() error {
			return ranOK(br.ups.Call(ctx, "helpdesk", "get_ticket", params))
		})
	})
	b.Run("direct", func(b *testing.B) {
		cs := benchClient(b, &mcp.CommandTransport{Command: exec.Command(bin, "demo-server", "--server", "helpdesk")})
		timeRuns(b, func() error {
			return ranOK(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_ticket", Arguments: params}))
		})
	})
	b.Run("shape", func(b *testing.B) {
		res, err := br.ups.Call(ctx, "helpdesk", "get_ticket", params)
		if err != nil {
			b.Fatal(err)
		}
		pager := output.NewPager(nil)
		timeRuns(b, func() error {
			sh, err := output.Shape(res, outputOptions(cfg, act, nil))
			if err != nil {
				return err
			}
			return ranOK(pager.First(nil, sh), nil)
		})
	})
	b.Run("handler", func(b *testing.B) {
		id, err := br.handles.issue(sessionKey(nil), act)
		if err != nil {
			b.Fatal(err)
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: RunTool, Arguments: runArgsFor(id)}}
		timeRuns(b, func() error { return ranOK(br.run(ctx, req)) })
	})
	b.Run("memory", func(b *testing.B) {
		ct, sst := mcp.NewInMemoryTransports()
		ss, err := br.MCP().Connect(ctx, sst, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs := benchClient(b, ct)
		timeRunsOver(b, ctx, cs)
	})
	// One Serve for every round of the stdio layer, ended with the
	// benchmark: a Serve that ends cancels the bridge's runs for good
	// (CancelRuns), as serve's process ends with it.
	var stdioCS *mcp.ClientSession
	outer := b
	b.Run("stdio", func(b *testing.B) {
		if stdioCS == nil {
			stdioCS = stdioClient(ctx, outer, br, time.Minute)
		}
		timeRunsOver(b, ctx, stdioCS)
	})
}

// timeRunsOver discovers get_ticket through cs and times runs of its card.
func timeRunsOver(b *testing.B, ctx context.Context, cs *mcp.ClientSession) {
	b.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: DiscoverTool, Arguments: map[string]any{"intent": "get a helpdesk ticket by id", "limit": 5}})
	if err := discoveredOK(res, err); err != nil {
		b.Fatal(err)
	}
	var ans discovery
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &ans); err != nil {
		b.Fatal(err)
	}
	id := ""
	for _, m := range ans.Matches {
		if m.Provider == "helpdesk" && m.Name == "get_ticket" {
			id = m.ActionID
		}
	}
	if id == "" {
		b.Fatalf("no get_ticket card: %+v", ans)
	}
	args := map[string]any{"actionId": id, "params": map[string]any{"ticket_id": "TCK-001042"}}
	timeRuns(b, func() error {
		return ranOK(cs.CallTool(ctx, &mcp.CallToolParams{Name: RunTool, Arguments: args}))
	})
}

// timeRuns times run b.N times, as timeDiscoveries does.
func timeRuns(b *testing.B, run func() error) {
	b.Helper()
	timeDiscoveries(b, func(int) error { return run() })
}

// ranOK is nil when a run answered without isError.
func ranOK(res *mcp.CallToolResult, err error) error {
	if err != nil {
		return err
	}
	if res == nil || len(res.Content) == 0 {
		return fmt.Errorf("run failed: %+v", res)
	}
	if res.IsError {
		text := ""
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
		return fmt.Errorf("run failed: %s", text)
	}
	return nil
}
