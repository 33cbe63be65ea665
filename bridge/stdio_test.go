package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestStdioAnswersBeforeEOF: a client that writes its requests and closes
// its end at once still gets every answer.
func TestStdioAnswersBeforeEOF(t *testing.T) {
	b := newBridge(t, nil, nil)
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"discover_capability","arguments":{"intent":"send mail"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_capability","arguments":{"actionId":"act_x"}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := b.Serve(ctx, NewStdioTransport(strings.NewReader(requests), &out, 10*time.Second, nil)); err != nil {
		t.Fatal(err)
	}
	answered := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		if msg.Result != nil {
			answered[msg.ID] = true
		}
	}
	for id := 1.0; id <= 4; id++ {
		if !answered[id] {
			t.Errorf("request %v was not answered before the session ended; output:\n%s", id, out.String())
		}
	}
}

// The session's stdio connection hands go-sdk the guard's messages, and its
// Close ends a Read waiting on a client that sends nothing, closing the
// client's input but not the output.
func TestGuardConnReadAndClose(t *testing.T) {
	in, toIn := io.Pipe()
	var out bytes.Buffer
	conn, err := (&guardTransport{in: in, out: &lockedWriter{w: &out}, logger: slog.New(slog.DiscardHandler)}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	go toIn.Write([]byte("not json\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	one, err := jsonrpc.MakeID(float64(1))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := conn.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if req, ok := msg.(*jsonrpc.Request); !ok || req.Method != "ping" || req.ID != one {
		t.Fatalf("Read = %#v, want the ping request", msg)
	}
	if !strings.Contains(out.String(), `"code":-32700`) {
		t.Errorf("the line that is not JSON was not answered with a parse error: %q", out.String())
	}
	if err := conn.Write(context.Background(), &jsonrpc.Response{ID: one, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n") {
		t.Errorf("Write wrote %q, want the response as one line", out.String())
	}

	read := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		read <- err
	}()
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-read:
		if !errors.Is(err, io.EOF) {
			t.Errorf("Read after Close = %v, want io.EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read still waiting 10s after Close")
	}
	if _, err := toIn.Write([]byte("x\n")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("the client's input is open after Close: write = %v", err)
	}
}
