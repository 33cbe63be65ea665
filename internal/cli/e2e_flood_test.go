package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListChangedFlood: a server that sends 3,000
// notifications/tools/list_changed at once (demo-server's
// list-changed-flood fault, after the first call) is listed again a few
// times, not thousands, and serve's log says so once, not thousands of
// times. The figures are logged.
func TestListChangedFlood(t *testing.T) {
	const flood = 3000
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk", "--fault", "list-changed-flood:"+strconv.Itoa(flood))}, nil)
	stderr := &lockedBuffer{}
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", t.TempDir()+"/catalog.db", "--log-level", "info")
	cmd.Stderr = stderr
	cs := connectServe(t, cmd)

	stats := discoverAction(t, cs, "helpdesk/demo_stats", "helpdesk", "demo_stats")["actionId"].(string)
	before := len(stderr.String())
	began := time.Now()
	runAction(t, cs, stats, nil) // the first call: the flood starts

	// Wait until the listings stop: two reads a few seconds apart agree.
	// Each read is a run, whose drift check may list once more.
	lists := listings(t, cs, stats)
	for deadline := time.Now().Add(time.Minute); ; {
		time.Sleep(3 * time.Second)
		n := listings(t, cs, stats)
		if n <= lists+1 || time.Now().After(deadline) {
			lists = n
			break
		}
		lists = n
	}
	took := time.Since(began)
	logged := stderr.String()[before:]
	t.Logf("%d notifications: %d listings in %s, %d bytes of log", flood, lists, took.Round(time.Millisecond), len(logged))
	// One listing at serve's start, one a second at most while the flood
	// lasts, one after it, and one for each demo_stats read's drift check.
	if max := 3 + int(took/time.Second) + 6; lists > max {
		t.Errorf("%d listings for %d notifications in %s, want at most %d", lists, flood, took, max)
	}
	if len(logged) > 8<<10 {
		t.Errorf("%d bytes of log for the flood, want a few lines:\n%.3000s", len(logged), logged)
	}
	if n := strings.Count(logged, "list_changed"); n != 1 {
		t.Errorf("the flood is named %d times in the log, want once:\n%.3000s", n, logged)
	}
}

// listings runs demo_stats and returns how many times the server was
// listed.
func listings(t *testing.T, cs *mcp.ClientSession, statsID string) int {
	t.Helper()
	text := resultText(runAction(t, cs, statsID, nil))
	m := regexp.MustCompile(`lists\D{1,10}(\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("demo_stats has no listing count:\n%s", text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
