package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Bounds on the shape of a call's arguments, checked by [CheckArgBounds]
// before anything decodes them: decoding, mapping and validating an object
// of 200,000 members took 6 s of CPU.
//
// MaxArgMembers comes from the largest real input schema: among the 4,056
// tools of the catalogs in testdata (testdata/catalogs/*.jsonl.gz and
// testdata/bench/*/catalog.jsonl.gz), the most properties any one object
// schema declares is 205 (Twilio's CreateSiprec, Parameter1..99 name and
// value pairs). Four times that, rounded up, is 1,000. No schema there
// declares a maxItems over 100; arrays carry data (ids, rows) more than
// fields do, so items get a wider bound, 10,000, which still checks in
// well under a millisecond.
const (
	MaxArgMembers = 1000  // members of one object, at any depth
	MaxArgItems   = 10000 // items of one array, at any depth
)

// ArgBoundError is an object or array in a call's arguments past
// [MaxArgMembers] or [MaxArgItems].
type ArgBoundError struct {
	Path  string // JSON Pointer of the object or array, in the names sent
	Array bool   // an array (items), not an object (members)
	Limit int
}

func (e *ArgBoundError) Error() string {
	what := "an object with more than %d members"
	if e.Array {
		what = "an array with more than %d items"
	}
	return fmt.Sprintf(what+"; no tool takes that many: send fewer", e.Limit)
}

// argFrame is one open object or array of the scan.
type argFrame struct {
	array  bool
	count  int    // members or items seen so far, the current one included
	key    []byte // the current member's key as sent (quotes and escapes included)
	hasKey bool   // key is set for the current member
}

// CheckArgBounds scans raw JSON once, without decoding it, and returns an
// [*ArgBoundError] for the first object with more than [MaxArgMembers]
// members or array with more than [MaxArgItems] items, as soon as it meets
// the member or item past the bound. It does not check that raw is valid
// JSON: decoding it afterwards does. Its cost is one pass over the bytes up
// to the first offence.
func CheckArgBounds(raw []byte) error {
	return checkArgBounds(raw, MaxArgMembers, MaxArgItems)
}

func checkArgBounds(raw []byte, maxMembers, maxItems int) error {
	var stack []argFrame
	top := func() *argFrame {
		if len(stack) == 0 {
			return nil
		}
		return &stack[len(stack)-1]
	}
	// begin marks the start of a value or key in the innermost container.
	begin := func() {
		if f := top(); f != nil && f.count == 0 {
			f.count = 1
		}
	}
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case ' ', '\t', '\n', '\r', ':':
		case '"':
			begin()
			end := stringEnd(raw, i)
			if f := top(); f != nil && !f.array && !f.hasKey {
				f.key, f.hasKey = raw[i:end], true
			}
			i = end - 1
		case '{', '[':
			begin()
			stack = append(stack, argFrame{array: c == '['})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			f := top()
			if f == nil {
				continue
			}
			f.count++
			f.hasKey = false
			limit := maxMembers
			if f.array {
				limit = maxItems
			}
			if f.count > limit {
				return &ArgBoundError{Path: argPath(stack[:len(stack)-1]), Array: f.array, Limit: limit}
			}
		default:
			begin()
		}
	}
	return nil
}

// stringEnd returns the index just past the string starting at raw[i],
// or len(raw) when it is not closed.
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(raw)
}

// maxPathKeyChars bounds each key of an [ArgBoundError] path: the keys are
// the caller's, of any length.
const maxPathKeyChars = 64

// argPath is the JSON Pointer of the container that the frames lead to:
// each object frame's current key, each array frame's current index.
func argPath(frames []argFrame) string {
	var b strings.Builder
	for _, f := range frames {
		b.WriteByte('/')
		if f.array {
			b.WriteString(strconv.Itoa(f.count - 1))
			continue
		}
		var key string
		if json.Unmarshal(f.key, &key) != nil {
			key = string(f.key)
		}
		if r := []rune(key); len(r) > maxPathKeyChars {
			key = string(r[:maxPathKeyChars]) + "..."
		}
		b.WriteString(escapePointer(key))
	}
	return b.String()
}
