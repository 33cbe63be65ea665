package config

import (
	"slices"
	"testing"
)

func TestParseInheritEnv(t *testing.T) {
	cfg, err := Parse([]byte(`{"mcpServers":{"a":{"command":"x","inheritEnv":["GOPATH","XDG_RUNTIME_DIR"]}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Servers["a"].InheritEnv; !slices.Equal(got, []string{"GOPATH", "XDG_RUNTIME_DIR"}) {
		t.Errorf("InheritEnv = %q", got)
	}
	for _, bad := range []string{`[""]`, `["A=B"]`, `"PATH"`} {
		if cfg, err := Parse([]byte(`{"mcpServers":{"a":{"command":"x","inheritEnv":`+bad+`}}}`), "c.json"); err != nil || cfg.Invalid["a"] == nil {
			t.Errorf("inheritEnv %s: entry not refused (err %v)", bad, err)
		}
	}
}
