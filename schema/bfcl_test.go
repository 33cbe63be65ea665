package schema

import (
	"encoding/json"
	"fmt"
	"testing"
)

// bfclCase is one line of testdata/bench/execution_bfcl.
type bfclCase struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Arguments   map[string]any  `json:"arguments"`
}

// checkBFCL normalizes one case's tool and checks its arguments, given in
// provider names, under the names its card shows.
func checkBFCL(t *testing.T, line []byte) (bfclCase, *Checked) {
	t.Helper()
	var c bfclCase
	if err := json.Unmarshal(line, &c); err != nil {
		t.Fatal(err)
	}
	dec := decodeExact(t, line).(map[string]any)
	raw := mustJSON(t, map[string]any{"name": c.Name, "inputSchema": dec["inputSchema"]})
	tool, err := Normalize("bfcl", raw)
	if err != nil {
		t.Fatalf("%s: Normalize = %v", c.ID, err)
	}
	shown := map[string]string{}
	for alias, provider := range tool.Record.Aliases {
		shown[provider] = alias
	}
	args := map[string]any{}
	for name, value := range dec["arguments"].(map[string]any) {
		if alias, ok := shown[name]; ok {
			name = alias
		}
		args[name] = value
	}
	v, err := NewValidator(&tool.Record)
	if err != nil {
		t.Fatalf("%s: NewValidator = %v", c.ID, err)
	}
	checked, err := v.Check(mustJSON(t, args))
	if err != nil {
		t.Fatalf("%s: Check = %v", c.ID, err)
	}
	if checked.Valid() {
		if got, want := decodeExact(t, checked.Args), dec["arguments"]; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: provider arguments %v, want %v", c.ID, got, want)
		}
	}
	return c, checked
}

func TestBFCLCasesValidate(t *testing.T) {
	lines := readLines(t, dataPath("bench", "execution_bfcl", "cases.jsonl"))
	if len(lines) != 3130 {
		t.Fatalf("%d cases, want 3130", len(lines))
	}
	for _, line := range lines {
		c, checked := checkBFCL(t, line)
		if !checked.Valid() {
			t.Errorf("%s (%s): missing %+v, errors %+v; want valid", c.ID, c.Name, checked.Missing, checked.Errors)
		}
	}
}

func TestBFCLRejectedCasesFail(t *testing.T) {
	lines := readLines(t, dataPath("bench", "execution_bfcl", "cases_rejected.jsonl"))
	if len(lines) != 22 {
		t.Fatalf("%d rejected cases, want 22", len(lines))
	}
	for _, line := range lines {
		c, checked := checkBFCL(t, line)
		if checked.Valid() {
			t.Errorf("%s (%s): valid, want it rejected", c.ID, c.Name)
			continue
		}
		t.Logf("%s: missing %+v, errors %+v", c.ID, checked.Missing, checked.Errors)
	}
}
