package bridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/capbridge/capbridge/internal/jsondepth"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Bounds of one client message on stdio. go-sdk ends the whole session, and
// so serve, on a message nested deeper than 1,000 levels or longer than its
// 16 MiB line limit; the guard answers such a message alone, before go-sdk
// sees it.
const (
	maxClientDepth = 512
	maxClientLine  = 16<<20 - 1
)

// stdinGuard reads the client's messages, one a line, for the session
// ([guardConn]): go-sdk ends the whole session on the first message it
// cannot decode. A line over maxClientDepth levels of nesting or
// maxClientLine bytes is answered, when it carries an id, with a JSON-RPC
// error written to out, and dropped; so is any line that is not one
// JSON-RPC 2.0 message (see [checkLine]), answered with a parse error or an
// invalid request error.
type stdinGuard struct {
	r      *bufio.Reader
	closer io.Closer
	out    *lockedWriter // shared with the session's writes
	logger *slog.Logger
	line   []byte // reused line buffer
}

func newStdinGuard(r io.ReadCloser, out *lockedWriter, logger *slog.Logger) *stdinGuard {
	return &stdinGuard{r: bufio.NewReaderSize(r, 64<<10), closer: r, out: out, logger: logger}
}

// next returns the next message the session may read, decoded as go-sdk
// decodes it, or the error that ended the client's input.
func (g *stdinGuard) next() (jsonrpc.Message, error) {
	for {
		line, tooLong, err := g.readLine()
		var msg jsonrpc.Message
		switch depth := jsondepth.Of(line); {
		case tooLong:
			g.reject(line, fmt.Sprintf("message longer than %d bytes", maxClientLine))
		case depth > maxClientDepth:
			g.reject(line, fmt.Sprintf("message nested %d levels deep, over the %d limit", depth, maxClientDepth))
		default:
			msg = g.admit(line)
		}
		if msg != nil {
			return msg, nil // an error with it comes again on the next call
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine reads one line without its newline. Past maxClientLine it keeps
// the first maxClientLine bytes, discards the rest and says so.
func (g *stdinGuard) readLine() (line []byte, tooLong bool, err error) {
	g.line = g.line[:0]
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !tooLong {
			g.line = append(g.line, chunk...)
			if len(g.line) > maxClientLine {
				g.line, tooLong = g.line[:maxClientLine], true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(g.line, []byte{'\n'}), tooLong, err
	}
}

// admit returns the message on line when it is one JSON-RPC 2.0 message,
// and otherwise answers it with the JSON-RPC error it calls for and returns
// nil. A blank line is skipped.
func (g *stdinGuard) admit(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	msg, e := checkLine(line)
	if e != nil {
		g.logger.Warn("answered a malformed client message with a JSON-RPC error", "code", e.code, "reason", e.why, "id", string(e.id))
		g.out.Write(e.response())
		return nil
	}
	return msg
}

// reject answers the request on line, if it has an id, with an Invalid
// Request error.
func (g *stdinGuard) reject(line []byte, why string) {
	id := topLevelID(line)
	g.logger.Warn("rejected a client message go-sdk would end the session on", "reason", why, "id", string(id))
	if id == nil {
		return
	}
	g.out.Write(invalidRequest(id, why).response())
}

// topLevelID returns the raw "id" member of the JSON object on line, found
// without decoding the (possibly hostile) values around it, or nil. Only a
// string or number id is returned.
func topLevelID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		if key, _ := tok.(string); key == "id" {
			var id json.RawMessage
			if dec.Decode(&id) != nil || len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
				return nil
			}
			return id
		}
		if skipValue(dec) != nil {
			return nil
		}
	}
	return nil
}

// skipValue reads past one value with Token, which does not limit depth.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// lockedWriter serializes writes to the client's stdout: the transport's
// messages and the guard's errors each go out whole.
type lockedWriter struct {
	mu sync.Mutex // guards w
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (*lockedWriter) Close() error { return nil } // stdout is not the transport's to close
