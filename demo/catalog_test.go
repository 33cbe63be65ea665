package demo

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestReadCatalog(t *testing.T) {
	const catalog = `{"server":"a","name":"one","inputSchema":{"type":"object"},"zeta":1,"alpha":{"b":2, "a":1}}
{"name":"two","server":"b","inputSchema":{"type":"object"}}

{"name":"three","inputSchema":{"type":"object"},"server":"a"}`
	tests := []struct {
		name    string
		in      string
		server  string
		want    []string
		wantErr string
	}{
		{"one server, order and bytes kept", catalog, "a",
			[]string{`{"name":"one","inputSchema":{"type":"object"},"zeta":1,"alpha":{"b":2, "a":1}}`, `{"name":"three","inputSchema":{"type":"object"}}`}, ""},
		{"every server", catalog, "", []string{
			`{"name":"one","inputSchema":{"type":"object"},"zeta":1,"alpha":{"b":2, "a":1}}`,
			`{"name":"two","inputSchema":{"type":"object"}}`,
			`{"name":"three","inputSchema":{"type":"object"}}`}, ""},
		{"no server key", `{"name":"x","inputSchema":{}}`, "", []string{`{"name":"x","inputSchema":{}}`}, ""},
		{"unknown server names the known ones", catalog, "c", nil, "it has: a, b"},
		{"not an object", `["x"]`, "", nil, "must be a JSON object"},
		{"broken line", `{"name":"x"` + "\n" + `{"name":`, "", nil, "tool 1"},
		{"server not a string", `{"server":1,"name":"x"}`, "", nil, `"server" must be a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := ReadCatalog(strings.NewReader(tt.in), tt.server)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tools) != len(tt.want) {
				t.Fatalf("got %d tools, want %d", len(tools), len(tt.want))
			}
			for i := range tools {
				if string(tools[i]) != tt.want[i] {
					t.Errorf("tool %d = %s, want %s", i, tools[i], tt.want[i])
				}
			}
		})
	}
}

// TestDemoCatalog checks what the demo catalog promises: four servers of
// realistic, well-formed tools, some with parameter names that need aliases.
func TestDemoCatalog(t *testing.T) {
	tools := demoTools(t)
	if len(tools) < 50 || len(tools) > 80 {
		t.Errorf("demo catalog has %d tools, want about 60", len(tools))
	}
	plain := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	var (
		names   = map[string]bool{}
		odd     []string
		largest int
	)
	perServer := 0
	for _, server := range []string{"helpdesk", "calendar", "crm", "files"} {
		f, err := os.Open(demoCatalogPath)
		if err != nil {
			t.Fatal(err)
		}
		of, err := ReadCatalog(f, server)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(of) < 10 {
			t.Errorf("server %s has %d tools, want at least 10", server, len(of))
		}
		perServer += len(of)
	}
	if perServer != len(tools) {
		t.Errorf("the four servers hold %d tools, the catalog %d", perServer, len(tools))
	}
	for _, raw := range tools {
		var tool struct {
			Name        string `json:"name"`
			Title       string `json:"title"`
			Description string `json:"description"`
			InputSchema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			} `json:"inputSchema"`
			Annotations map[string]bool `json:"annotations"`
		}
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if names[tool.Name] {
			t.Errorf("%s appears twice", tool.Name)
		}
		names[tool.Name] = true
		if tool.Title == "" || len(tool.Description) < 40 {
			t.Errorf("%s: needs a title and a real description", tool.Name)
		}
		if tool.InputSchema.Type != "object" {
			t.Errorf("%s: input schema type %q", tool.Name, tool.InputSchema.Type)
		}
		for _, r := range tool.InputSchema.Required {
			if _, ok := tool.InputSchema.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", tool.Name, r)
			}
		}
		if _, ok := tool.Annotations["readOnlyHint"]; !ok {
			t.Errorf("%s: no readOnlyHint", tool.Name)
		}
		if _, ok := tool.Annotations["destructiveHint"]; !ok {
			t.Errorf("%s: no destructiveHint", tool.Name)
		}
		for p := range tool.InputSchema.Properties {
			if !plain.MatchString(p) {
				odd = append(odd, tool.Name+"."+p)
			}
		}
		largest = max(largest, len(raw))
	}
	for _, want := range []string{"create_ticket", "list_tickets", "get_ticket", "create_event", "find_free_slots", "lookup_customer_by_email", "reset_customer_password", "read_file", "write_file"} {
		if !names[want] {
			t.Errorf("demo catalog lacks %s", want)
		}
	}
	if len(odd) < 3 {
		t.Errorf("only %d parameter names need aliases (%v); want several", len(odd), odd)
	}
	if largest < 3000 {
		t.Errorf("largest tool is %d bytes; want some large schemas", largest)
	}
}
