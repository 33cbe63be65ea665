//lint:file-ignore SA1019 roots, sampling and logging, deprecated by MCP 2026-07-28 (SEP-2577), are what this file passes through for the servers and clients that still use them

package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capbridge/capbridge/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacySession asks for MCP 2025-11-25, the generation in which a server
// sends its client requests while a call runs.
var legacySession = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// askingClient is what a client answers server-everything's requests
// with; name marks its answers.
type askingClient struct {
	name      string
	mu        sync.Mutex
	elicited  []*mcp.ElicitParams
	sampled   int
	logs      []string
	progress  []*mcp.ProgressNotificationParams
	roots     []*mcp.Root
	noAsking  bool // declare nothing: no handlers, no roots
	latest    bool // speak the latest protocol go-sdk knows (2026-07-28 over stdio), not 2025-11-25
	clientRef *mcp.Client
}

func (a *askingClient) options() *mcp.ClientOptions {
	if a.noAsking {
		return &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	}
	return &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{ListChanged: true},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.mu.Lock()
			a.elicited = append(a.elicited, req.Params)
			a.mu.Unlock()
			if req.Params.Mode == "url" {
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{
				"name": "Ada " + a.name, "check": true, "email": "ada@example.com", "integer": 3, "number": 1.5,
			}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			a.mu.Lock()
			a.sampled++
			a.mu.Unlock()
			return &mcp.CreateMessageResult{Model: "model-of-" + a.name, Role: "assistant",
				Content: &mcp.TextContent{Text: "sampled by " + a.name}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.logs = append(a.logs, string(req.Params.Level)+": "+jsonOfAny(req.Params.Data))
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.progress = append(a.progress, req.Params)
		},
	}
}

func jsonOfAny(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// connectAsking connects a, over 2025-11-25, to a serve over tr, or to the
// server directly when tr is "direct".
func connectAsking(t *testing.T, tr, cfg, db string, entry serverEntry, a *askingClient) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge-e2e", Version: "1"}, a.options())
	a.clientRef = client
	if len(a.roots) > 0 {
		client.AddRoots(a.roots...)
	}
	var transport mcp.Transport
	switch tr {
	case "direct":
		cmd := exec.Command(entry.Command, entry.Args...)
		cmd.Stderr = testWriter{t}
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}
	case "stdio":
		cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "warn")
		cmd.Stderr = testWriter{t}
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}
	case "http":
		s := startHTTPServe(t, cfg, nil, "--db", db, "--log-level", "warn")
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("serve --http stderr:\n%s", s.log())
			}
		})
		transport = &mcp.StreamableClientTransport{Endpoint: s.url}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session := legacySession
	if a.latest {
		session = nil
	}
	cs, err := client.Connect(ctx, transport, session)
	if err != nil {
		t.Fatalf("connecting %s: %v", tr, err)
	}
	t.Logf("%s: protocol %s", tr, cs.InitializeResult().ProtocolVersion)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// everythingRun runs server-everything's tool through cs: directly, or
// through the bridge (discovered first, under intent), with params and an
// optional progress token. It returns the tool's text (the bridge's framing
// line cut) and whether the result is an error.
func everythingRun(t *testing.T, cs *mcp.ClientSession, direct bool, tool, intent string, params map[string]any, meta mcp.Meta) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := &mcp.CallToolParams{Name: tool, Arguments: params}
	if !direct {
		card := discoverAction(t, cs, intent, "everything", tool)
		p = &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": card["actionId"], "params": params}}
	}
	p.Meta = meta
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := resultText(res)
	if !direct {
		if _, rest, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(text, "[result from ") {
			text = rest
		}
	}
	return text, res.IsError
}

// askVariant is one way a client reaches capbridge: over stdio or HTTP,
// speaking 2025-11-25 (the server asks while a call runs) or the latest
// protocol (2026-07-28 over stdio: input-required rounds; HTTP, stateful,
// falls back to 2025-11-25).
type askVariant struct {
	tr     string
	latest bool
}

func (v askVariant) name() string {
	if v.latest {
		return v.tr + "-latest"
	}
	return v.tr
}

var askVariants = []askVariant{{"stdio", false}, {"http", false}, {"stdio", true}}

const (
	intentElicit = "trigger an elicitation request asking the user for input"
	intentURL    = "trigger a URL elicitation directing the user to a browser"
	intentSample = "trigger a sampling request asking the client's LLM"
	intentRoots  = "get the list of MCP roots provided by the client"
)

// TestAsksLikeDirect: the tools of server-everything that ask the client
// (elicitation in form and URL mode, sampling, roots) are indexed, and run
// through capbridge (stdio and HTTP) are answered by the calling client's
// handlers exactly as over a direct connection.
func TestAsksLikeDirect(t *testing.T) {
	everything := npmUpstream(t, "everything")
	cfg := writeConfig(t, map[string]serverEntry{"everything": everything}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)

	roots := []*mcp.Root{{URI: "file:///work/project", Name: "project"}}
	direct := &askingClient{name: "client-direct", roots: roots}
	dcs := connectAsking(t, "direct", "", "", everything, direct)
	type call struct {
		tool, intent string
		params       map[string]any
	}
	calls := []call{
		{"trigger-elicitation-request", intentElicit, map[string]any{}},
		{"trigger-url-elicitation", intentURL, map[string]any{"url": "https://example.com/consent", "elicitationId": "e2e-1"}},
		{"trigger-sampling-request", intentSample, map[string]any{"prompt": "say hi", "maxTokens": 10}},
	}
	want := map[string]string{}
	for _, c := range calls {
		text, isErr := everythingRun(t, dcs, true, c.tool, "", c.params, nil)
		if isErr {
			t.Fatalf("direct %s failed: %s", c.tool, text)
		}
		want[c.tool] = strings.ReplaceAll(text, direct.name, "CLIENT")
	}
	for _, v := range askVariants {
		tr, name := v.tr, v.name()
		t.Run(name, func(t *testing.T) {
			a := &askingClient{name: "client-" + name, roots: roots, latest: v.latest}
			cs := connectAsking(t, tr, cfg, db, everything, a)
			for _, c := range calls {
				text, isErr := everythingRun(t, cs, false, c.tool, c.intent, c.params, nil)
				if got := strings.ReplaceAll(text, a.name, "CLIENT"); isErr || got != want[c.tool] {
					t.Errorf("%s through capbridge (isError %t):\n%s\nwant as directly:\n%s", c.tool, isErr, got, want[c.tool])
				}
			}
			a.mu.Lock()
			if len(a.elicited) != 2 || a.sampled != 1 {
				t.Errorf("the client's handlers saw %d elicitations and %d samplings, want 2 and 1", len(a.elicited), a.sampled)
			}
			a.elicited = nil
			a.mu.Unlock()

			// The error path of URL elicitation (-32042, URLElicitationRequired):
			// the client's user is sent to the URL, then the call is made
			// again, as the server asks.
			text, isErr := everythingRun(t, cs, false, "trigger-url-elicitation", intentURL,
				map[string]any{"url": "https://example.com/first", "elicitationId": "e2e-error-path", "errorPath": true}, nil)
			a.mu.Lock()
			asked := len(a.elicited)
			a.mu.Unlock()
			if isErr || !strings.Contains(text, "User completed the URL elicitation flow") || asked < 1 {
				t.Errorf("trigger-url-elicitation by its error path: isError %t after %d elicitations:\n%s", isErr, asked, text)
			}

			// Roots: the server lists the roots of the client that runs the
			// tool; a change of the client's roots reaches it.
			text, _ = everythingRun(t, cs, false, "get-roots-list", intentRoots, map[string]any{}, nil)
			t.Logf("get-roots-list, first: %s", text)
			if v.latest {
				// A 2026-07-28 client is asked for its roots only in the
				// rounds of a call: the server-everything's cache of them is
				// not refreshed by a change.
				return
			}
			a.clientRef.AddRoots(&mcp.Root{URI: "file:///work/second", Name: "second"})
			deadline := time.Now().Add(30 * time.Second)
			for {
				text, isErr := everythingRun(t, cs, false, "get-roots-list", intentRoots, map[string]any{}, nil)
				if !isErr && strings.Contains(text, "file:///work/project") && strings.Contains(text, "file:///work/second") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("get-roots-list through capbridge after the client's roots changed:\n%s", text)
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
}

// TestAsksFallbackWithoutCapabilities: a client that declares neither
// elicitation nor sampling nor roots gets the tools run, answered with the
// server's own fallback for a client without them.
func TestAsksFallbackWithoutCapabilities(t *testing.T) {
	everything := npmUpstream(t, "everything")
	cfg := writeConfig(t, map[string]serverEntry{"everything": everything}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	for _, v := range askVariants {
		tr := v.tr
		t.Run(v.name(), func(t *testing.T) {
			cs := connectAsking(t, tr, cfg, db, everything, &askingClient{name: tr, noAsking: true, latest: v.latest})
			for tool, intent := range map[string]string{"trigger-elicitation-request": intentElicit, "trigger-sampling-request": intentSample} {
				params := map[string]any{}
				if tool == "trigger-sampling-request" {
					params = map[string]any{"prompt": "say hi", "maxTokens": 10}
				}
				text, isErr := everythingRun(t, cs, false, tool, intent, params, nil)
				if !isErr || !strings.Contains(text, "-32601") || strings.Contains(text, `"status":"upstream_error"`) {
					t.Errorf("%s for a client without the capability: isError %t:\n%s\nwant the tool's error result for a client without the method (-32601)", tool, isErr, text)
				}
			}
			text, isErr := everythingRun(t, cs, false, "get-roots-list", intentRoots, map[string]any{}, nil)
			if isErr || !strings.Contains(text, "no roots are currently configured") {
				t.Errorf("get-roots-list for a client without roots: isError %t:\n%s", isErr, text)
			}
		})
	}
}

// TestAsksReachOnlyTheCallingSession: two HTTP sessions of one serve share
// one server-everything. Each runs URL elicitations naming its own URL,
// alone and concurrently: a session's handler only ever sees its own URL.
func TestAsksReachOnlyTheCallingSession(t *testing.T) {
	everything := npmUpstream(t, "everything")
	cfg := writeConfig(t, map[string]serverEntry{"everything": everything}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	s := startHTTPServe(t, cfg, nil, "--db", db, "--log-level", "warn")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve --http stderr:\n%s", s.log())
		}
	})
	connect := func(a *askingClient) *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: a.name, Version: "1"}, a.options())
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url}, legacySession)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	clients := []*askingClient{{name: "alice"}, {name: "bob"}}
	sessions := []*mcp.ClientSession{connect(clients[0]), connect(clients[1])}
	run := func(i, n int) (answered int) {
		for k := range n {
			params := map[string]any{"url": "https://" + clients[i].name + ".example/" + string(rune('a'+k)), "elicitationId": clients[i].name}
			text, isErr := everythingRun(t, sessions[i], false, "trigger-url-elicitation", intentURL, params, nil)
			if !isErr {
				answered++
			} else if !strings.Contains(text, "-32601") {
				t.Errorf("%s: %s", clients[i].name, text)
			}
		}
		return answered
	}
	// Alone, each session's elicitation is answered by its own client.
	if run(0, 1) != 1 || run(1, 1) != 1 {
		t.Fatal("an elicitation of one session alone was not answered by its client")
	}
	// Concurrently: an elicitation reaches its own session, or nobody.
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() { run(i, 5) })
	}
	wg.Wait()
	for _, a := range clients {
		a.mu.Lock()
		for _, p := range a.elicited {
			if !strings.HasPrefix(p.URL, "https://"+a.name+".example/") {
				t.Errorf("%s's client was asked about %s: another session's elicitation", a.name, p.URL)
			}
		}
		t.Logf("%s's client answered %d elicitations", a.name, len(a.elicited))
		a.mu.Unlock()
	}
}

// TestProgressAndLogsOfARun: a run_capability with a progress token gets
// the server's progress under that token, and a client that set its log
// level gets the log messages the server sends during the call.
func TestProgressAndLogsOfARun(t *testing.T) {
	everything := npmUpstream(t, "everything")
	cfg := writeConfig(t, map[string]serverEntry{"everything": everything}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	for _, v := range askVariants {
		tr := v.tr
		t.Run(v.name(), func(t *testing.T) {
			a := &askingClient{name: tr, latest: v.latest}
			cs := connectAsking(t, tr, cfg, db, everything, a)
			text, isErr := everythingRun(t, cs, false, "trigger-long-running-operation", "run a long operation that reports progress",
				map[string]any{"duration": 1, "steps": 4}, mcp.Meta{"progressToken": "e2e-token-7"})
			if isErr {
				t.Fatalf("trigger-long-running-operation: %s", text)
			}
			// go-sdk may hand a call its answer before the notifications
			// that came ahead of it: the last may be missing.
			a.mu.Lock()
			got := a.progress
			a.mu.Unlock()
			t.Logf("%d progress notifications of the server's 4", len(got))
			if len(got) < 2 {
				t.Fatalf("%d progress notifications, want the server's 4 (at least 2)", len(got))
			}
			for i, p := range got {
				if p.ProgressToken != "e2e-token-7" || p.Total != 4 || p.Progress != float64(i+1) {
					t.Errorf("progress %+v: want %d of 4 under the client's token", p, i+1)
				}
			}

			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatal(err)
			}
			// A 2026-07-28 client names its log level in each request.
			text, isErr = everythingRun(t, cs, false, "toggle-simulated-logging", "turn on simulated logging messages", map[string]any{},
				mcp.Meta{"io.modelcontextprotocol/logLevel": "debug"})
			if isErr {
				t.Fatalf("toggle-simulated-logging: %s", text)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				a.mu.Lock()
				logs := append([]string(nil), a.logs...)
				a.mu.Unlock()
				if len(logs) > 0 {
					if !strings.Contains(logs[0], "message") {
						t.Errorf("log message %q", logs[0])
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no log message of the running call reached the client")
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// TestClientCancelReachesUpstream: a client that cancels its
// run_capability (notifications/cancelled) cancels the upstream call: the
// server logs the cancellation, over stdio and HTTP.
func TestClientCancelReachesUpstream(t *testing.T) {
	for _, tr := range []string{"stdio", "http"} {
		t.Run(tr, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "upstream.log")
			cfg := writeConfig(t, map[string]serverEntry{
				"slowdesk": loggedUpstream(log, "--server", "helpdesk", "--fault", "slow:20s"),
			}, map[string]any{"callTimeout": "60s"})
			db := filepath.Join(t.TempDir(), "catalog.db")
			runCapbridge(t, "index", "--config", cfg, "--db", db)
			cs := connectAsking(t, tr, cfg, db, serverEntry{}, &askingClient{name: tr})
			card := discoverAction(t, cs, "get one helpdesk ticket by its id", "slowdesk", "get_ticket")
			ctx, cancel := context.WithCancel(context.Background())
			answered := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{
					"actionId": card["actionId"], "params": map[string]any{"ticket_id": "TCK-000001"}}})
				answered <- err
			}()
			waitForLine(t, log, "answering late", 30*time.Second) // the call is in flight upstream
			cancel()
			if err := <-answered; err == nil {
				t.Fatal("the cancelled call answered")
			}
			waitForLine(t, log, demo.CancelledLog, 10*time.Second)
			// Recorded as cancelled, not as a failure of the server.
			var calls struct {
				Calls     int `json:"calls"`
				Failures  int `json:"failedUpstream"`
				Cancelled int `json:"cancelled"`
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				out, _ := runCapbridge(t, "stats", "--json", "--config", cfg, "--db", db)
				var report struct {
					Calls json.RawMessage `json:"calls"`
				}
				if err := json.Unmarshal([]byte(out), &report); err != nil || json.Unmarshal(report.Calls, &calls) != nil {
					t.Fatalf("stats --json: %v\n%s", err, out)
				}
				if calls.Calls > 0 || time.Now().After(deadline) {
					break
				}
			}
			if calls.Calls != 1 || calls.Cancelled != 1 || calls.Failures != 0 {
				t.Errorf("stats after a cancelled run: %+v, want 1 call, cancelled, none failed upstream", calls)
			}
		})
	}
}

// TestUnknownRoundState: a 2026-07-28 call naming a requestState no run
// waits on is answered expired, and runs nothing.
func TestUnknownRoundState(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	cs := connectAsking(t, "stdio", cfg, db, serverEntry{}, &askingClient{name: "stdio", latest: true})
	card := discoverAction(t, cs, "get one helpdesk ticket by its id", "helpdesk", "get_ticket")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", RequestState: "bm90LWEtcm91bmQ",
		Arguments: map[string]any{"actionId": card["actionId"], "params": map[string]any{"ticket_id": "TCK-000001"}}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(res); !res.IsError || !strings.Contains(text, `"status":"expired"`) || !strings.Contains(text, "requestState") {
		t.Fatalf("a made-up requestState answered (isError %t) %s", res.IsError, text)
	}
}
