package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/capbridge/capbridge/internal/rpcwire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ownIDPrefix starts the id of every request capbridge sends on a session's
// wire itself. go-sdk numbers its requests, so a string id never collides
// with one of its own.
const ownIDPrefix = "capbridge-"

// errNoOwnRequests is a session over which capbridge cannot send requests
// of its own: the old HTTP+SSE transport answers every request on the
// event stream that go-sdk reads.
var errNoOwnRequests = errors.New("the server's transport (HTTP+SSE) carries no requests but go-sdk's")

// ownRequests sends requests that go-sdk v1.8.0 has no method for (the
// tasks/* of MCP tasks) on a session's wire, beside go-sdk's own, and takes
// their answers before go-sdk would read them. Over stdio they share the
// child's pipes: a line is written, and its answer is picked out of what
// the child prints (see [ownRequests.claim]). Over Streamable HTTP each is
// one POST of its own, with the session's headers as go-sdk last sent them.
type ownRequests struct {
	max int // largest answer read over HTTP
	// answer answers a request the server sends on an HTTP stream of
	// capbridge's own, as go-sdk's client answers those on its streams,
	// and takes the notifications sent there.
	answer func(ctx context.Context, r *jsonrpc.Request) (any, error)

	mu      sync.Mutex
	n       uint64                            // ids handed out
	write   func([]byte) error                // stdio: writes one line to the child; set once connected
	waiting map[string]chan *jsonrpc.Response // stdio: by id, the requests sent and not answered
	over    bool                              // stdio: the server's output ended
	post    *ownPoster                        // Streamable HTTP
}

// call sends method with params and returns the result, or the server's
// error. When ctx ends first, the server is told the request is cancelled.
func (o *ownRequests) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", method, err)
	}
	o.mu.Lock()
	o.n++
	idText := ownIDPrefix + strconv.FormatUint(o.n, 10)
	write, post := o.write, o.post
	o.mu.Unlock()
	id, _ := jsonrpc.MakeID(idText) // a string is always an id
	msg, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: method, Params: raw})
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", method, err)
	}
	var resp *jsonrpc.Response
	switch {
	case post != nil:
		resp, err = post.call(ctx, idText, msg, o.max, o.answer)
	case write != nil:
		resp, err = o.callStdio(ctx, write, idText, msg)
	default:
		err = errNoOwnRequests
	}
	if err != nil {
		if ctx.Err() != nil {
			o.notifyCancelled(idText)
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %w", method, resp.Error)
	}
	return resp.Result, nil
}

func (o *ownRequests) callStdio(ctx context.Context, write func([]byte) error, id string, msg []byte) (*jsonrpc.Response, error) {
	answer := make(chan *jsonrpc.Response, 1)
	o.mu.Lock()
	if o.over {
		o.mu.Unlock()
		return nil, io.ErrUnexpectedEOF
	}
	if o.waiting == nil {
		o.waiting = make(map[string]chan *jsonrpc.Response)
	}
	o.waiting[id] = answer
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		delete(o.waiting, id)
		o.mu.Unlock()
	}()
	if err := write(append(msg, '\n')); err != nil {
		return nil, err
	}
	select {
	case resp := <-answer:
		if resp == nil {
			return nil, io.ErrUnexpectedEOF // the session ended
		}
		return resp, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// notifyCancelled tells the server that capbridge no longer waits for the
// answer to its request id, as go-sdk does for its own.
func (o *ownRequests) notifyCancelled(id string) {
	params, _ := json.Marshal(map[string]string{"requestId": id, "reason": "the call ended"})
	msg, err := jsonrpc.EncodeMessage(&jsonrpc.Request{Method: "notifications/cancelled", Params: params})
	if err != nil {
		return
	}
	o.mu.Lock()
	write, post := o.write, o.post
	o.mu.Unlock()
	switch {
	case post != nil:
		ctx, cancel := context.WithTimeout(context.Background(), cancelNoteWait)
		defer cancel()
		post.notify(ctx, msg)
	case write != nil:
		_ = write(append(msg, '\n'))
	}
}

// claim takes msg when it answers one of capbridge's own requests over
// stdio, and reports whether it did; go-sdk never sees those answers.
func (o *ownRequests) claim(msg jsonrpc.Message) bool {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return false
	}
	id, ok := resp.ID.Raw().(string)
	if !ok || !strings.HasPrefix(id, ownIDPrefix) {
		return false
	}
	o.mu.Lock()
	answer := o.waiting[id]
	delete(o.waiting, id)
	o.mu.Unlock()
	if answer != nil {
		answer <- resp
	}
	return true // an answer to a request given up on is dropped too
}

// ended wakes every request still waiting over stdio: the session is over.
func (o *ownRequests) ended() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.over = true
	for id, answer := range o.waiting {
		close(answer)
		delete(o.waiting, id)
	}
}

// ownPoster sends capbridge's own requests to a Streamable HTTP server,
// each in a POST of its own, with the headers that place it in the session
// (Mcp-Session-Id, MCP-Protocol-Version, Authorization) as go-sdk sent them
// last.
type ownPoster struct {
	client *http.Client // the session's: it adds the configured headers

	mu      sync.Mutex  // guards the fields below
	url     string      // where go-sdk posts
	session http.Header // the session's headers of go-sdk's last POST
}

// sessionHeaders are the headers of go-sdk's requests that place a request
// in its session.
var sessionHeaders = []string{"Mcp-Session-Id", "Mcp-Protocol-Version", "Authorization"}

// saw notes the session headers of one of go-sdk's POSTs.
func (p *ownPoster) saw(req *http.Request) {
	h := make(http.Header, len(sessionHeaders))
	for _, k := range sessionHeaders {
		if v := req.Header.Get(k); v != "" {
			h.Set(k, v)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.url, p.session = req.URL.String(), h
}

func (p *ownPoster) request(ctx context.Context, msg []byte) (*http.Request, error) {
	p.mu.Lock()
	url, session := p.url, p.session
	p.mu.Unlock()
	if url == "" {
		return nil, errors.New("no session with the server yet")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	for k, v := range session {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return req, nil
}

// notify posts a notification; its answer is not read.
func (p *ownPoster) notify(ctx context.Context, msg []byte) {
	req, err := p.request(ctx, msg)
	if err != nil {
		return
	}
	if resp, err := p.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// call posts one request and reads its answer: the JSON body, or the
// event of the event stream that answers it. A request the server makes
// on that stream (elicitation for a task waiting on input, say) is given
// to answer, and its answer posted back; without answer, it is refused
// with method not found, as by a client without the capability. A
// notification on it is given to answer too.
func (p *ownPoster) call(ctx context.Context, id string, msg []byte, max int, answer func(context.Context, *jsonrpc.Request) (any, error)) (*jsonrpc.Response, error) {
	req, err := p.request(ctx, msg)
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the server answered HTTP %s", resp.Status)
	}
	body := io.LimitReader(resp.Body, int64(max)+1)
	if mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
		data, err := io.ReadAll(body)
		if err != nil {
			return nil, err
		}
		if len(data) > max {
			return nil, fmt.Errorf("the answer is over the %d-byte message limit", max)
		}
		return answerTo(id, data)
	}
	events := bufio.NewScanner(body)
	events.Buffer(make([]byte, 0, 64<<10), max)
	var data []byte
	for events.Scan() {
		line := bytes.TrimSuffix(events.Bytes(), []byte{'\r'})
		if len(line) > 0 {
			if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				data = append(data, bytes.TrimPrefix(v, []byte{' '})...)
			}
			continue
		}
		if len(data) == 0 {
			continue
		}
		m, err := rpcwire.Decode(data)
		data = data[:0]
		if err != nil {
			continue
		}
		switch m := m.(type) {
		case *jsonrpc.Response:
			if s, _ := m.ID.Raw().(string); s == id {
				return m, nil
			}
		case *jsonrpc.Request:
			if m.ID.IsValid() {
				p.reply(ctx, m, answer)
			} else if answer != nil {
				_, _ = answer(ctx, m) // a notification (progress, a log message)
			}
		}
	}
	if err := events.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}

// reply posts the answer to a server's request.
func (p *ownPoster) reply(ctx context.Context, r *jsonrpc.Request, answer func(context.Context, *jsonrpc.Request) (any, error)) {
	resp := &jsonrpc.Response{ID: r.ID}
	var result any
	err := error(&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"})
	if answer != nil {
		result, err = answer(ctx, r)
	}
	if err == nil {
		resp.Result, err = json.Marshal(result)
	}
	if err != nil {
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) {
			wire = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		resp.Result, resp.Error = nil, wire
	}
	if msg, err := jsonrpc.EncodeMessage(resp); err == nil {
		p.notify(ctx, msg)
	}
}

// answerTo reads data as the answer to request id.
func answerTo(id string, data []byte) (*jsonrpc.Response, error) {
	m, err := rpcwire.Decode(bytes.TrimSpace(data))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if resp, ok := m.(*jsonrpc.Response); ok {
		if s, _ := resp.ID.Raw().(string); s == id {
			return resp, nil
		}
	}
	return nil, errors.New("the server answered something else")
}
