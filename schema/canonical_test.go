package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{`{"b":1,"a":[true,false,null]}`, `{"a":[true,false,null],"b":1}`, nil},
		{" { \"z\" : { \"y\" : 1 , \"x\" : 2 } } ", `{"z":{"x":2,"y":1}}`, nil},
		{`[12345678901234567890,1e400,-0.10,1E+2]`, `[12345678901234567890,1e400,-0.10,1E+2]`, nil},
		{`"\u00e9\n\"\\\u0001/<>&"`, "\"é\\n\\\"\\\\\\u0001/<>&\"", nil},
		{`"\ud800"`, `"` + "\uFFFD" + `"`, nil},
		{`{"größe":"名前"}`, `{"größe":"名前"}`, nil},
		{`{"a":1,"a":2}`, ``, errDuplicateKey},
		{"\"\xff\"", ``, errInvalidUTF8},
		{`{} []`, ``, errTrailingBytes},
	} {
		got, err := Canonical([]byte(tc.in))
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("Canonical(%q) error %v, want %v", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestDuplicateNamesInLargeObjects(t *testing.T) {
	var members []string
	for i := range 3 * smallObject {
		members = append(members, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	if _, err := Canonical([]byte("{" + strings.Join(members, ",") + "}")); err != nil {
		t.Fatalf("distinct names: %v", err)
	}
	for _, dup := range []int{1, smallObject - 1, smallObject, 3*smallObject - 1} {
		doc := "{" + strings.Join(append(slices.Clone(members), fmt.Sprintf(`"k%d":0`, dup)), ",") + "}"
		if _, err := Canonical([]byte(doc)); !errors.Is(err, errDuplicateKey) {
			t.Errorf("k%d twice: %v, want errDuplicateKey", dup, err)
		}
	}
}

// Canonical returns the canonical form of one JSON document: object keys
// sorted bytewise, no insignificant whitespace, numbers as their literal
// text (never rounded), strings with the minimal escaping. Two documents
// that differ only in key order or spacing have the same canonical bytes.
// Documents with invalid UTF-8 or duplicate member names have no canonical
// form and return an error.
func Canonical(doc []byte) ([]byte, error) {
	root, err := parseTree(doc, maxTreeDepth)
	if err != nil {
		return nil, err
	}
	return root.appendCanonical(nil), nil
}
