package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// members returns an object of n members, "k0" to "k(n-1)".
func members(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// items returns an array of n small items.
func items(n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(`"id",`, n), ",") + "]"
}

func TestCheckArgBounds(t *testing.T) {
	tests := []struct {
		name      string
		raw       string
		wantPath  string // "" with wantArray false and ok true: no error
		wantArray bool
		ok        bool
	}{
		{"empty", `{}`, "", false, true},
		{"empty containers", `{"a":{},"b":[],"c":[[],{}]}`, "", false, true},
		{"members at the bound", `{"actionId":"x","params":` + members(MaxArgMembers) + `}`, "", false, true},
		{"members past the bound", `{"actionId":"x","params":` + members(MaxArgMembers+1) + `}`, "/params", false, false},
		{"200,000 members", `{"params":` + members(200_000) + `}`, "/params", false, false},
		{"a nested object", `{"params":{"filter":{"deep":` + members(MaxArgMembers+1) + `}}}`, "/params/filter/deep", false, false},
		{"items at the bound", `{"params":{"ids":` + items(MaxArgItems) + `}}`, "", false, true},
		{"items past the bound", `{"params":{"ids":` + items(MaxArgItems+1) + `}}`, "/params/ids", true, false},
		{"an array in an array", `{"params":{"rows":[[1],[2],` + items(MaxArgItems+1) + `]}}`, "/params/rows/2", true, false},
		{"a key needing escapes", `{"params":{"a/b~c\"d":` + items(MaxArgItems+1) + `}}`, "/params/a~1b~0c\"d", true, false},
		{"commas and brackets in strings do not count", `{"params":{"s":"` + strings.Repeat(`,[{\",`, 20_000) + `"}}`, "", false, true},
		{"a long key is cut", `{"` + strings.Repeat("k", 100) + `":` + items(MaxArgItems+1) + `}`, "/" + strings.Repeat("k", 64) + "...", true, false},
		{"the root itself", members(MaxArgMembers + 1), "", false, false},
		{"not JSON is left to the decoder", `}}]],,,"`, "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckArgBounds([]byte(tt.raw))
			if tt.ok {
				if err != nil {
					t.Fatalf("CheckArgBounds: %v", err)
				}
				return
			}
			var be *ArgBoundError
			if !errors.As(err, &be) {
				t.Fatalf("CheckArgBounds = %v, want an *ArgBoundError", err)
			}
			if be.Path != tt.wantPath || be.Array != tt.wantArray {
				t.Errorf("error at %q (array %v), want %q (array %v)", be.Path, be.Array, tt.wantPath, tt.wantArray)
			}
		})
	}
}

// TestArgBoundsFitRealSchemas keeps MaxArgMembers four times above the
// most properties any real object schema in testdata declares, as its
// documentation says.
func TestArgBoundsFitRealSchemas(t *testing.T) {
	most, where := 0, ""
	for _, path := range []string{
		dataPath("catalogs", "laptop.jsonl"), dataPath("catalogs", "twilio-all.jsonl"),
		dataPath("bench", "retrieval_bfcl", "catalog.jsonl"), dataPath("bench", "retrieval_metatool", "catalog.jsonl"),
	} {
		for _, line := range readLines(t, path) {
			var tool struct {
				Server, Name string
				InputSchema  any `json:"inputSchema"`
			}
			if err := json.Unmarshal(line, &tool); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if n := mostProperties(tool.InputSchema); n > most {
				most, where = n, tool.Server+"/"+tool.Name
			}
		}
	}
	t.Logf("the most properties of one object schema: %d (%s)", most, where)
	if most == 0 || MaxArgMembers < 4*most {
		t.Errorf("MaxArgMembers = %d, want at least 4 x %d", MaxArgMembers, most)
	}
}

// mostProperties returns the most properties any object schema within s
// declares.
func mostProperties(s any) int {
	most := 0
	switch s := s.(type) {
	case map[string]any:
		if p, ok := s["properties"].(map[string]any); ok {
			most = len(p)
		}
		for k, v := range s {
			if k != "enum" && k != "const" && k != "default" && k != "examples" {
				most = max(most, mostProperties(v))
			}
		}
	case []any:
		for _, v := range s {
			most = max(most, mostProperties(v))
		}
	}
	return most
}

// FuzzCheckArgBounds compares the scan with a count over the tokens of a
// real JSON decoder, with small bounds so that short inputs cross them.
func FuzzCheckArgBounds(f *testing.F) {
	for _, seed := range []string{`{}`, `{"a":1,"b":2,"c":3}`, `[1,2,3,4]`, `{"x":[{"a":1,"b":2,"c":[1,2,3,4]}]}`, `{"a":[1,2,3],"b":{"c":1,"d":2,"e":3}}`, `[[1,2],[3,4,5]]`, `{"a\"b":"x,y]"}`, `"str"`, `[{"a":[]},{}]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		const maxMembers, maxItems = 2, 3
		err := checkArgBounds(raw, maxMembers, maxItems)
		over, valid := overBounds(raw, maxMembers, maxItems)
		if !valid {
			return // only that it did not panic
		}
		if (err != nil) != over {
			t.Errorf("checkArgBounds(%s) = %v; a decoder says past a bound: %v", raw, err, over)
		}
	})
}

// overBounds counts members and items with encoding/json's tokens, and
// reports whether raw is one valid JSON value with a container past a bound.
func overBounds(raw []byte, maxMembers, maxItems int) (over, valid bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	type frame struct {
		array  bool
		tokens int
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return over, len(stack) == 0
		}
		if err != nil {
			return false, false
		}
		switch tok {
		case json.Delim('}'), json.Delim(']'):
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			// An object's tokens are its keys and values.
			n, limit := f.tokens/2, maxMembers
			if f.array {
				n, limit = f.tokens, maxItems
			}
			over = over || n > limit
			continue
		}
		if len(stack) > 0 {
			stack[len(stack)-1].tokens++
		}
		if tok == json.Delim('{') || tok == json.Delim('[') {
			stack = append(stack, frame{array: tok == json.Delim('[')})
		}
	}
}

// BenchmarkCheckArgBounds measures the scan: params past the bound (it
// stops at the first member past it) and params just inside both bounds
// (it reads them whole).
func BenchmarkCheckArgBounds(b *testing.B) {
	for _, bc := range []struct{ name, raw string }{
		{"members=200000", `{"params":` + members(200_000) + `}`},
		{"items=200000", `{"params":{"ids":` + items(200_000) + `}}`},
		{"at-bounds", `{"params":{"m":` + members(MaxArgMembers) + `,"ids":` + items(MaxArgItems) + `}}`},
	} {
		raw := []byte(bc.raw)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				CheckArgBounds(raw)
			}
		})
	}
}
