package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestCheckLine: a line that is not one JSON-RPC 2.0 message gets the
// error JSON-RPC prescribes, with the id when it has a usable one; a valid
// request, notification or response passes.
func TestCheckLine(t *testing.T) {
	tests := []struct {
		line   string
		code   int64  // 0: passes
		wantID string // the answer's id, "" for null
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, 0, ""},

		{`hello`, jsonrpc.CodeParseError, ""},
		{`NaN`, jsonrpc.CodeParseError, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"} trailing`, jsonrpc.CodeParseError, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, jsonrpc.CodeParseError, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, jsonrpc.CodeParseError, ""},
		{`42`, jsonrpc.CodeInvalidRequest, ""},
		{`"str"`, jsonrpc.CodeInvalidRequest, ""},
		{`null`, jsonrpc.CodeInvalidRequest, ""},
		{`true`, jsonrpc.CodeInvalidRequest, ""},
		{`[]`, jsonrpc.CodeInvalidRequest, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, ""},
		{`[1,2,3]`, jsonrpc.CodeInvalidRequest, ""},
		{`{}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"jsonrpc":2.0,"id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"JSONRPC":"2.0","id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":4,"method":1}`, jsonrpc.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","id":4,"method":null}`, jsonrpc.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","method":"ping","params":"bar"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":"x","method":"ping","params":5}`, jsonrpc.CodeInvalidRequest, `"x"`},
		{`{"jsonrpc":"2.0","id":7}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","result":{}}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":7,"error":"bad"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":1.5,"message":"x"}}`, jsonrpc.CodeInvalidRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, e := checkLine([]byte(tt.line))
			if tt.code == 0 {
				if e != nil {
					t.Fatalf("rejected a valid message: %d %s", e.code, e.why)
				}
				return
			}
			if e == nil {
				t.Fatalf("passed, want error %d", tt.code)
			}
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(e.response(), &resp); err != nil {
				t.Fatalf("answer %s: %v", e.response(), err)
			}
			wantID := tt.wantID
			if wantID == "" {
				wantID = "null"
			}
			if resp.JSONRPC != "2.0" || resp.Error.Code != tt.code || string(resp.ID) != wantID || resp.Error.Message == "" {
				t.Errorf("answer %s, want code %d and id %s", e.response(), tt.code, wantID)
			}
		})
	}
}

// FuzzCheckLine: whatever a client sends, checkLine answers it with one
// JSON-RPC error line, or passes the message go-sdk itself would decode
// from it; it never panics.
func FuzzCheckLine(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_capability","arguments":{"actionId":"x"}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":null}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":1,"meth\u006fd":"ping","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[[[[{}]]]]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		msg, e := checkLine(line)
		if e != nil {
			var resp struct {
				JSONRPC string `json:"jsonrpc"`
			}
			if err := json.Unmarshal(e.response(), &resp); err != nil || resp.JSONRPC != "2.0" {
				t.Fatalf("error answer %q: %v", e.response(), err)
			}
			return
		}
		want, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			t.Fatalf("passed %q, which go-sdk refuses: %v", line, err)
		}
		if !reflect.DeepEqual(msg, want) {
			t.Fatalf("passed %q as %#v, go-sdk decodes %#v", line, msg, want)
		}
	})
}

// TestStdioMalformedLines: every malformed line gets its one error answer,
// and the session goes on to answer the requests after it.
func TestStdioMalformedLines(t *testing.T) {
	b := newBridge(t, nil, nil)
	bad := []string{`hello`, `NaN`, `42`, `"str"`, `[]`, `{}`, `{"jsonrpc":"2.0","id":5,"method":"ping"} x`,
		`{"jsonrpc":"1.0","id":6,"method":"ping"}`, `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, "   ", `{"jsonrpc":"2.0","id":99,"result":{}}`}
	lines := []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	lines = append(append(lines, bad...), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+" \r")
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := b.Serve(ctx, NewStdioTransport(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, 10*time.Second, nil)); err != nil {
		t.Fatalf("the session ended on a malformed line: %v", err)
	}
	var errors, results []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("output line %.200q: %v", line, err)
		}
		if msg.Error != nil {
			errors = append(errors, string(msg.ID))
		} else {
			results = append(results, string(msg.ID))
		}
	}
	// Ten lines are answered; the blank line and the client's response are not.
	if want := []string{"null", "null", "null", "null", "null", "null", "null", "6", "null", "null"}; strings.Join(errors, " ") != strings.Join(want, " ") {
		t.Errorf("error answers for ids %v, want %v\n%s", errors, want, out.String())
	}
	if strings.Join(results, " ") != "1 2" {
		t.Errorf("results for ids %v, want initialize and tools/list (1 2)", results)
	}
}
