package upstream

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// scannedAnswer is what [scanAnswer] read of one JSON-RPC message.
type scannedAnswer struct {
	version string          // "jsonrpc"
	id      json.RawMessage // as sent
	page    *rawPage        // the result, when it is an object
}

// scanAnswer reads l as one JSON-RPC message whose result is an object,
// token by token, without joining l's blocks: each tool of the result's
// tools array is a slice of the block that holds it (a copy only when it
// crosses two), found by its offset in the line. It reads what
// json.Unmarshal into [rawPage] would, and checks what json.Unmarshal would
// check (the whole line is one valid JSON value).
//
// It reports false for any message it cannot read that way with
// certainty: not an object, a result that is not an object, tools that are
// not an array, a member it reads named twice or in another case ("ID",
// which json.Unmarshal would also take), invalid JSON. The caller then
// reads the line whole, as it reads every other message.
func scanAnswer(l *line) (*scannedAnswer, bool) {
	dec := json.NewDecoder(l.reader())
	a := &scannedAnswer{}
	seen := make(map[string]bool, 3)
	ok := scanObject(dec, []string{"jsonrpc", "id", "result"}, seen, func(key string) error {
		switch key {
		case "jsonrpc":
			return dec.Decode(&a.version)
		case "id":
			return dec.Decode(&a.id)
		}
		page, err := scanPage(dec, l)
		a.page = page
		return err
	})
	if !ok {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF { // one value, and nothing after it
		return nil, false
	}
	return a, true
}

// scanPage reads a result object: tools (each a slice of l), nextCursor and
// resultType.
func scanPage(dec *json.Decoder, l *line) (*rawPage, error) {
	page := &rawPage{}
	seen := make(map[string]bool, 3)
	ok := scanObject(dec, []string{"tools", "nextCursor", "resultType"}, seen, func(key string) error {
		switch key {
		case "nextCursor":
			return dec.Decode(&page.NextCursor)
		case "resultType":
			return dec.Decode(&page.ResultType)
		}
		tools, err := scanTools(dec, l)
		page.Tools = tools
		return err
	})
	if !ok {
		return nil, errNotScanned
	}
	return page, nil
}

// scanTools reads the tools array, each tool a slice of l.
func scanTools(dec *json.Decoder, l *line) ([]json.RawMessage, error) {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, errNotScanned
	}
	tools := []json.RawMessage{}
	for dec.More() {
		var v valueEnds
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if v.n == 0 {
			return nil, errNotScanned // not shown the value's bytes
		}
		// The offset is just past the value: Decode reads no further.
		end := int(dec.InputOffset())
		start := end - v.n
		raw := l.slice(start, end)
		if len(raw) != v.n || raw[0] != v.first || raw[len(raw)-1] != v.last {
			return nil, errNotScanned
		}
		tools = append(tools, raw)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, errNotScanned
	}
	return tools, nil
}

// scanObject reads one object, calling read for each member named in
// names, which must read its value, and checking every other member's value
// for validity only. It reports false for an object it cannot read with
// certainty: not an object, invalid, a name in names twice, a member whose
// name matches one in names only in another case, or a failed read.
func scanObject(dec *json.Decoder, names []string, seen map[string]bool, read func(key string) error) bool {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		known := false
		for _, n := range names {
			if strings.EqualFold(key, n) {
				if key != n || seen[n] {
					return false
				}
				known = true
			}
		}
		if known {
			seen[key] = true
			err = read(key)
		} else {
			err = dec.Decode(&valueEnds{})
		}
		if err != nil {
			return false
		}
	}
	tok, err := dec.Token()
	return err == nil && tok == json.Delim('}')
}

// errNotScanned ends a scan that cannot read the message with certainty.
var errNotScanned = errors.New("message not scanned")

// valueEnds takes one JSON value's length and its first and last bytes,
// not its bytes.
type valueEnds struct {
	n           int
	first, last byte
}

func (v *valueEnds) UnmarshalJSON(b []byte) error {
	if len(b) == 0 {
		return errNotScanned
	}
	v.n, v.first, v.last = len(b), b[0], b[len(b)-1]
	return nil
}
