package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoServerFlags(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"help", []string{"-h"}, exitOK, ""},
		{"catalog without server", []string{"--catalog", "x.jsonl"}, exitUsage, "--server"},
		{"unknown fault", []string{"--fault", "explode"}, exitUsage, "unknown fault"},
		{"fault without its count", []string{"--fault", "big-catalog"}, exitUsage, "tool count"},
		{"stray argument", []string{"helpdesk"}, exitUsage, "no arguments"},
		{"unknown demo server", []string{"--server", "nope"}, exitFailure, "helpdesk"},
		{"missing catalog file", []string{"--catalog", filepath.Join(t.TempDir(), "none.jsonl"), "--server", "a"}, exitFailure, "none.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := Run(context.Background(), append([]string{"demo-server"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code := ExitCode(err, &stderr); code != tt.wantCode {
				t.Errorf("exit code %d, want %d (stderr: %s)", code, tt.wantCode, &stderr)
			}
			if !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr %q does not mention %q", &stderr, tt.wantErr)
			}
			if stdout.Len() > 0 {
				t.Errorf("wrote %q on stdout, which is the MCP stream", &stdout)
			}
		})
	}
}

// TestDemoServerFaultFromEnvironment checks that CAPBRIDGE_DEMO_FAULT is
// read when no --fault is given. A fault that works would end or stall this
// process, so a malformed one proves the value was read.
func TestDemoServerFaultFromEnvironment(t *testing.T) {
	t.Setenv("CAPBRIDGE_DEMO_FAULT", "slow:soon")
	var stderr bytes.Buffer
	err := Run(context.Background(), []string{"demo-server"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "slow") {
		t.Errorf("err = %v, want a usage error about the slow fault", err)
	}
}

func TestDemoServerTools(t *testing.T) {
	all, err := demoServerTools("", "")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, raw := range all {
		var tool struct{ Name, Server string }
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		if tool.Server != "" {
			t.Errorf("%s still carries server %q", tool.Name, tool.Server)
		}
		names[tool.Name] = true
	}
	if !names["create_ticket"] {
		t.Error("the built-in catalog lacks create_ticket")
	}
	stress, err := demoServerTools("", "stress")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "demo", "catalog", "stress.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(stress) != 1 || !bytes.Equal(stress[0], bytes.TrimSpace(want)) {
		t.Errorf("server stress serves %d tools; want demo/catalog/stress.json byte for byte", len(stress))
	}
	catalog := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(catalog, []byte(`{"server":"a","name":"x","inputSchema":{"type":"object"}}`+"\n"+`{"server":"b","name":"y","inputSchema":{"type":"object"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	replay, err := demoServerTools(catalog, "b")
	if err != nil {
		t.Fatal(err)
	}
	if len(replay) != 1 || string(replay[0]) != `{"name":"y","inputSchema":{"type":"object"}}` {
		t.Errorf("replay of server b = %s", replay)
	}
}
