package schema

import "testing"

func TestNameSkeleton(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		alike bool
	}{
		{"gmail", "gmaiI", true},       // capital I for small l
		{"gmail", "grnail", true},      // rn for m
		{"gmail", "gmаil", true},       // Cyrillic а
		{"gmail", "Gmail", true},       // case alone
		{"gmail", "gma\u200bil", true}, // an invisible character
		{"github", "ｇｉｔｈｕｂ", true},     // fullwidth
		{"gmail", "gcal", false},
		{"gmail", "gmail2", false},
		{"files", "tiles", false},
	} {
		if got := NameSkeleton(tt.a) == NameSkeleton(tt.b); got != tt.alike {
			t.Errorf("%q and %q alike = %v (%q, %q), want %v", tt.a, tt.b, got, NameSkeleton(tt.a), NameSkeleton(tt.b), tt.alike)
		}
	}
}
