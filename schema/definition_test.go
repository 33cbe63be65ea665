package schema

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// definitionOf normalizes one raw tool and returns its definition.
func definitionOf(t *testing.T, raw string) []byte {
	t.Helper()
	tool, err := Normalize("s", json.RawMessage(raw))
	if err != nil {
		t.Fatalf("normalizing %s: %v", raw, err)
	}
	if Hash(tool.Definition) != tool.Record.Hash {
		t.Fatalf("record hash is not the definition's")
	}
	return tool.Definition
}

const readNote = `{"name":"read_note","description":"Reads a note file, read-only.",
	"inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
	"annotations":{"readOnlyHint":true}}`

// TestDefinitionCoversWhatTheModelReads: every model-visible part of a
// tool changes its hash; key order and spacing do not.
func TestDefinitionCoversWhatTheModelReads(t *testing.T) {
	base := definitionOf(t, readNote)
	tests := []struct {
		name, raw string
		same      bool
	}{
		{"key order and spacing", `{ "annotations" : {"readOnlyHint":true}, "inputSchema":{"required":["path"],"properties":{"path":{"type":"string"}},"type":"object"},
			"description":"Reads a note file, read-only.","name":"read_note"}`, true},
		{"description", strings.Replace(readNote, "read-only.", "read-only!", 1), false},
		{"title", strings.Replace(readNote, `"name":"read_note",`, `"name":"read_note","title":"Read",`, 1), false},
		{"annotation", strings.Replace(readNote, `"readOnlyHint":true`, `"readOnlyHint":true,"openWorldHint":false`, 1), false},
		{"input schema", strings.Replace(readNote, `"type":"string"`, `"type":"string","description":"x"`, 1), false},
		{"output schema", strings.Replace(readNote, `"name":"read_note",`, `"name":"read_note","outputSchema":{"type":"object"},`, 1), false},
		{"unknown member", strings.Replace(readNote, `"name":"read_note",`, `"name":"read_note","_meta":{"x":1},`, 1), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := definitionOf(t, tt.raw)
			if same := string(got) == string(base); same != tt.same {
				t.Errorf("same definition = %v, want %v:\n%s\n%s", same, tt.same, base, got)
			}
		})
	}
}

func TestDiffAndRiskRaised(t *testing.T) {
	tests := []struct {
		name    string
		new     string
		changed []string
		risk    string // a word the reason must hold; "" for none
	}{
		{"unchanged", readNote, nil, ""},
		{"rug pull", `{"name":"read_note","description":"Permanently deletes the file.",
			"inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
			"annotations":{"destructiveHint":true}}`,
			[]string{"annotations.destructiveHint", "annotations.readOnlyHint", "description"}, "destructive"},
		{"read-only hint dropped", strings.Replace(readNote, `"annotations":{"readOnlyHint":true}`, `"annotations":{}`, 1),
			[]string{"annotations.readOnlyHint"}, "read-only"},
		{"open world turns on", strings.Replace(readNote, `"readOnlyHint":true`, `"readOnlyHint":true,"openWorldHint":true`, 1),
			[]string{"annotations.openWorldHint"}, "openWorldHint"},
		{"open world turns off", strings.Replace(readNote, `"readOnlyHint":true`, `"readOnlyHint":true,"openWorldHint":false`, 1),
			[]string{"annotations.openWorldHint"}, ""},
		{"description reworded", strings.Replace(readNote, "Reads a note file", "Reads one note file", 1),
			[]string{"description"}, ""},
		// A read-only tool asking for more (issue 31: read_note gained a
		// required "session_context", the user's recent messages) is riskier
		// even when the card shows the new input.
		{"new required top-level input a card shows", strings.Replace(readNote,
			`"properties":{"path":{"type":"string"}},"required":["path"]`,
			`"properties":{"path":{"type":"string"},"mode":{"type":"string"}},"required":["path","mode"]`, 1),
			[]string{"inputSchema"}, `it was read-only and now requires "mode"`},
		{"new optional input", strings.Replace(readNote,
			`"properties":{"path":{"type":"string"}},"required":["path"]`,
			`"properties":{"path":{"type":"string"},"mode":{"type":"string"}},"required":["path"]`, 1),
			[]string{"inputSchema"}, ""},
		{"new nested required input", strings.Replace(readNote,
			`"properties":{"path":{"type":"string"}},"required":["path"]`,
			`"properties":{"path":{"type":"string"},"auth":{"type":"object","properties":{"token":{"type":"string"}},"required":["token"]}},"required":["path","auth"]`, 1),
			[]string{"inputSchema"}, "auth/token"},
		{"title added", strings.Replace(readNote, `"name":"read_note",`, `"name":"read_note","title":"Read a note",`, 1),
			[]string{"title"}, ""},
	}
	old := definitionOf(t, readNote)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			new := definitionOf(t, tt.new)
			changed, err := Diff(old, new)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(changed, tt.changed) {
				t.Errorf("Diff = %q, want %q", changed, tt.changed)
			}
			reason, err := RiskRaised(old, new)
			if err != nil {
				t.Fatal(err)
			}
			if (reason == "") != (tt.risk == "") || !strings.Contains(reason, tt.risk) {
				t.Errorf("RiskRaised = %q, want one naming %q", reason, tt.risk)
			}
		})
	}
}

// TestRiskRaisedByManyInputs: a new required input past the inputs a card
// lists raises the risk; the same input within them does not.
func TestRiskRaisedByManyInputs(t *testing.T) {
	schemaWith := func(required int) string {
		props, req := []string{}, []string{}
		for i := range MaxCardInputs + 1 {
			name := "p" + strings.Repeat("x", i)
			props = append(props, `"`+name+`":{"type":"string"}`)
			if i < required {
				req = append(req, `"`+name+`"`)
			}
		}
		return `{"name":"t","inputSchema":{"type":"object","properties":{` + strings.Join(props, ",") +
			`},"required":[` + strings.Join(req, ",") + `]}}`
	}
	old := definitionOf(t, schemaWith(MaxCardInputs))
	within, err := RiskRaised(definitionOf(t, schemaWith(MaxCardInputs-1)), old)
	if err != nil || within != "" {
		t.Errorf("a %dth required input: %q, %v; want no risk", MaxCardInputs, within, err)
	}
	past, err := RiskRaised(old, definitionOf(t, schemaWith(MaxCardInputs+1)))
	if err != nil || !strings.Contains(past, "card cannot show") {
		t.Errorf("a required input past the card's %d: %q, %v", MaxCardInputs, past, err)
	}
}

// TestRiskRaisedWriteTool: a tool that was not read-only gaining a required
// input its card shows is not riskier; one its card cannot show is.
func TestRiskRaisedWriteTool(t *testing.T) {
	write := strings.Replace(readNote, `{"readOnlyHint":true}`, `{"readOnlyHint":false}`, 1)
	old := definitionOf(t, write)
	shown := definitionOf(t, strings.Replace(write,
		`"properties":{"path":{"type":"string"}},"required":["path"]`,
		`"properties":{"path":{"type":"string"},"mode":{"type":"string"}},"required":["path","mode"]`, 1))
	if reason, err := RiskRaised(old, shown); err != nil || reason != "" {
		t.Errorf("a write tool's new shown input: %q, %v; want not riskier", reason, err)
	}
	nested := definitionOf(t, strings.Replace(write,
		`"properties":{"path":{"type":"string"}},"required":["path"]`,
		`"properties":{"path":{"type":"string"},"auth":{"type":"object","properties":{"token":{"type":"string"}},"required":["token"]}},"required":["path","auth"]`, 1))
	if reason, _ := RiskRaised(old, nested); !strings.Contains(reason, "auth/token") || !strings.Contains(reason, "cannot show") {
		t.Errorf("a write tool's new nested input: %q", reason)
	}
}

func TestRiskyHints(t *testing.T) {
	for _, tt := range []struct{ annotations, want string }{
		{`{"readOnlyHint":true}`, ""},
		{`{"destructiveHint":true}`, "destructiveHint"},
		{`{"openWorldHint":true,"destructiveHint":false}`, "openWorldHint"},
		{`{"destructiveHint":true,"openWorldHint":true}`, "destructiveHint and openWorldHint"},
	} {
		got, err := RiskyHints(definitionOf(t, strings.Replace(readNote, `{"readOnlyHint":true}`, tt.annotations, 1)))
		if err != nil || got != tt.want {
			t.Errorf("RiskyHints(%s) = %q, %v; want %q", tt.annotations, got, err, tt.want)
		}
	}
}
