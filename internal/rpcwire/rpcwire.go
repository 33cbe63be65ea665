// Package rpcwire reads JSON-RPC messages: their members, exactly as
// go-sdk names them, and the message go-sdk's jsonrpc.DecodeMessage makes
// of them, without its cost on the common case.
//
// go-sdk decodes every message through a decoder that allocates a 32 KiB
// buffer per call, and a request twice (the envelope, then its method).
// A tool call crosses three such decodes in the bridge. [Decode] reads a
// plain message itself: one JSON object whose JSON-RPC member names have
// no escapes and appear once, "jsonrpc":"2.0", a string or small integer
// id and a string method, or a result with no error. Anything else, and
// every malformed line, goes to go-sdk, so that what a session is handed,
// and which lines it refuses with which error, stay go-sdk's own.
package rpcwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxDepth is go-sdk's bound on the nesting of a message it decodes.
const maxDepth = 1000

// maxIDDigits bounds an integer id read here: up to 15 digits, every
// value converts through float64, as go-sdk reads it, without loss.
const maxIDDigits = 15

// Decode decodes one JSON-RPC message as [jsonrpc.DecodeMessage] does.
// The message does not alias data.
func Decode(data []byte) (jsonrpc.Message, error) {
	if json.Valid(data) {
		if m, err := Split(data); err == nil {
			return m.Decode(data)
		}
	}
	return jsonrpc.DecodeMessage(data)
}

// Members are the raw values of the members JSON-RPC gives a meaning to,
// each nil when absent, as [Split] found them.
type Members struct {
	Version, ID, Method, Params, Result, Error []byte
	// escaped: one of these members' names was written with escapes.
	escaped bool
	// depth is the deepest nesting of the message's objects and arrays.
	depth int
}

// Split returns the JSON-RPC members of data, which must be valid JSON
// (see json.Valid). Names match exactly, after unescaping, as go-sdk
// reads them (no case folding); such a member given twice is an error,
// since decoders disagree on which one counts. Values are not checked.
func Split(data []byte) (Members, error) {
	m := Members{depth: 1}
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return m, errors.New("a JSON-RPC message is a JSON object")
	}
	i++
	for {
		i = skipSpace(data, i)
		switch data[i] {
		case '}':
			return m, nil
		case ',':
			i = skipSpace(data, i+1)
		}
		end := stringEnd(data, i)
		name, escaped := string(data[i+1:end-1]), false
		if strings.IndexByte(name, '\\') >= 0 {
			if err := json.Unmarshal(data[i:end], &name); err != nil {
				return m, err
			}
			escaped = true
		}
		i = skipSpace(data, end) + 1 // past the ':'
		i = skipSpace(data, i)
		end, depth := valueEnd(data, i)
		m.depth = max(m.depth, 1+depth)
		v := data[i:end:end]
		i = end
		var slot *[]byte
		switch name {
		case "jsonrpc":
			slot = &m.Version
		case "id":
			slot = &m.ID
		case "method":
			slot = &m.Method
		case "params":
			slot = &m.Params
		case "result":
			slot = &m.Result
		case "error":
			slot = &m.Error
		default:
			continue
		}
		if *slot != nil {
			return m, fmt.Errorf("member %q appears twice", name)
		}
		*slot = v
		m.escaped = m.escaped || escaped
	}
}

// Decode decodes data, whose members m are (see [Split]), as
// [jsonrpc.DecodeMessage] does. The message does not alias data.
func (m Members) Decode(data []byte) (jsonrpc.Message, error) {
	if msg, ok := m.plain(); ok {
		return msg, nil
	}
	return jsonrpc.DecodeMessage(data)
}

// plain returns the message when it is a plain one (see the package doc);
// ok is false for anything else.
func (m Members) plain() (jsonrpc.Message, bool) {
	if m.depth > maxDepth || m.escaped || string(m.Version) != `"2.0"` || m.Error != nil {
		return nil, false
	}
	id, ok := readID(m.ID)
	if !ok {
		return nil, false
	}
	// The message keeps a copy of its one raw member, not data, which a
	// reader may reuse.
	own := func(raw []byte) json.RawMessage {
		if raw == nil {
			return nil
		}
		return json.RawMessage(bytes.Clone(raw))
	}
	if m.Method != nil {
		method, ok := plainString(m.Method)
		if !ok || m.Result != nil || isNull(m.Params) {
			return nil, false
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: own(m.Params)}, true
	}
	if !id.IsValid() || m.Result == nil || isNull(m.Result) || m.Params != nil {
		return nil, false
	}
	return &jsonrpc.Response{ID: id, Result: own(m.Result)}, true
}

// readID reads an id that is absent, a plain string or an integer of at
// most [maxIDDigits] digits.
func readID(raw []byte) (jsonrpc.ID, bool) {
	if raw == nil {
		return jsonrpc.ID{}, true
	}
	if s, ok := plainString(raw); ok {
		id, err := jsonrpc.MakeID(s)
		return id, err == nil
	}
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > maxIDDigits {
		return jsonrpc.ID{}, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return jsonrpc.ID{}, false
		}
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(float64(n))
	return id, err == nil
}

// plainString returns the text of raw, a JSON string, when it has no
// escapes and is valid UTF-8, so that its bytes are its text.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	return string(s), true
}

func isNull(raw []byte) bool { return string(raw) == "null" }

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the index just past the string that starts at
// data[i].
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// valueEnd returns the index just past the value that starts at data[i],
// in valid JSON, and how deeply its objects and arrays nest.
func valueEnd(data []byte, i int) (end, depth int) {
	switch data[i] {
	case '"':
		return stringEnd(data, i), 0
	case '{', '[':
		d := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				d++
				depth = max(depth, d)
			case '}', ']':
				d--
				if d == 0 {
					return j + 1, depth
				}
			}
		}
		return len(data), depth
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j, 0
		}
		j++
	}
	return j, 0
}
