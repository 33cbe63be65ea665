package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// nopWriteCloser is a buffer for a connection's writes.
type nopWriteCloser struct{ *bytes.Buffer }

func (nopWriteCloser) Close() error { return nil }

// connect returns a stdioConn reading input and writing to out.
func connectLines(t *testing.T, input string, out *bytes.Buffer) mcp.Connection {
	t.Helper()
	r := newJSONLineReader(io.NopCloser(strings.NewReader(input)), 1<<20, &listTap{}, testServer("s", "true"), slog.New(slog.DiscardHandler))
	c, err := (&stdioTransport{r: r, w: tappedWriter{w: nopWriteCloser{out}, tap: &listTap{}}, own: &ownRequests{}}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The connection reads a server's lines as go-sdk's IOTransport does, and
// answers a batch's calls as it does: the same messages, the same errors,
// the same lines written.
func TestStdioConnReadsAsIOTransport(t *testing.T) {
	deep := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	tests := []struct {
		name  string
		lines []string
		// answer writes a response to each call read.
		answer bool
	}{
		{"a response and a notification", []string{
			`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`,
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		}, false},
		{"calls from the server", []string{
			`{"jsonrpc":"2.0","id":"a","method":"ping"}`,
			`{"jsonrpc":"2.0","id":9,"method":"roots/list","params":{}}`,
		}, true},
		{"a batch of calls, answered as one batch", []string{
			`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"x","method":"ping"}]`,
			`{"jsonrpc":"2.0","id":"y","method":"ping"}`,
		}, true},
		{"a batch with a notification", []string{
			`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{}},{"jsonrpc":"2.0","id":"x","method":"ping"}]`,
			`{"jsonrpc":"2.0","id":5,"result":{}}`,
		}, true},
		// IOTransport refuses this, and never answers the batch above (it
		// waits for an answer to the notification); so does stdioConn.
		{"a batch of notifications", []string{`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`}, false},
		{"an empty batch", []string{`[]`}, false},
		{"a batch with a bad message", []string{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"1.0","id":2}]`}, false},
		{"a batch with one call twice", []string{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`}, false},
		{"a batch too deep for go-sdk", []string{`[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + deep + `}}]`}, false},
		{"a response without an id", []string{`{"jsonrpc":"2.0","result":{}}`}, false},
		{"a message too deep for go-sdk", []string{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + deep + `}}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := strings.Join(tt.lines, "\n") + "\n"
			var wantOut, gotOut bytes.Buffer
			sdk, err := (&mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(input)), Writer: nopWriteCloser{&wantOut}}).Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := readAll(t, sdk, tt.answer)
			got := readAll(t, connectLines(t, input, &gotOut), tt.answer)
			if len(got) != len(want) {
				t.Fatalf("read %q\nwant %q", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("read %d: %s\nwant %s", i, got[i], want[i])
				}
			}
			if gotOut.String() != wantOut.String() {
				t.Errorf("wrote %q\nwant %q", gotOut.String(), wantOut.String())
			}
		})
	}
}

// readAll reads c to its first error and returns what it read, each message
// encoded, and the error as "error"; with answer, each call read is answered
// with an empty result before the next read.
func readAll(t *testing.T, c mcp.Connection, answer bool) []string {
	t.Helper()
	ctx := context.Background()
	var read []string
	for {
		msg, err := c.Read(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return read
			}
			return append(read, "error")
		}
		raw, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		read = append(read, string(raw))
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && answer {
			if err := c.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Close closes the server's stdin, which tells it to exit, and its stdout,
// and ends a Read waiting for the server.
func TestStdioConnClose(t *testing.T) {
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outW.Close()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	tap := &listTap{}
	r := newJSONLineReader(outR, 1<<20, tap, testServer("s", "true"), slog.New(slog.DiscardHandler))
	c, err := (&stdioTransport{r: r, w: tappedWriter{w: inW, tap: tap}, own: &ownRequests{}}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		read <- err
	}()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-read:
		// io.EOF, or the closed stdout's error if its reader got there first
		// (as with IOTransport).
		if err == nil {
			t.Error("Read after Close returned a message")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read still waiting 10s after Close")
	}
	if n, err := inR.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("the server's stdin is open after Close: read %d, %v", n, err)
	}
}
