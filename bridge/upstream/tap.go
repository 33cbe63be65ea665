package upstream

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// listTap keeps the raw result of one tools/list request as it crossed the
// wire. go-sdk decodes tools into mcp.Tool, which drops every field it does
// not know (execution, vendor extensions) and turns the input schema into a
// map[string]any; the catalog must store what the server sent, so the
// transports show the tap every message going out and coming in.
//
// One tools/list is watched at a time: [listTap.arm] starts watching, the
// next tools/list request sent is the one, and its answer is kept for
// [listTap.take]. The caller serializes listings (upstream.listMu).
type listTap struct {
	// cancels follows the notifications/cancelled owed to the server: the
	// transports that show the tap what goes out show it what went out.
	cancels cancelNotes

	mu      sync.Mutex // guards the fields below
	armed   bool       // watching for the next tools/list
	stub    bool       // the watched answer may reach the SDK without its tools
	stubbed bool       // it did
	id      string     // the id of the watched request, once sent
	page    *rawPage   // its result, once answered with one that reads as a page
}

// arm forgets any earlier capture and watches the next tools/list. With
// stub, a transport that can replace messages ([listTap.received]) hands
// go-sdk the answer without its tools: the caller reads them from the tap,
// and go-sdk would decode each one into an [mcp.Tool] with its schema as
// maps, many times the page's bytes, only to drop them.
func (t *listTap) arm(stub bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.armed, t.stub, t.stubbed, t.id, t.page = true, stub, false, "", nil
}

// take returns the captured page, if the watched request was answered with
// a result that reads as one, whether go-sdk was handed it without its
// tools, and stops watching.
func (t *listTap) take() (page *rawPage, stubbed, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, stubbed := t.page, t.stubbed
	t.armed, t.stub, t.stubbed, t.id, t.page = false, false, false, "", nil
	return p, stubbed, p != nil
}

// sent looks at one outgoing message.
func (t *listTap) sent(msg []byte) {
	if !bytes.Contains(msg, []byte(`tools/list`)) {
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &req) != nil || req.Method != "tools/list" || req.ID == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.armed && t.id == "" {
		t.id = string(req.ID)
	}
}

// received looks at one incoming message. It returns the message to pass
// on in its place, or nil for msg itself: when msg answers the watched
// request, the tap was armed to stub and the result reads as a page, the
// same answer with an empty tools array. The tap keeps no part of msg: the
// caller may reuse it.
//
// The watched answer's result is decoded once, here, straight into the page
// the listing reads: each tool is copied out of msg once, and msg is not
// copied whole. A stdio server's long lines come to [listTap.receivedLine]
// first, which copies nothing.
func (t *listTap) received(msg []byte) []byte {
	t.mu.Lock()
	waiting := t.armed && t.id != "" && t.page == nil
	t.mu.Unlock()
	if !waiting || len(msg) == 0 || msg[0] != '{' {
		return nil
	}
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &head) != nil {
		return nil
	}
	id := string(head.ID)
	t.mu.Lock()
	watched := t.armed && t.id == id && t.page == nil
	t.mu.Unlock()
	if !watched {
		return nil
	}
	var resp struct {
		Result *rawPage `json:"result"`
	}
	// A result that is not a page (tools not an array, say) is not kept:
	// go-sdk gets it as sent, and says what is wrong with it.
	if json.Unmarshal(msg, &resp) != nil || resp.Result == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.armed || t.id != id || t.page != nil {
		return nil
	}
	t.page = resp.Result
	if !t.stub {
		return nil
	}
	stub, ok := stubPage(head.ID, resp.Result)
	t.stubbed = ok
	return stub
}

// receivedLine is [listTap.received] for a line of a stdio server longer
// than one block, read without joining its blocks: when l answers the
// watched request and reads as a page, the tap keeps the page, its tools
// as slices of l's blocks (which the caller must then not fill again), and
// returns what go-sdk reads in l's place (the stub, or l whole) and true.
// For anything else it returns false, having kept nothing: the caller then
// reads l whole, and shows it to received, which decides as before. (A
// line in one block is joined at no cost, and received copies the few
// tools it can hold.)
func (t *listTap) receivedLine(l *line) ([]byte, bool) {
	t.mu.Lock()
	waiting := t.armed && t.id != "" && t.page == nil
	t.mu.Unlock()
	if !waiting || len(l.blocks) < 2 {
		return nil, false
	}
	a, ok := scanAnswer(l)
	if !ok || a.version != "2.0" || a.page == nil {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.armed || t.id != string(a.id) || t.page != nil {
		return nil, false
	}
	t.page = a.page
	if t.stub {
		if stub, ok := stubPage(a.id, a.page); ok {
			t.stubbed = true
			return stub, true
		}
	}
	return bytes.TrimSpace(l.bytes()), true
}

// stubPage returns the JSON-RPC answer id with page's nextCursor and
// resultType and no tools, or false when the page had no tools array
// (go-sdk then gets it as sent, and says what is wrong with it). The stub
// has no ttlMs on purpose: go-sdk keeps every list result it decodes
// (SEP-2549), and a stub it could answer a later listing from would be an
// empty catalog; without a TTL it asks the server again.
func stubPage(id json.RawMessage, page *rawPage) ([]byte, bool) {
	if page.Tools == nil {
		return nil, false
	}
	type stubResult struct {
		ResultType json.RawMessage `json:"resultType,omitempty"`
		Tools      []struct{}      `json:"tools"`
		NextCursor string          `json:"nextCursor,omitempty"`
	}
	msg, err := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  stubResult      `json:"result"`
	}{"2.0", id, stubResult{ResultType: page.ResultType, Tools: []struct{}{}, NextCursor: page.NextCursor}})
	if err != nil {
		return nil, false
	}
	return msg, true
}

// tappedBody shows the messages of an HTTP response body to a tap as they
// are read: the whole body for application/json, each event's data for
// text/event-stream. Bytes pass through unchanged.
type tappedBody struct {
	body io.ReadCloser
	tap  *listTap
	max  int  // largest message shown to the tap
	sse  bool // text/event-stream

	buf  []byte // JSON: the body so far; SSE: the current line
	data []byte // SSE: the current event's data lines
	over bool   // the current message passed max: not shown
}

func (b *tappedBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if b.sse {
		b.scanSSE(p[:n])
	} else if !b.over {
		b.buf = append(b.buf, p[:n]...)
		b.over = len(b.buf) > b.max
	}
	if err == io.EOF && !b.sse && !b.over {
		b.tap.received(bytes.TrimSpace(b.buf))
	}
	return n, err
}

// scanSSE follows the event stream: data lines are joined with "\n" and the
// event is shown to the tap at the blank line that ends it, which the SDK
// also waits for before it decodes the event.
func (b *tappedBody) scanSSE(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.buf = append(b.buf, p...)
			if len(b.buf) > b.max {
				b.buf, b.over = b.buf[:0], true
			}
			return
		}
		b.buf = append(b.buf, p[:i]...)
		p = p[i+1:]
		b.sseLine(bytes.TrimSuffix(b.buf, []byte{'\r'}))
		b.buf = b.buf[:0]
	}
}

func (b *tappedBody) sseLine(line []byte) {
	if len(line) == 0 {
		if !b.over && len(b.data) > 0 {
			b.tap.received(b.data)
		}
		b.data, b.over = b.data[:0], false
		return
	}
	field, value, _ := bytes.Cut(line, []byte{':'})
	if string(field) != "data" || b.over {
		return
	}
	value = bytes.TrimPrefix(value, []byte{' '})
	if len(b.data) > 0 {
		b.data = append(b.data, '\n')
	}
	b.data = append(b.data, value...)
	if len(b.data) > b.max {
		b.data, b.over = b.data[:0], true
	}
}

func (b *tappedBody) Close() error { return b.body.Close() }

// newTappedBody wraps body when its content type carries JSON-RPC messages.
func newTappedBody(body io.ReadCloser, contentType string, tap *listTap, max int) io.ReadCloser {
	switch mediaType(contentType) {
	case "application/json":
		return &tappedBody{body: body, tap: tap, max: max}
	case "text/event-stream":
		return &tappedBody{body: body, tap: tap, max: max, sse: true}
	}
	return body
}

// mediaType returns the lower-cased type/subtype of a Content-Type value.
func mediaType(contentType string) string {
	mt, _, _ := bytes.Cut([]byte(contentType), []byte{';'})
	return string(bytes.ToLower(bytes.TrimSpace(mt)))
}
