package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConformance runs .ci/conformance.sh: the official MCP conformance
// suite (@modelcontextprotocol/conformance@0.1.16 on Node 22, pinned in
// testdata/conformance and installed with npm ci when missing) against this
// test binary serving as `capbridge serve --http`. Every scenario that
// applies to a tools-only server must pass; a machine where npm cannot
// install the suite fails the test, it does not skip.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the conformance suite starts Node once per scenario")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", ".ci", "conformance.sh"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Env = append(os.Environ(), "CAPBRIDGE_BIN="+os.Args[0], asCapbridge+"=1")
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	t.Logf("conformance.sh took %v:\n%s", time.Since(start).Round(time.Millisecond), out.String())
	if err != nil {
		t.Fatalf("conformance suite failed (%v); its output is above", err)
	}
	text := out.String()
	for _, scenario := range []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection"} {
		if !strings.Contains(text, "PASS "+scenario+":") {
			t.Errorf("scenario %s was not reported as passed", scenario)
		}
	}
}
