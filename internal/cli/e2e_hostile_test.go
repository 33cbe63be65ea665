package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxServeHWM bounds the peak resident memory (VmHWM) of the serve child
// through the whole hostile test: 10 MB strings and a 100k-value enum pass
// through it and a 20 MB answer is refused at the 17 MiB message limit, but
// nothing may grow with what the hostile schemas would expand to. A -race
// build (the test binary is the child) uses several times the memory.
func maxServeHWM() int64 {
	if raceEnabled {
		return 1536 << 20
	}
	return 640 << 20
}

// hostileCatalog writes testdata/hostile/catalog.jsonl plus the tools too
// big to commit (a 100,000-value enum, a 10 MB description, 40 levels of
// nesting) as the catalog of servers "hostile" and "hostile_big" (the 10 MB
// tool alone, so that re-listing "hostile" stays cheap), and returns its
// path.
func hostileCatalog(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hostile", "catalog.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(data)

	enum := make([]string, 100_000)
	for i := range enum {
		enum[i] = "v" + strconv.Itoa(i)
	}
	writeTool(t, &b, "hostile", "submit_huge_enum", "Submits one of a hundred thousand values.", map[string]any{
		"type": "object", "properties": map[string]any{"choice": map[string]any{"type": "string", "enum": enum}},
	})
	writeTool(t, &b, "hostile_big", "submit_ten_megabytes", strings.Repeat("Ten megabytes of description. ", 10<<20/30), map[string]any{
		"type": "object", "properties": map[string]any{"note": map[string]any{"type": "string"}},
	})
	deep := map[string]any{"type": "string"}
	for range 40 {
		deep = map[string]any{"type": "object", "properties": map[string]any{"inner": deep}}
	}
	writeTool(t, &b, "hostile", "submit_deep", "Submits forty levels of nesting.", map[string]any{
		"type": "object", "properties": map[string]any{"root": deep},
	})
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeTool(t *testing.T, b *bytes.Buffer, server, name, desc string, schema map[string]any) {
	t.Helper()
	line, err := json.Marshal(map[string]any{"server": server, "name": name, "description": desc, "inputSchema": schema})
	if err != nil {
		t.Fatal(err)
	}
	b.Write(append(line, '\n'))
}

// nested returns a JSON value depth levels deep.
func nested(depth int) json.RawMessage {
	return json.RawMessage(strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth))
}

// TestHostileInput serves a catalog of hostile tools through a real demo
// server and sends hostile arguments through run_capability. Every tool over
// a limit is refused alone with a reason `capbridge servers` shows; the rest
// are discoverable with cards inside the budgets, free of NUL bytes and
// invalid UTF-8; every run gets a clear answer (a result or a failure
// status) inside the budget; values arrive at the provider exactly; serve
// stays up and its peak memory stays under maxServeHWM.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	catalog := hostileCatalog(t)
	cfg := writeConfig(t, map[string]serverEntry{
		"hostile":     demoUpstream("--catalog", catalog, "--server", "hostile"),
		"hostile_big": demoUpstream("--catalog", catalog, "--server", "hostile_big"),
		"calendar":    demoUpstream("--server", "calendar"),
	}, map[string]any{"callTimeout": "60s"})
	db := filepath.Join(t.TempDir(), "catalog.db")
	cs, cmd := startServeCmd(t, cfg, db)

	t.Run("catalog", func(t *testing.T) {
		// Discovery waits for the background indexing.
		callBridge(t, cs, "discover_capability", map[string]any{"intent": "submit"})
		st := serverStatusOf(t, cfg, db, "hostile")
		t.Logf("serve VmHWM after indexing: %d MiB", peakRSS(t, cmd.Process.Pid)>>20)
		reasons := map[string]string{}
		for _, r := range st.RefusedTools {
			reasons[r.Name] = r.Reason
		}
		for tool, want := range map[string]string{"submit_huge_enum": "KiB", "submit_deep": "deep", "submit_utf8": "UTF-8"} {
			if !strings.Contains(reasons[tool], want) {
				t.Errorf("%s: refusal %q, want a reason mentioning %q (servers shows %+v)", tool, reasons[tool], want, st)
			}
		}
		if big := serverStatusOf(t, cfg, db, "hostile_big"); big.State != "stored" || big.Tools != 1 {
			t.Errorf("the 10 MB tool: %+v, want it stored with its description cut", big)
		}
		if st.Tools < 6 {
			t.Errorf("only %d hostile tools stored: one hostile tool must not take its siblings down (%+v)", st.Tools, st)
		}
		for _, intent := range []string{"submit ref cycle", "submit laughs document", "submit text NUL", "submit prototype keys",
			"submit numbers past float64", "ten megabytes of description", "nul named tool"} {
			res, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": intent, "limit": 5})
			text := resultText(res)
			if res.IsError || len(text) > 6000 || strings.Contains(text, `\u0000`) || !utf8.ValidString(text) {
				t.Errorf("discover %q: isError %v, %d bytes, NUL %v, valid UTF-8 %v:\n%.400s",
					intent, res.IsError, len(text), strings.Contains(text, `\u0000`), utf8.ValidString(text), text)
			}
			for _, m := range ans["matches"].([]any) {
				if b, _ := json.Marshal(m); len(b) > 1800 {
					t.Errorf("discover %q: a card of %d bytes", intent, len(b))
				}
			}
		}
	})

	runs := []struct {
		name, intent, tool string
		params             map[string]any
		// want, when set, must appear in the provider's echo of what
		// arrived (the run must succeed); otherwise any clear answer does.
		want string
		// protocolError, when set, is the JSON-RPC error the request gets
		// instead of a tool result (a message go-sdk cannot take).
		protocolError string
		// status, when set, is the failure status the run must answer.
		status string
	}{
		{name: "$ref cycle", intent: "submit ref cycle", tool: "submit_ref_cycle",
			params: map[string]any{"list": map[string]any{"value": "a", "next": map[string]any{"value": "b"}}}, want: `"value":"b"`},
		{name: "$ref cycle, bad value", intent: "submit ref cycle", tool: "submit_ref_cycle",
			params: map[string]any{"list": map[string]any{"next": map[string]any{"next": map[string]any{"value": 7}}}}},
		{name: "$ref fan-out", intent: "submit laughs document", tool: "submit_laughs",
			params: map[string]any{"doc": map[string]any{"p0": "lol"}}},
		{name: "NUL in a property name", intent: "submit text NUL", tool: "submit_nul", params: nil},
		{name: "prototype keys", intent: "submit prototype keys", tool: "submit_proto",
			params: map[string]any{"__proto__": "p", "constructor": "c", "prototype": "x", "hasOwnProperty": "h"}, want: `"__proto__":"p"`},
		{name: "integer past float64", intent: "submit numbers past float64", tool: "submit_bignum",
			params: map[string]any{"n": json.Number("123456789012345678901234567890")}},
		{name: "number past float64 range", intent: "submit numbers past float64", tool: "submit_bignum",
			params: map[string]any{"n": json.Number("1e400")}},
		{name: "deep argument", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"payload": nested(5000)}, protocolError: "Invalid Request: message nested"},
		{name: "10 MB argument", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"payload": strings.Repeat("x", 10<<20)}},
		{name: "NUL and lone surrogate in an argument", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"payload": json.RawMessage(`"a\u0000b\udc00c"`)}, want: `u0000b`},
		{name: "prototype keys in an argument", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"payload": map[string]any{"__proto__": map[string]any{"polluted": true}}}, want: `"__proto__":{"polluted":true}`},
		{name: "100k-element argument", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"payload": make([]int, 100_000)}},
		{name: "200,000-member params", intent: "submits any payload", tool: "submit_anything",
			params: wideParams(200_000), status: "invalid_params"},
		{name: "200,000-item argument", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"payload": make([]int, 200_000)}, status: "invalid_params"},
		{name: "count past int64", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"count": json.Number("123456789012345678901234567890")}},
		{name: "count past float64 range", intent: "submits any payload", tool: "submit_anything",
			params: map[string]any{"count": json.Number("1e400")}},
	}
	for _, tt := range runs {
		t.Run("run/"+tt.name, func(t *testing.T) {
			card := discoverAction(t, cs, tt.intent, "hostile", tt.tool)
			params := tt.params
			if params == nil { // fill every input the card asks for
				params = map[string]any{}
				for _, in := range card["inputs"].([]any) {
					params[in.(map[string]any)["name"].(string)] = "v"
				}
			}
			began := time.Now()
			if tt.protocolError != "" {
				_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": card["actionId"], "params": params}})
				if err == nil || !strings.Contains(err.Error(), tt.protocolError) {
					t.Fatalf("run: %v, want the JSON-RPC error %q", err, tt.protocolError)
				}
				return
			}
			res, ans := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"], "params": params})
			text := resultText(res)
			t.Logf("%s after %s: isError %v, %d bytes, serve VmHWM %d MiB: %.300s", tt.name, time.Since(began).Round(time.Millisecond),
				res.IsError, len(text), peakRSS(t, cmd.Process.Pid)>>20, text)
			if res.IsError {
				// The bridge's own failures carry a status; a provider's
				// isError result is passed on as the provider wrote it.
				status, _ := ans["status"].(string)
				if len(text) > 6000 || (status == "" && strings.HasPrefix(text, "{")) {
					t.Fatalf("an unclear failure (%d bytes): %.500s", len(text), text)
				}
				if tt.status != "" && status != tt.status {
					t.Fatalf("status %q, want %q: %.500s", status, tt.status, text)
				}
				if tt.want != "" {
					t.Fatalf("want the run to succeed, got: %.500s", text)
				}
				return
			}
			if tt.status != "" {
				t.Fatalf("the run succeeded, want %s: %.500s", tt.status, text)
			}
			if n := utf8.RuneCountInString(text); n > 1600*4 {
				t.Errorf("a result page of %d characters, over the 1,500-token ceiling", n)
			}
			if tt.want != "" && !strings.Contains(text, tt.want) {
				t.Errorf("the provider's echo lacks %s:\n%.800s", tt.want, text)
			}
		})
	}

	bridgeAlive(t, cs, cmd)
	runCalendar(t, cs)
	hwm := peakRSS(t, cmd.Process.Pid)
	t.Logf("serve VmHWM after the hostile input: %d MiB (bound %d MiB, race %v)", hwm>>20, maxServeHWM()>>20, raceEnabled)
	if hwm > maxServeHWM() {
		t.Errorf("serve peaked at %d MiB, over the %d MiB bound", hwm>>20, maxServeHWM()>>20)
	}
}

// TestHostileLines writes malformed lines straight to a real serve's stdin.
// Each gets the one JSON-RPC error JSON-RPC 2.0 prescribes (-32700 with id
// null for what is not JSON, -32600 for what is not a request, with its id
// when it has a usable one), and serve goes on: a real initialize and
// tools/list work after them, and only the end of stdin ends serve.
func TestHostileLines(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, map[string]serverEntry{}, nil)
	cmd, stdin, stdout := startRawServe(t, cfg, "error")
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	answers := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			answers <- sc.Text()
		}
		close(answers)
	}()
	exchange := func(t *testing.T, line string) (id json.RawMessage, code int, answer string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("writing %q: serve is gone: %v", line, err)
		}
		select {
		case answer = <-answers:
			if answer == "" {
				t.Fatalf("serve closed its stdout after %q", line)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no answer to %q", line)
		}
		var msg struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(answer), &msg); err != nil {
			t.Fatalf("answer to %q: %q: %v", line, answer, err)
		}
		if msg.Error != nil {
			code = msg.Error.Code
		}
		return msg.ID, code, answer
	}

	lines := []struct {
		name, line string
		code       int    // the JSON-RPC error code of the answer
		id         string // the answer's id
	}{
		{"not JSON", `hello`, -32700, "null"},
		{"NaN", `NaN`, -32700, "null"},
		{"a number", `42`, -32600, "null"},
		{"a string", `"str"`, -32600, "null"},
		{"an empty batch", `[]`, -32600, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"},{"jsonrpc":"2.0","id":9,"method":"ping"}]`, -32600, "null"},
		{"an empty object", `{}`, -32600, "null"},
		{"garbage after an object", `{"jsonrpc":"2.0","id":5,"method":"ping"} garbage`, -32700, "null"},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":6,"method":"ping"}`, -32600, "6"},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{"a method that is not a string", `{"jsonrpc":"2.0","id":"m","method":7}`, -32600, `"m"`},
		{"params that are not structured", `{"jsonrpc":"2.0","id":10,"method":"ping","params":"bar"}`, -32600, "10"},
		{"an id past 2^53", `{"jsonrpc":"2.0","id":123456789012345678901,"method":"ping"}`, -32600, "null"},
	}
	for _, tt := range lines {
		t.Run("line/"+tt.name, func(t *testing.T) {
			id, code, answer := exchange(t, tt.line)
			if code != tt.code || string(id) != tt.id {
				t.Errorf("answer %s, want error %d with id %s", answer, tt.code, tt.id)
			}
		})
	}

	if _, code, answer := exchange(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); code != 0 {
		t.Fatalf("initialize after the malformed lines: %s", answer)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	_, code, answer := exchange(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if code != 0 || !strings.Contains(answer, `"discover_capability"`) || !strings.Contains(answer, `"run_capability"`) {
		t.Fatalf("tools/list after the malformed lines: %s", answer)
	}
	if err := syscall.Kill(cmd.Process.Pid, 0); err != nil {
		t.Fatalf("serve is not alive: %v", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after the end of stdin: %v, want exit 0", err)
	}
}

// peakRSS reads a process's VmHWM in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

// wideParams returns params of n members.
func wideParams(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[fmt.Sprintf("k%d", i)] = i
	}
	return m
}
