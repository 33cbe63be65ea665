package upstream

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// CallTask runs server-everything's simulate-research-query, a tool that
// answers a plain tools/call with an error (execution.taskSupport
// "required"), as a task, to its report; Call of it fails.
func TestCallTaskRunsATaskTool(t *testing.T) {
	u := newTestUpstreams(t, testConfig(npmServer(t, "everything")), nil)
	ctx := testContext(t)
	args := json.RawMessage(`{"topic":"coral reefs"}`)
	res, err := u.Call(ctx, "everything", "simulate-research-query", args)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.Content); !res.IsError || !strings.Contains(string(got), "requires task augmentation") {
		t.Fatalf("a plain call of a task-only tool answered isError=%v %s, want the server's refusal", res.IsError, got)
	}
	res, err = u.CallTask(ctx, "everything", "simulate-research-query", args)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Content)
	if res.IsError || !strings.Contains(string(got), "Research Report: coral reefs") {
		t.Fatalf("CallTask answered isError=%v %s", res.IsError, got)
	}
}

// Over stdio, the answer to one of capbridge's own requests is taken off
// the stream before go-sdk reads it; everything else reaches go-sdk.
func TestOwnRequestsOverStdio(t *testing.T) {
	stdoutR, stdoutW := io.Pipe() // the server's stdout
	stdinR, stdinW := io.Pipe()   // its stdin
	own := &ownRequests{max: 1 << 20}
	r := newJSONLineReader(stdoutR, 1<<20, &listTap{}, testServer("s", "true"), slog.New(slog.DiscardHandler))
	c, err := (&stdioTransport{r: r, w: tappedWriter{w: stdinW, tap: &listTap{}}, own: own}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	server := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(stdinR).ReadBytes('\n')
		if err != nil {
			server <- err
			return
		}
		var req struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal(line, &req); err != nil || req.ID != "capbridge-1" || req.Method != "tasks/get" {
			server <- fmt.Errorf("the server read %s (%v)", line, err)
			return
		}
		_, err = io.WriteString(stdoutW, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`+"\n"+
			`{"jsonrpc":"2.0","id":"capbridge-1","result":{"status":"working"}}`+"\n"+
			`{"jsonrpc":"2.0","id":7,"result":{}}`+"\n")
		server <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sdkRead := make(chan string, 2) // what go-sdk reads, as it reads all along
	go func() {
		for range 2 {
			msg, err := c.Read(ctx)
			switch m := msg.(type) {
			case *jsonrpc.Request:
				sdkRead <- m.Method
			case *jsonrpc.Response:
				sdkRead <- fmt.Sprint(m.ID.Raw())
			default:
				sdkRead <- fmt.Sprint(err)
			}
		}
	}()
	got, err := own.call(ctx, "tasks/get", map[string]string{"taskId": "t1"})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"status":"working"}` {
		t.Errorf("own request answered %s", got)
	}
	if err := <-server; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"notifications/message", "7"} {
		if seen := <-sdkRead; seen != want {
			t.Errorf("go-sdk read %s, want %s", seen, want)
		}
	}

	// The session ending wakes a request still waiting.
	go func() {
		bufio.NewReader(stdinR).ReadBytes('\n')
		stdoutW.Close()
	}()
	if _, err := own.call(ctx, "tasks/result", map[string]string{"taskId": "t1"}); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("own request when the session ended: %v", err)
	}
}

// Over Streamable HTTP, an own request goes out with the session's headers
// as go-sdk last sent them; on an event stream, its answer is found among
// other messages, and a request of the server's on it is answered, or
// refused as by a client without the capability when nothing answers it.
func TestOwnRequestsOverHTTP(t *testing.T) {
	var notified []string // by answer, called on the reading goroutine
	answer := func(_ context.Context, r *jsonrpc.Request) (any, error) {
		if !r.ID.IsValid() {
			notified = append(notified, r.Method)
			return nil, nil
		}
		return map[string]string{"action": "decline", "asked": r.Method}, nil
	}
	tests := []struct {
		name   string
		answer func(context.Context, *jsonrpc.Request) (any, error)
		reply  string
	}{
		{"refused", nil, `{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}`},
		{"answered", answer, `{"jsonrpc":"2.0","id":0,"result":{"action":"decline","asked":"elicitation/create"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var posts []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				posts = append(posts, r.Header.Get("Mcp-Session-Id")+" "+r.Header.Get("X-Other")+string(body))
				mu.Unlock()
				if !strings.Contains(string(body), `"method":"tasks/result"`) {
					w.WriteHeader(http.StatusAccepted)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"elicitation/create\",\"params\":{\"message\":\"which?\"}}\n\n")
				fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\n")
				fmt.Fprint(w, "data: \"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
				fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"capbridge-1\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n")
			}))
			defer srv.Close()

			poster := &ownPoster{client: srv.Client()}
			sdk, _ := http.NewRequest(http.MethodPost, srv.URL, nil)
			sdk.Header.Set("Mcp-Session-Id", "session-1")
			sdk.Header.Set("X-Other", "not copied")
			poster.saw(sdk)
			own := &ownRequests{max: 1 << 20, post: poster, answer: tt.answer}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			got, err := own.call(ctx, "tasks/result", map[string]string{"taskId": "t1"})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != `{"content":[{"type":"text","text":"done"}]}` {
				t.Errorf("own request answered %s", got)
			}
			mu.Lock()
			defer mu.Unlock()
			want := []string{
				`session-1 {"jsonrpc":"2.0","id":"capbridge-1","method":"tasks/result","params":{"taskId":"t1"}}`,
				`session-1 ` + tt.reply,
			}
			if strings.Join(posts, "\n") != strings.Join(want, "\n") {
				t.Errorf("posted:\n%s\nwant:\n%s", strings.Join(posts, "\n"), strings.Join(want, "\n"))
			}
			if tt.answer != nil && strings.Join(notified, ",") != "notifications/progress" {
				t.Errorf("notifications given to answer: %q", notified)
			}
		})
	}
}
