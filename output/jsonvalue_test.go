package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeOrderedKeepsOrderAndDigits(t *testing.T) {
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%02d":%d`, 19-i, i)
	}
	tests := []struct {
		name, in, want string
	}{
		{"key order", `{"z":1,"a":2,"m":3}`, `{"z":1,"a":2,"m":3}`},
		{"big integer", `{"id":12345678901234567890}`, `{"id":12345678901234567890}`},
		{"number text", `[1.50,-0,1e+10,2E-3]`, `[1.50,-0,1e+10,2E-3]`},
		{"repeated key keeps first place, last value", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"repeated key in a large object", `{` + strings.Join(many, ",") + `,"k19":"last"}`,
			`{"k19":"last",` + strings.Join(many[1:], ",") + `}`},
		{"escapes", `["a\"b","\u00e9\n","\ud83d\ude42","<&>"]`, `["a\"b","é\n","🙂","<&>"]`},
		{"invalid UTF-8 becomes U+FFFD", "[\"a\xffb\"]", "[\"a\uFFFDb\"]"},
		{"white space", " \n{ \"a\" : [ 1 , { } , [ ] , null , true , false ] }\t", `{"a":[1,{},[],null,true,false]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decodeOrdered([]byte(tt.in))
			if err != nil {
				t.Fatalf("decodeOrdered: %v", err)
			}
			if got := compactJSON(v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDecodeOrderedRefusesNonJSON(t *testing.T) {
	for _, in := range []string{"", "{", `{"a":1} {"b":2}`, `[1,]`, "nope", `{"a" 1}`} {
		if _, err := decodeOrdered([]byte(in)); !errors.Is(err, errInvalidJSON) {
			t.Errorf("decodeOrdered(%q): %v, want %v", in, err, errInvalidJSON)
		}
	}
}

// FuzzDecodeOrdered checks the order-keeping decoder against encoding/json:
// what one accepts the other does, and both read the same data.
func FuzzDecodeOrdered(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2,{"b":null}],"c":"\u00e9"}`, `[true,false,1e5]`, `"x"`, `{"a":1,"a":2}`, "[\"\xff\"]", `{`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want, wantErr := decodeStd(in)
		v, err := decodeOrdered([]byte(in))
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("decodeOrdered error %v, encoding/json error %v", err, wantErr)
		}
		if err != nil {
			return
		}
		got, err := decodeStd(compactJSON(v))
		if err != nil {
			t.Fatalf("compactJSON wrote invalid JSON %q: %v", compactJSON(v), err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json %#v", got, want)
		}
		var plain any
		if json.Unmarshal([]byte(in), &plain) == nil && !sameData(v, plain) {
			t.Fatalf("sameData says %#v differs from %#v", v, plain)
		}
	})
}

// decodeStd decodes one JSON value with encoding/json, numbers as
// json.Number, so that no number is out of range.
func decodeStd(in string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(in))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() || !json.Valid([]byte(in)) {
		return nil, errors.New("more than one value")
	}
	return v, nil
}
