package schema

import (
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"
)

func TestAliases(t *testing.T) {
	long := strings.Repeat("a", 100)
	for _, tc := range []struct {
		name  string
		props []string
		want  map[string]string // alias -> provider
	}{
		{"clear names stay", []string{"message_id", "_x", "A1"}, nil},
		{"hyphen beside underscore", []string{"user-id", "user_id"}, map[string]string{"param_01": "user-id"}},
		{"dashes", []string{"x-api-version"}, map[string]string{"param_01": "x-api-version"}},
		{"dots", []string{"user.email"}, map[string]string{"param_01": "user.email"}},
		{"non-ASCII", []string{"größe", "naïve"}, map[string]string{"param_01": "größe", "param_02": "naïve"}},
		{"100 characters", []string{long}, map[string]string{"param_01": long}},
		{"64 characters stay", []string{long[:64]}, nil},
		{"65 characters", []string{long[:65]}, map[string]string{"param_01": long[:65]}},
		{"leading digit", []string{"1st"}, map[string]string{"param_01": "1st"}},
		{"case clash", []string{"Name", "name", "other"}, map[string]string{"param_01": "Name", "param_02": "name"}},
		{"alias never takes a real name", []string{"param_01", "a-b"}, map[string]string{"param_02": "a-b"}},
		{"alias never folds onto a real name", []string{"PARAM_01", "a-b"}, map[string]string{"param_02": "a-b"}},
		{"empty name", []string{""}, map[string]string{"param_01": ""}},
		{"order is by provider name", []string{"z-z", "a-a", "m.m"}, map[string]string{"param_01": "a-a", "param_02": "m.m", "param_03": "z-z"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shown, aliases := assignAliases(tc.props, nil)
			if !maps.Equal(aliases, tc.want) && !(len(aliases) == 0 && len(tc.want) == 0) {
				t.Errorf("aliases %v, want %v", aliases, tc.want)
			}
			for _, p := range tc.props {
				if alias, ok := shown[p]; !ok || (tc.want[alias] != p && alias != p) {
					t.Errorf("%q shown as %q", p, alias)
				}
			}
			again, _ := assignAliases(reverse(tc.props), nil)
			if !maps.Equal(again, shown) {
				t.Errorf("aliases depend on schema order: %v vs %v", again, shown)
			}
		})
	}
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

func TestProviderArgs(t *testing.T) {
	tool := mustNormalize(t, `{"name":"t","inputSchema":{"type":"object","properties":{"user-id":{"type":"string"},"user_id":{"type":"string"},"field":{"type":"object"}}}}`)
	rec := &tool.Record
	for _, tc := range []struct {
		name   string
		args   map[string]any
		want   map[string]any
		errKey string
	}{
		{"alias and kept name", map[string]any{"param_01": "a", "user_id": "b"}, map[string]any{"user-id": "a", "user_id": "b"}, ""},
		{"nested left alone", map[string]any{"field": map[string]any{"user-id": 1}}, map[string]any{"field": map[string]any{"user-id": 1}}, ""},
		{"unknown passes through", map[string]any{"extra": true}, map[string]any{"extra": true}, ""},
		{"provider name of an alias", map[string]any{"user-id": "a"}, map[string]any{"user-id": "a"}, ""},
		{"case-insensitive name refused", map[string]any{"FIELD": 1}, nil, "FIELD"},
		{"case-insensitive alias refused", map[string]any{"Param_01": 1}, nil, "Param_01"},
		{"two names for one input", map[string]any{"param_01": "a", "user-id": "b"}, nil, "user-id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rec.ProviderArgs(tc.args)
			var ae *ArgError
			switch {
			case tc.errKey != "":
				if !errors.As(err, &ae) || ae.Key != tc.errKey {
					t.Errorf("err %v, want an *ArgError for %q", err, tc.errKey)
				}
			case err != nil:
				t.Errorf("err %v", err)
			case !reflect.DeepEqual(got, tc.want):
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// An aliased input's card description starts with its provider name, so
// the card says what param_01 is.
func TestAliasedInputsNameTheirProviderField(t *testing.T) {
	tool := mustNormalize(t, `{"name":"send","inputSchema":{"type":"object","properties":{
		"cc-emails":{"type":"array","items":{"type":"string"},"description":"Addresses to copy."},
		"x-request-id":{"type":"string"},
		"subject":{"type":"string","description":"Subject line."}}}}`)
	want := map[string]string{"cc-emails": "cc-emails: Addresses to copy.", "x-request-id": "x-request-id", "subject": "Subject line."}
	for _, in := range tool.Card.Inputs {
		provider := tool.Record.Aliases[in.Name]
		if provider == "" {
			provider = in.Name
		}
		if in.Description != want[provider] {
			t.Errorf("input %s (%s): description %q, want %q", in.Name, provider, in.Description, want[provider])
		}
	}
}

func TestAliasLabel(t *testing.T) {
	tests := []struct {
		in   Input
		want string
	}{
		{Input{Name: "param_01", Description: "cc-emails: Addresses to copy."}, "cc-emails"},
		{Input{Name: "param_12", Description: "x-request-id"}, "x-request-id"},
		{Input{Name: "subject", Description: "Note: a subject line."}, ""},
		{Input{Name: "param_02", Description: strings.Repeat("d", 400)}, ""},
	}
	for _, tt := range tests {
		if got := AliasLabel(tt.in); got != tt.want {
			t.Errorf("AliasLabel(%+v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
