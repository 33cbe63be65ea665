package demo

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFeaturesAnswers: prompts/get answers a prompt's Messages with its
// arguments filled in, resources/read answers the Contents of a resource or
// of a template with the URI's variables filled in, and anything without
// them the default answer.
func TestFeaturesAnswers(t *testing.T) {
	f, err := ReadFeatures([]byte(`{
		"prompts": [{"name": "greet", "arguments": [{"name": "who"}]}, {"name": "plain"}],
		"messages": {"greet": [
			{"role": "user", "content": {"type": "text", "text": "hello {{who}}"}},
			{"role": "assistant", "content": {"type": "image", "mimeType": "image/png", "data": "AAEC"}}
		]},
		"resources": [{"uri": "test://bin", "name": "bin"}, {"uri": "test://plain", "name": "plain"}],
		"templates": [{"uriTemplate": "test://item/{id}", "name": "item"}],
		"contents": {
			"test://bin": [{"uri": "test://bin", "mimeType": "image/png", "blob": "AAEC"}],
			"test://item/{id}": [{"uri": "test://item/{{id}}", "text": "item {{id}}"}]
		}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, &Options{Features: f}, nil)
	ctx := t.Context()

	prompts := []struct {
		name string
		args map[string]string
		want string // the messages as JSON
	}{
		{"greet", map[string]string{"who": `a "quoted" name`},
			`[{"content":{"type":"text","text":"hello a \"quoted\" name"},"role":"user"},{"content":{"type":"image","mimeType":"image/png","data":"AAEC"},"role":"assistant"}]`},
		{"plain", map[string]string{"x": "1"},
			`[{"content":{"type":"text","text":"PROMPT plain with {\"x\":\"1\"}"},"role":"user"}]`},
	}
	for _, tt := range prompts {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: tt.name, Arguments: tt.args})
		if err != nil {
			t.Fatalf("prompts/get %s: %v", tt.name, err)
		}
		got, _ := json.Marshal(res.Messages)
		if string(got) != tt.want {
			t.Errorf("prompts/get %s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}

	reads := []struct{ uri, want string }{
		{"test://bin", `[{"uri":"test://bin","mimeType":"image/png","blob":"AAEC"}]`},
		{"test://item/42", `[{"uri":"test://item/42","text":"item 42"}]`},
		{"test://plain", `[{"uri":"test://plain","mimeType":"text/plain","text":"contents of test://plain"}]`},
	}
	for _, tt := range reads {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
		if err != nil {
			t.Fatalf("resources/read %s: %v", tt.uri, err)
		}
		got, _ := json.Marshal(res.Contents)
		if string(got) != tt.want {
			t.Errorf("resources/read %s:\n got %s\nwant %s", tt.uri, got, tt.want)
		}
	}
}

// TestReadFeaturesRefusesBadAnswers: messages or contents that do not
// decode are refused when the file is read, not at the first request.
func TestReadFeaturesRefusesBadAnswers(t *testing.T) {
	for _, data := range []string{
		`{"messages": {"p": [{"role": "user", "content": {"type": "nonsense"}}]}}`,
		`{"contents": {"test://x": {"uri": "not a list"}}}`,
	} {
		if _, err := ReadFeatures([]byte(data)); err == nil {
			t.Errorf("ReadFeatures(%s) = nil error", data)
		}
	}
}
