package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"
)

// Hash returns the hex SHA-256 of canonical JSON bytes.
func Hash(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// maxTreeDepth bounds the nesting of any JSON this package parses, so that no
// input can exhaust the stack. Schemas have their own, lower limit.
const maxTreeDepth = 10 * MaxSchemaDepth

func (n *node) appendCanonical(b []byte) []byte {
	switch n.kind {
	case kindNull:
		return append(b, "null"...)
	case kindBool:
		if n.truth {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case kindNumber:
		return append(b, n.text...)
	case kindString:
		return appendString(b, n.text)
	case kindArray:
		b = append(b, '[')
		for i, v := range n.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.appendCanonical(b)
		}
		return append(b, ']')
	}
	order := make([]int, len(n.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(n.keys[x], n.keys[y]) })
	b = append(b, '{')
	for i, at := range order {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, n.keys[at])
		b = append(b, ':')
		b = n.vals[at].appendCanonical(b)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaping only what JSON requires.
// Runs of bytes that need no escape are copied whole.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		b = append(b, s[start:i]...)
		switch {
		case c >= utf8.RuneSelf:
			b = append(b, `\ufffd`...)
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
