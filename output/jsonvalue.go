package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A JSON value inside this package is one of: nil, bool, json.Number, string,
// []any, or object. Objects keep the provider's key order, so that table
// columns and key: value lines read in the order the provider chose.

// member is one key of an object.
type member struct {
	key string
	val any
}

// object is a JSON object in the provider's key order. Keys are unique: a
// repeated key keeps its first position and its last value, as encoding/json
// would decode it.
type object []member

// get returns the value of key and whether it is present.
func (o object) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// errInvalidJSON reports text that is not one JSON value.
var errInvalidJSON = errors.New("not a single JSON value")

// decodeOrdered parses one JSON value from data, keeping object key order.
// Numbers stay json.Number, so no digit is lost.
func decodeOrdered(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("decoding JSON: %w", errInvalidJSON)
	}
	d := decoder{data: data}
	v, err := d.value()
	if err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return v, nil
}

// decoder reads JSON that json.Valid has accepted; its checks only keep a
// mistake from becoming a panic.
type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte, or 0 at the end.
func (d *decoder) next() byte {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

func (d *decoder) value() (any, error) {
	switch c := d.next(); c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		return d.string()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	default:
		start := d.pos
		for d.pos < len(d.data) && strings.IndexByte("+-.0123456789eE", d.data[d.pos]) >= 0 {
			d.pos++
		}
		if d.pos == start {
			return nil, fmt.Errorf("unexpected byte %q at offset %d", c, start)
		}
		return json.Number(d.data[start:d.pos]), nil
	}
}

func (d *decoder) literal(word string) error {
	if !bytes.HasPrefix(d.data[d.pos:], []byte(word)) {
		return fmt.Errorf("expected %s at offset %d", word, d.pos)
	}
	d.pos += len(word)
	return nil
}

// object reads an object; a repeated key keeps its first position and its
// last value.
func (d *decoder) object() (object, error) {
	d.pos++ // '{'
	obj := object{}
	var index map[string]int
	if d.next() == '}' {
		d.pos++
		return obj, nil
	}
	for {
		if d.next() != '"' {
			return nil, fmt.Errorf("expected a key at offset %d", d.pos)
		}
		key, err := d.string()
		if err != nil {
			return nil, err
		}
		if d.next() != ':' {
			return nil, fmt.Errorf("expected ':' at offset %d", d.pos)
		}
		d.pos++
		val, err := d.value()
		if err != nil {
			return nil, err
		}
		if i := obj.find(key, &index); i >= 0 {
			obj[i].val = val
		} else {
			obj = append(obj, member{key: key, val: val})
			if index != nil {
				index[key] = len(obj) - 1
			}
		}
		switch d.next() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return obj, nil
		default:
			return nil, fmt.Errorf("expected ',' or '}' at offset %d", d.pos)
		}
	}
}

// find returns the position of key in obj, or -1. Small objects are
// scanned; a large one gets an index, built on first need and kept current
// by the caller.
func (obj object) find(key string, index *map[string]int) int {
	if *index == nil && len(obj) < 16 {
		for i, m := range obj {
			if m.key == key {
				return i
			}
		}
		return -1
	}
	if *index == nil {
		*index = make(map[string]int, len(obj))
		for i, m := range obj {
			(*index)[m.key] = i
		}
	}
	if i, ok := (*index)[key]; ok {
		return i
	}
	return -1
}

func (d *decoder) array() ([]any, error) {
	d.pos++ // '['
	arr := []any{}
	if d.next() == ']' {
		d.pos++
		return arr, nil
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		switch d.next() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return arr, nil
		default:
			return nil, fmt.Errorf("expected ',' or ']' at offset %d", d.pos)
		}
	}
}

// string reads a string literal. One without escapes in valid UTF-8 is
// taken as it is; any other goes through encoding/json, which unescapes it
// and turns invalid UTF-8 into U+FFFD.
func (d *decoder) string() (string, error) {
	start := d.pos
	plain := true
	for d.pos++; d.pos < len(d.data); d.pos++ {
		switch c := d.data[d.pos]; {
		case c == '\\':
			plain = false
			d.pos++
		case c == '"':
			d.pos++
			raw := d.data[start:d.pos]
			if plain && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", fmt.Errorf("string at offset %d: %w", start, err)
			}
			return s, nil
		}
	}
	return "", fmt.Errorf("unterminated string at offset %d", start)
}

// compactJSON returns v as compact JSON without HTML escaping.
func compactJSON(v any) string {
	return string(appendJSON(nil, v))
}

func appendJSON(buf []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(buf, "null"...)
	case bool:
		return strconv.AppendBool(buf, v)
	case json.Number:
		return append(buf, v...)
	case string:
		return appendJSONString(buf, v)
	case []any:
		buf = append(buf, '[')
		for i, e := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSON(buf, e)
		}
		return append(buf, ']')
	case object:
		buf = append(buf, '{')
		for i, m := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, m.key)
			buf = append(buf, ':')
			buf = appendJSON(buf, m.val)
		}
		return append(buf, '}')
	}
	panic(fmt.Sprintf("output: %T is not a decoded JSON value", v))
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json does.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}
