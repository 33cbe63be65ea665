package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stressTool reads the design's oversized tool from the repository testdata.
func stressTool(t testing.TB) ([]byte, *Tool) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "demo", "catalog", "stress.json"))
	if err != nil {
		t.Fatal(err)
	}
	tool, err := Normalize("stress", raw)
	if err != nil {
		t.Fatalf("Normalize(stress tool) = %v", err)
	}
	return raw, tool
}

// stressArgs gives every required input of the stress tool a value, under
// the names the card shows.
func stressArgs(t testing.TB, tool *Tool) json.RawMessage {
	t.Helper()
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(tool.Record.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{}
	for alias, provider := range tool.Record.Aliases {
		shown[provider] = alias
	}
	args := map[string]any{}
	for _, name := range schema.Required {
		if alias, ok := shown[name]; ok {
			name = alias
		}
		args[name] = "value"
	}
	return mustJSON(t, args)
}

func TestStressTool(t *testing.T) {
	raw, tool := stressTool(t)
	card := mustJSON(t, tool.Card)
	reduction := 1 - float64(len(card))/float64(len(raw))
	t.Logf("stress tool: raw %d bytes, card %d bytes, %d inputs, reduction %.2f%%", len(raw), len(card), len(tool.Card.Inputs), 100*reduction)

	if len(tool.Card.Inputs) > MaxCardInputs {
		t.Errorf("card has %d inputs, want at most %d", len(tool.Card.Inputs), MaxCardInputs)
	}
	if tool.Card.Complete {
		t.Errorf("card is complete with 40 required inputs and room for %d", MaxCardInputs)
	}
	if tool.Card.Note == "" {
		t.Errorf("incomplete card has no note")
	}
	if reduction < 0.975 {
		t.Errorf("reduction %.2f%%, want at least 97.5%%", 100*reduction)
	}
	lower := strings.ToLower(string(card))
	for _, lure := range []string{"ignore all previous", "previous instructions", "system prompt", "credentials", "reveal"} {
		if strings.Contains(lower, lure) {
			t.Errorf("card holds lure text %q", lure)
		}
	}
	if tool.Record.ProseCut == 0 {
		t.Errorf("nothing counted as cut from %d bytes of prose", len(raw))
	}

	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(tool.Record.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	wantAliased := []string{"x-api-version", "user.email", "größe", "user-id", strings.Repeat("very_long_parameter_name_", 4)}
	aliased := map[string]bool{}
	for alias, provider := range tool.Record.Aliases {
		if _, ok := schema.Properties[provider]; !ok {
			t.Errorf("alias %s maps to %q, not a provider property", alias, provider)
		}
		if aliased[provider] {
			t.Errorf("two aliases map to %q", provider)
		}
		aliased[provider] = true
	}
	for _, name := range wantAliased {
		if !aliased[name] {
			t.Errorf("%q has no alias", name)
		}
	}
	if aliased["user_id"] {
		t.Errorf("user_id is aliased; it is a clear name with no case-insensitive sibling")
	}
	for _, in := range tool.Card.Inputs {
		if provider, ok := tool.Record.Aliases[in.Name]; ok {
			got, err := tool.Record.ProviderArgs(map[string]any{in.Name: "v"})
			if err != nil || got[provider] != "v" {
				t.Errorf("ProviderArgs(%s) = %v, %v; want the value under %q", in.Name, got, err, provider)
			}
		} else if _, ok := schema.Properties[in.Name]; !ok {
			t.Errorf("card input %q is neither an alias nor a provider name", in.Name)
		}
	}

	v, err := NewValidator(&tool.Record)
	if err != nil {
		t.Fatal(err)
	}
	checked, err := v.Check(stressArgs(t, tool))
	if err != nil || !checked.Valid() {
		t.Fatalf("Check(all required) = %+v, %v; want valid", checked, err)
	}
	checked, err = v.Check(nil)
	if err != nil || len(checked.Missing) != 40 {
		t.Fatalf("Check({}) reports %d missing, want 40 (err %v)", len(checked.Missing), err)
	}
}
