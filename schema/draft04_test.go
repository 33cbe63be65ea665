package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const (
	draft03 = `"$schema":"http://json-schema.org/draft-03/schema#",`
	draft04 = `"$schema":"http://json-schema.org/draft-04/schema#",`
	draft07 = `"$schema":"http://json-schema.org/draft-07/schema#",`
)

// TestUpgradeSchemaKeepsSemantics validates values against schemas written
// in older drafts' forms: after the rewrite, each accepts and rejects what
// its own draft does.
func TestUpgradeSchemaKeepsSemantics(t *testing.T) {
	tests := []struct {
		name           string
		schema         string
		accept, reject []string
	}{
		{"exclusiveMinimum true", `{"type":"number","minimum":5,"exclusiveMinimum":true}`,
			[]string{`5.0001`, `6`}, []string{`5`, `4`}},
		{"exclusiveMinimum false", `{"type":"number","minimum":5,"exclusiveMinimum":false}`,
			[]string{`5`, `6`}, []string{`4.999`}},
		{"exclusiveMaximum true", `{"type":"number","maximum":10,"exclusiveMaximum":true}`,
			[]string{`9.99`, `-3`}, []string{`10`, `11`}},
		{"both exclusive, integers", draftObj(draft04, `"type":"integer","minimum":0,"exclusiveMinimum":true,"maximum":3,"exclusiveMaximum":true`),
			[]string{`1`, `2`}, []string{`0`, `3`, `1.5`}},
		{"exclusiveMinimum true without minimum", `{"type":"number","exclusiveMinimum":true}`,
			[]string{`5`, `-1e9`}, []string{`"5"`}},
		{"exact decimals", `{"minimum":0.1,"exclusiveMinimum":true}`,
			[]string{`0.1000000000000000001`}, []string{`0.1`}},
		{"id, definitions and a $ref into them", draftObj(draft04, `"id":"http://example.com/root.json",
			"definitions":{"pos":{"type":"integer","minimum":0,"exclusiveMinimum":true}},"properties":{"n":{"$ref":"#/definitions/pos"}}`),
			[]string{`{"n":1}`, `{}`}, []string{`{"n":0}`, `{"n":"x"}`}},
		{"a nested id changes the base of its refs", draftObj(draft04, `"definitions":{"a":{"type":"string"}},
			"properties":{"x":{"id":"http://example.com/sub.json","definitions":{"a":{"type":"integer"}},"allOf":[{"$ref":"#/definitions/a"}]}}`),
			[]string{`{"x":1}`}, []string{`{"x":"s"}`}},
		{"an id fragment is an anchor", draftObj(draft04, `"definitions":{"a":{"id":"#pos","type":"integer"}},"properties":{"n":{"$ref":"#pos"}}`),
			[]string{`{"n":1}`}, []string{`{"n":"s"}`}},
		{"$ref siblings are ignored in draft-04", draftObj(draft04, `"definitions":{"a":{"type":"string"}},"properties":{"x":{"$ref":"#/definitions/a","maxLength":1}}`),
			[]string{`{"x":"long"}`}, []string{`{"x":1}`}},
		{"$ref siblings apply without a $schema (2020-12)", `{"$defs":{"a":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/a","maxLength":1}}}`,
			[]string{`{"x":"l"}`}, []string{`{"x":"long"}`, `{"x":1}`}},
		{"dependencies", `{"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
			[]string{`{}`, `{"a":1,"b":2}`, `{"c":1,"d":1}`, `{"b":1}`}, []string{`{"a":1}`, `{"c":1}`}},
		{"dependencies beside dependentRequired", `{"dependentRequired":{"a":["x"]},"dependencies":{"a":["b"]}}`,
			[]string{`{"a":1,"b":1,"x":1}`}, []string{`{"a":1,"b":1}`, `{"a":1,"x":1}`}},
		{"tuple items", `{"type":"array","items":[{"type":"string"},{"type":"integer"}]}`,
			[]string{`["a",1]`, `["a",1,true]`, `["a"]`, `[]`}, []string{`[1]`, `["a","b"]`}},
		{"tuple items, no additional items", `{"type":"array","items":[{"type":"string"}],"additionalItems":false}`,
			[]string{`["a"]`, `[]`}, []string{`["a",1]`}},
		{"tuple items, additional items schema", `{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"boolean"}}`,
			[]string{`["a",true,false]`}, []string{`["a",1]`, `[1,true]`}},
		{"additionalItems beside one items schema is ignored", `{"type":"array","items":{"type":"string"},"additionalItems":false}`,
			[]string{`["a","b"]`}, []string{`[1]`}},
		{"divisibleBy", `{"divisibleBy":3}`, []string{`9`, `0`}, []string{`10`}},
		{"draft-03 required flags", draftObj(draft03, `"properties":{"a":{"type":"string","required":true},"b":{"required":false}}`),
			[]string{`{"a":"x"}`, `{"a":"x","b":1}`}, []string{`{}`, `{"b":1}`}},
		{"draft-03 extends", `{"extends":[{"minimum":3},{"maximum":5}]}`, []string{`3`, `5`}, []string{`2`, `6`}},
		{"draft-03 disallow", `{"disallow":["string",{"type":"integer","minimum":10}]}`, []string{`1`, `true`}, []string{`"x"`, `11`}},
		{"draft-07 numeric exclusiveMinimum stays", draftObj(draft07, `"exclusiveMinimum":5`), []string{`6`}, []string{`5`}},
		{"properties named like legacy keywords are names", draftObj(draft04, `"properties":{"id":{"type":"string"},"dependencies":{"type":"array"},
			"items":{"type":"array","items":[{"type":"integer"}]}},"required":["id"]`),
			[]string{`{"id":"x","dependencies":[],"items":[1,"a"]}`}, []string{`{"id":1}`, `{}`, `{"id":"x","items":["a"]}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			original := []byte(tt.schema)
			kept := bytes.Clone(original)
			compiled, err := compileSchema(original)
			if err != nil {
				t.Fatalf("compiling: %v", err)
			}
			if !bytes.Equal(original, kept) {
				t.Fatal("compiling changed the schema passed in")
			}
			for _, v := range tt.accept {
				if !compiled.ValidateJSON([]byte(v)).IsValid() {
					t.Errorf("%s rejected, want accepted", v)
				}
			}
			for _, v := range tt.reject {
				if compiled.ValidateJSON([]byte(v)).IsValid() {
					t.Errorf("%s accepted, want rejected", v)
				}
			}
		})
	}
}

func draftObj(draft, body string) string { return "{" + draft + body + "}" }

// TestUpgradeSchemaRefusesOnlyTheInexpressible: an id naming a location
// cannot be a 2020-12 $anchor.
func TestUpgradeSchemaRefusesOnlyTheInexpressible(t *testing.T) {
	_, err := compileSchema([]byte(draftObj(draft04, `"definitions":{"a":{"id":"#/definitions/b","type":"string"}}`)))
	if !errors.Is(err, ErrInexpressible) {
		t.Errorf("compiling: %v, want ErrInexpressible", err)
	}
}

// TestNormalizeKeepsDraft04Tools indexes a tool written in draft-04 (it was
// refused: "unsupported rat type"): it is stored with its schema exactly as
// sent, and its arguments are validated by draft-04's rules.
func TestNormalizeKeepsDraft04Tools(t *testing.T) {
	for _, declared := range []string{"", draft04} {
		raw := json.RawMessage(`{"name":"set_rate","description":"Set the sampling rate.","inputSchema":{` + declared +
			`"type":"object","properties":{"rate":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1},
			"window":{"type":"array","items":[{"type":"integer"},{"type":"integer"}],"additionalItems":false}},"required":["rate"],
			"dependencies":{"window":["rate"],"rate":{"properties":{"window":{"minItems":2}}}}}}`)
		tool, err := Normalize("metrics", raw)
		if err != nil {
			t.Fatalf("Normalize (%s): %v", declared, err)
		}
		if s := string(tool.Record.InputSchema); !strings.Contains(s, `"exclusiveMinimum":true`) || !strings.Contains(s, `"dependencies"`) {
			t.Errorf("the stored schema is not the provider's: %s", s)
		}
		v, err := NewValidator(&tool.Record)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			args  string
			valid bool
		}{
			{`{"rate":0.5}`, true},
			{`{"rate":0}`, false},
			{`{"rate":1,"window":[1,2]}`, true},
			{`{"rate":1,"window":[1,2,3]}`, false},
			{`{"rate":1,"window":["a",2]}`, false},
			{`{"rate":1,"window":[1]}`, false},
		} {
			checked, err := v.Check(json.RawMessage(c.args))
			if err != nil {
				t.Fatal(err)
			}
			if checked.Valid() != c.valid {
				t.Errorf("$schema %q: %s: valid %v, want %v (%+v)", declared, c.args, checked.Valid(), c.valid, checked.Errors)
			}
		}
	}
}

// FuzzUpgradeSchema rewrites arbitrary JSON: it never panics, it returns
// JSON, and a second rewrite changes nothing.
func FuzzUpgradeSchema(f *testing.F) {
	for _, seed := range []string{
		`{"minimum":1,"exclusiveMinimum":true}`,
		draftObj(draft04, `"id":"http://x/y#a","properties":{"p":{"$ref":"#a","type":"string"}}`),
		`{"items":[{},{"items":[true]}],"additionalItems":{"dependencies":{"a":"b"}}}`,
		draftObj(draft03, `"properties":{"a":{"required":true,"extends":{"divisibleBy":2}}},"disallow":"null"`),
		`{"dependencies":{"a":["b"],"c":{"not":{"exclusiveMaximum":false,"maximum":3}}},"dependentSchemas":{"c":true}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		if !json.Valid(schema) {
			return // the compiler's to refuse; a schema reaches it canonical
		}
		out, err := upgradeSchema(schema)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("upgradeSchema(%s) = %s, not JSON", schema, out)
		}
		again, err := upgradeSchema(out)
		if err != nil {
			t.Fatalf("upgrading %s again: %v", out, err)
		}
		var a, b any
		json.Unmarshal(out, &a)
		json.Unmarshal(again, &b)
		if ja, jb := mustMarshal(a), mustMarshal(b); ja != jb {
			t.Errorf("not idempotent:\n%s\n%s", ja, jb)
		}
		compileSchema(out) // must not panic (compileSchema recovers kaptinlin's)
	})
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
