package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestNormalizeEdges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		raw    string
		refuse string // substring of the refusal reason; "" when the tool is kept
		check  func(t *testing.T, tool *Tool)
	}{
		{name: "ref cycle", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"node":{"$ref":"#/$defs/n"}},"$defs":{"n":{"$ref":"#/$defs/m"},"m":{"$ref":"#/$defs/n"}}}}`,
			check: func(t *testing.T, tool *Tool) { wantInput(t, tool, "node", "any") }},
		{name: "recursive tree", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"tree":{"$ref":"#/$defs/t"}},"required":["tree"],"$defs":{"t":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}}}}}}`,
			check: func(t *testing.T, tool *Tool) { wantInput(t, tool, "tree", "object") }},
		{name: "anyOf at top", raw: `{"name":"t","inputSchema":{"type":"object","anyOf":[{"properties":{"id":{"type":"string"}},"required":["id"]},{"properties":{"slug":{"type":"string"}},"required":["slug"]}]}}`,
			check: func(t *testing.T, tool *Tool) {
				wantInput(t, tool, "id", "string")
				wantInput(t, tool, "slug", "string")
				if tool.Card.Complete || !strings.Contains(tool.Card.Note, "alternatives") {
					t.Errorf("complete %v note %q; want incomplete, naming the alternatives", tool.Card.Complete, tool.Card.Note)
				}
			}},
		{name: "allOf at top", raw: `{"name":"t","inputSchema":{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}]}}`,
			check: func(t *testing.T, tool *Tool) {
				if len(tool.Card.Inputs) != 1 || !tool.Card.Inputs[0].Required {
					t.Errorf("inputs %+v; want a required", tool.Card.Inputs)
				}
			}},
		{name: "missing type", raw: `{"name":"t","inputSchema":{"properties":{"q":{"description":"query"}}}}`,
			check: func(t *testing.T, tool *Tool) { wantInput(t, tool, "q", "any") }},
		{name: "boolean true", raw: `{"name":"t","inputSchema":true}`,
			check: func(t *testing.T, tool *Tool) {
				if len(tool.Card.Inputs) != 0 || !tool.Card.Complete {
					t.Errorf("card %+v; want no inputs, complete", tool.Card)
				}
			}},
		{name: "no inputSchema", raw: `{"name":"t"}`,
			check: func(t *testing.T, tool *Tool) {
				if string(tool.Record.InputSchema) != `{"type":"object"}` {
					t.Errorf("InputSchema = %s", tool.Record.InputSchema)
				}
			}},
		{name: "exact numbers", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":12345678901234567890,"minimum":-1e400}}}}`,
			check: func(t *testing.T, tool *Tool) {
				for _, want := range []string{"12345678901234567890", "-1e400"} {
					if !strings.Contains(string(tool.Record.InputSchema), want) || !strings.Contains(string(tool.Record.Raw), want) {
						t.Errorf("%s lost from %s", want, tool.Record.InputSchema)
					}
				}
			}},
		{name: "fields the SDK drops", raw: `{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"},"outputSchema":{"type":"object"},"_meta":{"k":1}}`,
			check: func(t *testing.T, tool *Tool) {
				for _, want := range []string{`"execution"`, `"outputSchema"`, `"_meta"`} {
					if !strings.Contains(string(tool.Record.Raw), want) {
						t.Errorf("Raw lost %s", want)
					}
				}
			}},
		{name: "null title and description", raw: `{"name":"t","title":null,"description":null,"inputSchema":{"type":"object"}}`,
			check: func(t *testing.T, tool *Tool) {
				if tool.Card.Summary != "t" {
					t.Errorf("summary %q, want the name's words", tool.Card.Summary)
				}
			}},
		{name: "numeric description", raw: `{"name":"t","description":5,"inputSchema":{"type":"object"}}`, refuse: "description"},
		{name: "boolean false", raw: `{"name":"t","inputSchema":false}`, refuse: "false"},
		{name: "string root", raw: `{"name":"t","inputSchema":{"type":"string"}}`, refuse: "root type"},
		{name: "array schema", raw: `{"name":"t","inputSchema":[]}`, refuse: "not a JSON object"},
		{name: "invalid UTF-8", raw: "{\"name\":\"t\",\"description\":\"bad \xff byte\",\"inputSchema\":{\"type\":\"object\"}}", refuse: "UTF-8"},
		{name: "duplicate property", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}}`, refuse: "twice"},
		{name: "no name", raw: `{"inputSchema":{"type":"object"}}`, refuse: "no name"},
		{name: "not an object", raw: `[1,2]`, refuse: "not a JSON object"},
		{name: "not JSON", raw: `{"name":`, refuse: "not valid JSON"},
		{name: "remote ref", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}}`, refuse: "$ref"},
		{name: "dangling ref", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/none"}}}}`, refuse: "$ref"},
		{name: "bad pattern", raw: `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","pattern":"(["}}}}`, refuse: "validation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.refuse != "" {
				if reason := refusal(t, tc.raw); !strings.Contains(reason, tc.refuse) {
					t.Errorf("reason %q, want it to mention %q", reason, tc.refuse)
				}
				return
			}
			tool := mustNormalize(t, tc.raw)
			if tc.check != nil {
				tc.check(t, tool)
			}
		})
	}
}

func wantInput(t *testing.T, tool *Tool, name, typ string) {
	t.Helper()
	for _, in := range tool.Card.Inputs {
		if in.Name == name {
			if in.Type != typ {
				t.Errorf("input %s has type %q, want %q", name, in.Type, typ)
			}
			return
		}
	}
	t.Errorf("no input %s on card %+v", name, tool.Card.Inputs)
}

func TestHashIgnoresKeyOrderAndSpacing(t *testing.T) {
	a := mustNormalize(t, `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}}}}`)
	b := mustNormalize(t, `{ "inputSchema" : { "properties" : { "b" : {"type":"number"}, "a":{"type":"string"} }, "type":"object" }, "name":"t" }`)
	c := mustNormalize(t, `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}}`)
	if a.Record.Hash != b.Record.Hash {
		t.Errorf("same schema, different hashes: %s %s", a.Record.Hash, b.Record.Hash)
	}
	if a.Record.Hash == c.Record.Hash {
		t.Errorf("different schemas, one hash %s", a.Record.Hash)
	}
	if len(a.Record.Hash) != 64 {
		t.Errorf("hash %q is not hex SHA-256", a.Record.Hash)
	}
}

func TestRisk(t *testing.T) {
	for _, tc := range []struct {
		annotations string
		want        Risk
	}{
		{`{"readOnlyHint":true}`, RiskReadOnly},
		{`{"readOnlyHint":true,"destructiveHint":true}`, RiskReadOnly},
		{`{"destructiveHint":true}`, RiskDestructive},
		{`{"readOnlyHint":false,"destructiveHint":true}`, RiskDestructive},
		{`{"readOnlyHint":false}`, RiskWrite},
		{`{"idempotentHint":true,"openWorldHint":false}`, RiskWrite},
		{`{"title":"Only a title"}`, RiskUnknown},
		{`{}`, RiskUnknown},
		{`null`, RiskUnknown},
	} {
		tool := mustNormalize(t, `{"name":"t","inputSchema":{"type":"object"},"annotations":`+tc.annotations+`}`)
		if tool.Card.Risk != tc.want {
			t.Errorf("annotations %s: risk %q, want %q", tc.annotations, tool.Card.Risk, tc.want)
		}
	}
}

func TestCardName(t *testing.T) {
	long := strings.Repeat("n", 100)
	tool := mustNormalize(t, `{"name":"`+long+`","inputSchema":{"type":"object"}}`)
	if tool.Card.Name != long[:MaxNameChars] || tool.Record.Name != long {
		t.Errorf("card name %q (record %q); want the first %d characters on the card, all in the record", tool.Card.Name, tool.Record.Name, MaxNameChars)
	}
}

// TestNameRefusals: a name with a control, invisible, format or bidi
// character, or over MaxNameRunes characters, is refused with its reason.
func TestNameRefusals(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{`create\u0000_ticket`, "U+0000"},
		{`create_ticket\u202e`, "U+202E"},
		{`delete\u200b_all`, "U+200B"},
		{`delete\u2066_all`, "U+2066"},
		{`tag\udb40\udc41`, "U+E0041"},
		{strings.Repeat("n", MaxNameRunes+1), "129 characters"},
	} {
		_, err := Normalize("s", json.RawMessage(`{"name":"`+tc.name+`","inputSchema":{"type":"object"}}`))
		var re *RefusalError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, tc.want) {
			t.Errorf("name %s: got %v, want a refusal naming %q", tc.name, err, tc.want)
		}
	}
	if _, err := Normalize("s", json.RawMessage(`{"name":"`+strings.Repeat("n", MaxNameRunes)+`","inputSchema":{"type":"object"}}`)); err != nil {
		t.Errorf("a %d-character name is refused: %v", MaxNameRunes, err)
	}
}
