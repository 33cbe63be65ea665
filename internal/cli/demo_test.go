package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDemo runs `capbridge demo` as a new user would, with nothing set up,
// and checks that it tells the whole story: real servers indexed, the card
// the intent asks for, needs_input before a guess, a successful run, and
// the context arithmetic in the bridge's favour.
func TestDemo(t *testing.T) {
	s := newSandbox(t)
	r := s.mustRun(0, "demo")
	out := r.stdout
	for _, server := range demoServers {
		if !regexp.MustCompile(`(?m)^\s+` + server + `\s+\d+ tools stored`).MatchString(out) {
			t.Errorf("demo did not index server %q:\n%s", server, out)
		}
	}
	if !strings.Contains(out, "The model sees 2 tools from the bridge: discover_capability, run_capability") {
		t.Errorf("demo does not show the two tools:\n%s", out)
	}
	// A card's fields are sorted: name, then a note when an input needs
	// nested fields, then provider.
	first := regexp.MustCompile(`"name": "([a-z_]+)",\n(?:\s+"note": "[^"\n]*",\n)?\s+"provider"`).FindStringSubmatch(out)
	if first == nil || first[1] != "create_ticket" {
		t.Errorf("the first card for the demo intent is %v, want create_ticket:\n%s", first, out)
	}
	step4 := strings.Index(out, "\n4. ")
	step5 := strings.Index(out, "\n5. ")
	if step4 < 0 || step5 < step4 {
		t.Fatalf("demo output lacks steps 4 and 5:\n%s", out)
	}
	if ask := out[step4:step5]; !strings.Contains(ask, `"status": "needs_input"`) || !strings.Contains(ask, "(isError: true)") {
		t.Errorf("running without params did not answer needs_input:\n%s", ask)
	}
	if run := out[step5:]; !strings.Contains(run, "(isError: false)") || strings.Contains(run, `"status": "invalid_params"`) {
		t.Errorf("running with the missing inputs did not succeed:\n%s", run)
	}

	// Every JSON answer is printed one way: indented, never a compact line.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "{\"") {
			t.Errorf("a JSON answer printed compact, unlike the others: %s", line)
		}
	}
	if !strings.Contains(out, "Next, with your own servers:\n  capbridge import claude") {
		t.Errorf("demo does not end with the next step for the user's own servers:\n%s", out)
	}

	direct := tableBytes(t, out, `every tool registered directly \(\d+ tools\), each turn`)
	bridged := tableBytes(t, out, `bridge: \+ both runs`)
	if bridged <= 0 || direct <= 10*bridged {
		t.Errorf("the whole exchange through the bridge took %d bytes against %d registered directly; want it under a tenth", bridged, direct)
	}
	if r.stderr != "" && strings.Contains(r.stderr, "ERROR") {
		t.Errorf("demo logged errors:\n%s", r.stderr)
	}
}

// tableBytes reads the bytes column of the demo's context table row whose
// label matches label.
func tableBytes(t *testing.T, out, label string) int {
	t.Helper()
	m := regexp.MustCompile(label + `\s+(\d+)\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row %q in the demo's table:\n%s", label, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
