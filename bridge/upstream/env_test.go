package upstream

import (
	"bytes"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServerEnv(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the table names the POSIX default set")
	}
	parent := map[string]string{
		"HOME": "/home/u", "PATH": "/usr/bin", "USER": "u", "TERM": "xterm",
		"AWS_SECRET_ACCESS_KEY": "aws-secret", "OPENAI_API_KEY": "sk-key",
		"EXTRA": "extra", "SHELL": "() { :; }", "FUNC": "() { echo hi; }",
	}
	lookup := func(k string) (string, bool) { v, ok := parent[k]; return v, ok }
	tests := []struct {
		name   string
		server config.Server
		want   []string
	}{
		{"defaults only", config.Server{},
			[]string{"HOME=/home/u", "PATH=/usr/bin", "TERM=xterm", "USER=u"}},
		{"own env wins over the default", config.Server{Env: map[string]string{"PATH": "/opt/bin", "TOKEN": "t"}},
			[]string{"HOME=/home/u", "TERM=xterm", "USER=u", "PATH=/opt/bin", "TOKEN=t"}},
		{"inheritEnv adds names, unset ones and functions are left out", config.Server{InheritEnv: []string{"EXTRA", "MISSING", "FUNC", "EXTRA"}},
			[]string{"HOME=/home/u", "PATH=/usr/bin", "TERM=xterm", "USER=u", "EXTRA=extra"}},
		{"an empty own value is kept", config.Server{Env: map[string]string{"HOME": ""}},
			[]string{"PATH=/usr/bin", "TERM=xterm", "USER=u", "HOME="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := serverEnv(tt.server, lookup)
			if !slices.Equal(got, tt.want) {
				t.Errorf("serverEnv = %q, want %q", got, tt.want)
			}
		})
	}
	if got := serverEnv(config.Server{}, func(string) (string, bool) { return "", false }); got == nil {
		t.Error("serverEnv returned nil for an empty environment: exec would inherit everything")
	}
}

// TestUpstreamEnvironment starts a real stdio server that reports the
// environment it received: capbridge's secrets stay out, the safe default
// set, inheritEnv names and the entry's own env get in.
func TestUpstreamEnvironment(t *testing.T) {
	ctx := testContext(t)
	bin, err := demoBinary()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-planted")
	t.Setenv("CAPBRIDGE_TEST_INHERITED", "inherited-value")
	t.Setenv("CAPBRIDGE_TEST_FUNC", "() { echo planted; }")
	t.Setenv("PATH", "/usr/bin:/bin")
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"env": map[string]any{
		"command":    bin,
		"args":       []string{"demo-server", "--server", "helpdesk", "--env-tool"},
		"env":        map[string]string{"OWN_SETTING": "own-value"},
		"inheritEnv": []string{"CAPBRIDGE_TEST_INHERITED", "CAPBRIDGE_TEST_FUNC"},
	}}})
	cfg, err := config.Parse(doc, "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, cfg, nil)
	var got struct {
		Names []string `json:"names"`
	}
	res, err := u.Call(ctx, "env", "demo_env", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &got); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"PATH", "CAPBRIDGE_TEST_INHERITED", "OWN_SETTING"} {
		if !slices.Contains(got.Names, name) {
			t.Errorf("the server did not get %s; it got %v", name, got.Names)
		}
	}
	for _, name := range []string{"AWS_SECRET_ACCESS_KEY", "CAPBRIDGE_TEST_FUNC"} {
		if slices.Contains(got.Names, name) {
			t.Errorf("the server got %s; it got %v", name, got.Names)
		}
	}
	res, err = u.Call(ctx, "env", "demo_env", json.RawMessage(`{"name":"OWN_SETTING"}`))
	if err != nil || res.IsError {
		t.Fatalf("demo_env OWN_SETTING: %v %v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"own-value"`) {
		t.Errorf("OWN_SETTING: %s", text)
	}
}

// syncBuffer is a bytes.Buffer that a logger may write from any goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
