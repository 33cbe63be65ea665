package demo

import (
	"encoding/json"
	"os"
	"testing"
)

// TestStressTool serves the oversized stress fixture and checks that its
// odd parameter names arrive exactly as sent.
func TestStressTool(t *testing.T) {
	raw, err := os.ReadFile("catalog/stress.json")
	if err != nil {
		t.Fatal(err)
	}
	var head toolHead
	if err := json.Unmarshal(raw, &head); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, &Options{Tools: append(demoTools(t), raw)}, nil)
	tools, _ := listAll(t, cs)
	var listed *struct{ Properties map[string]any }
	for _, tool := range tools {
		if tool.Name == head.Name {
			b, _ := json.Marshal(tool.InputSchema)
			json.Unmarshal(b, &listed)
		}
	}
	if listed == nil || len(listed.Properties) < 300 {
		t.Fatalf("stress tool not listed whole: %v", listed)
	}
	args := `{"user-id":"u-1","user_id":"u_1","user.email":"a@example.com","größe":"XL","x-api-version":"2026-11-30"}`
	var got struct {
		Received json.RawMessage `json:"received"`
	}
	if err := json.Unmarshal([]byte(text(t, call(t, cs, head.Name, json.RawMessage(args)))), &got); err != nil {
		t.Fatal(err)
	}
	if string(got.Received) != args {
		t.Errorf("received %s, want %s", got.Received, args)
	}
}
