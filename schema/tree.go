package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// node is one JSON value decoded without loss: object keys keep their order,
// numbers keep their literal text.
type node struct {
	kind  nodeKind
	keys  []string // object member names, in document order
	vals  []*node  // object member values, parallel to keys; array items
	text  string   // string value, or a number's literal text
	truth bool     // boolean value
}

type nodeKind uint8

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// Parse failures the caller turns into refusals.
var (
	errInvalidUTF8   = errors.New("invalid UTF-8")
	errDuplicateKey  = errors.New("duplicate member name")
	errTooDeep       = errors.New("nested too deep")
	errTrailingBytes = errors.New("data after the JSON value")
)

// parseError says where a document failed to parse.
type parseError struct {
	err   error
	where string // JSON Pointer of the offending object, or the duplicated name
}

func (e *parseError) Error() string {
	if e.where == "" {
		return e.err.Error()
	}
	return fmt.Sprintf("%v at %q", e.err, e.where)
}

func (e *parseError) Unwrap() error { return e.err }

// parseTree decodes one JSON document, refusing invalid UTF-8, duplicate
// member names and nesting deeper than maxDepth containers.
func parseTree(data []byte, maxDepth int) (*node, error) {
	if !utf8.Valid(data) {
		return nil, &parseError{err: errInvalidUTF8}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := treeParser{dec: dec, maxDepth: maxDepth}
	root, err := p.value(0, "")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &parseError{err: errTrailingBytes}
	}
	return root, nil
}

type treeParser struct {
	dec      *json.Decoder
	maxDepth int
	depth    int // deepest container nesting seen
}

func (p *treeParser) value(depth int, ptr string) (*node, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kindNull}, nil
	case bool:
		return &node{kind: kindBool, truth: t}, nil
	case json.Number:
		return &node{kind: kindNumber, text: string(t)}, nil
	case string:
		return &node{kind: kindString, text: t}, nil
	case json.Delim:
		depth++
		p.depth = max(p.depth, depth)
		if depth > p.maxDepth {
			return nil, &parseError{err: errTooDeep, where: ptr}
		}
		if t == '[' {
			return p.array(depth, ptr)
		}
		return p.object(depth, ptr)
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

func (p *treeParser) array(depth int, ptr string) (*node, error) {
	n := &node{kind: kindArray}
	for p.dec.More() {
		v, err := p.value(depth, fmt.Sprintf("%s/%d", ptr, len(n.vals)))
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	_, err := p.dec.Token() // ']'
	return n, err
}

func (p *treeParser) object(depth int, ptr string) (*node, error) {
	n := &node{kind: kindObject}
	var seen map[string]bool
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if n.hasKey(key, &seen) {
			return nil, &parseError{err: errDuplicateKey, where: ptr + "/" + escapePointer(key)}
		}
		v, err := p.value(depth, ptr+"/"+escapePointer(key))
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
	_, err := p.dec.Token() // '}'
	return n, err
}

// smallObject is the member count up to which duplicate names are found by
// scanning rather than through a map.
const smallObject = 16

// hasKey reports whether an object being parsed already has key, keeping
// seen (a set of its names) once it grows past smallObject members.
func (n *node) hasKey(key string, seen *map[string]bool) bool {
	if len(n.keys) < smallObject {
		for _, k := range n.keys {
			if k == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(n.keys))
		for _, k := range n.keys {
			(*seen)[k] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// get returns the member named key of an object node, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// str returns the value of a string node, or "".
func (n *node) str() string {
	if n == nil || n.kind != kindString {
		return ""
	}
	return n.text
}

// escapePointer escapes one JSON Pointer reference token (RFC 6901).
func escapePointer(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// unescapePointer reverses escapePointer.
func unescapePointer(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
}
