// Package rpcwire decodes JSON-RPC messages exactly as go-sdk's
// jsonrpc.DecodeMessage does, without its cost on the common case.
//
// go-sdk decodes every message through a decoder that allocates a 32 KiB
// buffer per call, and a request twice (the envelope, then its method).
// A tool call crosses three such decodes in the bridge. [Decode] reads a
// plain message itself: one JSON object whose member names have no
// escapes and appear once, "jsonrpc":"2.0", a string or small integer id
// and a string method, or a result with no error. Anything else, and every
// malformed line, goes to go-sdk, so that what a session is handed, and
// which lines it refuses with which error, stay go-sdk's own.
package rpcwire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/capbridge/capbridge/internal/jsondepth"
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
	if msg, ok := decodePlain(data); ok {
		return msg, nil
	}
	return jsonrpc.DecodeMessage(data)
}

// members are the raw values of a message's JSON-RPC members, nil when
// absent.
type members struct {
	version, id, method, params, result, err []byte
}

// decodePlain decodes data when it is a plain message (see the package
// doc); ok is false for anything else.
func decodePlain(data []byte) (jsonrpc.Message, bool) {
	if !json.Valid(data) || jsondepth.Of(data) > maxDepth {
		return nil, false
	}
	m, ok := split(data)
	if !ok || string(m.version) != `"2.0"` || m.err != nil {
		return nil, false
	}
	id, ok := readID(m.id)
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
	if m.method != nil {
		method, ok := plainString(m.method)
		if !ok || m.result != nil || isNull(m.params) {
			return nil, false
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: own(m.params)}, true
	}
	if !id.IsValid() || m.result == nil || isNull(m.result) || m.params != nil {
		return nil, false
	}
	return &jsonrpc.Response{ID: id, Result: own(m.result)}, true
}

// split returns the JSON-RPC members of data, valid JSON, when it is an
// object whose member names need no unescaping and name no JSON-RPC
// member twice.
func split(data []byte) (members, bool) {
	var m members
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return m, false
	}
	i++
	for {
		i = skipSpace(data, i)
		switch data[i] {
		case '}':
			return m, true
		case ',':
			i = skipSpace(data, i+1)
		}
		end := stringEnd(data, i)
		name := data[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return m, false
		}
		i = skipSpace(data, end) + 1 // past the ':'
		i = skipSpace(data, i)
		end = valueEnd(data, i)
		v := data[i:end:end]
		i = end
		var slot *[]byte
		switch string(name) {
		case "jsonrpc":
			slot = &m.version
		case "id":
			slot = &m.id
		case "method":
			slot = &m.method
		case "params":
			slot = &m.params
		case "result":
			slot = &m.result
		case "error":
			slot = &m.err
		default:
			continue
		}
		if *slot != nil {
			return m, false
		}
		*slot = v
	}
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
// in valid JSON.
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}
