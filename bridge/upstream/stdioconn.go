package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/capbridge/capbridge/internal/jsondepth"
	"github.com/capbridge/capbridge/internal/rpcwire"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport connects go-sdk to a stdio server's messages, in place of
// mcp.IOTransport over the same pipes. The reader has each line whole
// already; IOTransport would scan it once more and decode it twice (as a
// batch, then as one message), each time with a 64 KiB buffer of go-sdk's,
// on every call. The connection reads as IOTransport does: a line is one
// message or a batch of them, and the answers to a batch's requests go back
// as one batch.
type stdioTransport struct {
	r   *jsonLineReader
	w   tappedWriter
	own *ownRequests // capbridge's own requests on the same pipes
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{r: t.r, w: t.w, own: t.own, incoming: make(chan stdioRead), closed: make(chan struct{})}
	t.own.mu.Lock()
	t.own.write = c.writeLine
	t.own.mu.Unlock()
	go c.readLines()
	return c, nil
}

// stdioRead is one line the connection read: its messages, or why reading
// ended.
type stdioRead struct {
	msgs  []jsonrpc.Message
	batch bool
	err   error
}

// stdioConn is one session's connection to a stdio server.
type stdioConn struct {
	r        *jsonLineReader
	w        tappedWriter
	own      *ownRequests   // takes the answers to its requests off the stream
	incoming chan stdioRead // from readLines
	closed   chan struct{}  // closed by Close

	queue []jsonrpc.Message // the rest of a batch; used by Read only

	closeOnce sync.Once
	closeErr  error // set once, in closeOnce

	mu      sync.Mutex            // guards batches, and serializes writes
	batches map[jsonrpc.ID]*batch // incoming batches with requests not yet answered, by request
}

// batch is an incoming batch's requests and their answers so far.
type batch struct {
	unanswered map[jsonrpc.ID]int // index in answers
	answers    []*jsonrpc.Response
}

// readLines reads until the stream or the connection ends. Reads block on
// the server's output, which Close ends by closing it.
func (c *stdioConn) readLines() {
	defer c.own.ended()
	for {
		var r stdioRead
		line, err := c.r.next()
		if err == nil {
			r.msgs, r.batch, err = decodeLine(line)
			if err != nil && !isJSONRPC(line) {
				// JSON, but not a message (a log line): skipped, as
				// jsonLineReader skips text.
				c.r.skip(line)
				continue
			}
			if err == nil && !r.batch && c.own.claim(r.msgs[0]) {
				continue
			}
		}
		r.err = err
		if err != nil {
			c.own.ended() // before go-sdk reads the end, which it may never do
		}
		select {
		case c.incoming <- r:
		case <-c.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// maxDepth is go-sdk's bound on the nesting of a message it decodes.
const maxDepth = 1000

// decodeLine decodes one line as IOTransport does: a batch when it is an
// array go-sdk reads as one, else one message.
func decodeLine(line []byte) ([]jsonrpc.Message, bool, error) {
	var raws []json.RawMessage
	if len(line) > 0 && line[0] == '[' && jsondepth.Of(line) <= maxDepth && json.Unmarshal(line, &raws) == nil {
		if len(raws) == 0 {
			return nil, true, errors.New("empty batch")
		}
		msgs := make([]jsonrpc.Message, len(raws))
		for i, raw := range raws {
			msg, err := rpcwire.Decode(raw)
			if err != nil {
				return nil, true, err
			}
			msgs[i] = msg
		}
		return msgs, true, nil
	}
	msg, err := rpcwire.Decode(line)
	if err != nil {
		return nil, false, err
	}
	return []jsonrpc.Message{msg}, false, nil
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		return next, nil
	}
	var r stdioRead
	select {
	case r = <-c.incoming:
		select {
		case <-c.closed:
			return nil, io.EOF // the pipes closed under this read: Close's answer, not their error
		default:
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.batch {
		if err := c.addBatch(r.msgs); err != nil {
			return nil, err
		}
	}
	c.queue = r.msgs[1:]
	return r.msgs[0], nil
}

// addBatch keeps track of the requests of an incoming batch, to answer
// them in one batch. As IOTransport (go-sdk v1.8.0) does, it counts a
// notification as a request to answer, under the id it does not have: a
// batch with two notifications is refused, and one with a notification is
// never answered.
func (c *stdioConn) addBatch(msgs []jsonrpc.Message) error {
	b := &batch{unanswered: make(map[jsonrpc.ID]int)}
	for _, msg := range msgs {
		if req, ok := msg.(*jsonrpc.Request); ok {
			if _, dup := b.unanswered[req.ID]; dup {
				return fmt.Errorf("duplicate message ID %q", req.ID)
			}
			b.unanswered[req.ID] = len(b.answers)
			b.answers = append(b.answers, nil)
		}
	}
	if len(b.unanswered) == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range b.unanswered {
		if _, ok := c.batches[id]; ok {
			return fmt.Errorf("invalid request: batch contains previously seen request %v", id.Raw())
		}
	}
	if c.batches == nil {
		c.batches = make(map[jsonrpc.ID]*batch)
	}
	for id := range b.unanswered {
		c.batches[id] = b
	}
	return nil
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if b, ok := c.batches[resp.ID]; ok {
			b.answers[b.unanswered[resp.ID]] = resp
			delete(b.unanswered, resp.ID)
			delete(c.batches, resp.ID)
			if len(b.unanswered) > 0 {
				return nil
			}
			raws := make([]json.RawMessage, len(b.answers))
			for i, a := range b.answers {
				raw, err := jsonrpc.EncodeMessage(a)
				if err != nil {
					return fmt.Errorf("encoding batch message: %w", err)
				}
				raws[i] = raw
			}
			data, err := json.Marshal(raws)
			if err != nil {
				return err
			}
			_, err = c.w.Write(append(data, '\n'))
			return err
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// writeLine writes one line of capbridge's own (see [ownRequests]),
// between go-sdk's.
func (c *stdioConn) writeLine(line []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.w.Write(line)
	return err
}

// Close closes both pipes, as IOTransport does: the server's stdin (which
// tells it to exit) and its stdout (which ends readLines).
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed) // first: a read the pipes' closing wakes must see it
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
	})
	return c.closeErr
}

func (*stdioConn) SessionID() string { return "" }
