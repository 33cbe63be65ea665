// Package jsondepth measures how deeply JSON text nests, so that a line
// past a decoder's nesting limit can be refused, or read another way,
// before it is decoded.
package jsondepth

// Of returns the deepest nesting of objects and arrays in b, brackets
// inside strings aside. It does not check that b is JSON; a closing
// bracket without an opening one counts nothing.
func Of(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return deepest
}
