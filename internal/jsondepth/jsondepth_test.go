package jsondepth

import "testing"

func TestOf(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{``, 0},
		{`1`, 0},
		{`{}`, 1},
		{`[[{"a":[1]}]]`, 4},
		{`{"a":"[[[[{{"}`, 1}, // brackets in a string
		{`{"a":"\"[[["}`, 1},  // an escaped quote does not end the string
		{`]]]{"a":{}}`, 2},    // stray closers count nothing
		{`[{"a":1},{"b":[2,[3]]}]`, 4},
	}
	for _, tt := range tests {
		if got := Of([]byte(tt.in)); got != tt.want {
			t.Errorf("Of(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func FuzzOf(f *testing.F) {
	f.Add([]byte(`[{"a":"\\"}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := Of(b); d < 0 || d > len(b) {
			t.Fatalf("Of = %d for %d bytes", d, len(b))
		}
	})
}
