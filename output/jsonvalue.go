package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
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

// errTrailingData reports JSON text followed by more than white space.
var errTrailingData = errors.New("data after the JSON value")

// decodeOrdered parses one JSON value from data, keeping object key order.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("decoding JSON: %w", errTrailingData)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			return decodeObject(dec)
		case '[':
			return decodeArray(dec)
		}
		return nil, fmt.Errorf("unexpected %q", rune(tok))
	default:
		return tok, nil // nil, bool, json.Number or string
	}
}

func decodeObject(dec *json.Decoder) (object, error) {
	obj := object{}
	index := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key is %T, not a string", tok)
		}
		val, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		if i, seen := index[key]; seen {
			obj[i].val = val
			continue
		}
		index[key] = len(obj)
		obj = append(obj, member{key: key, val: val})
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, err
	}
	return obj, nil
}

func decodeArray(dec *json.Decoder) ([]any, error) {
	arr := []any{}
	for dec.More() {
		v, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if _, err := dec.Token(); err != nil { // ']'
		return nil, err
	}
	return arr, nil
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
