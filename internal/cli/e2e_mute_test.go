package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMuteServerWaitedOnce serves a config whose only server never answers
// initialize. The first discovery waits for its start (bounded by
// discoveryWait); later ones do not wait for the same start again, and say
// which server is unavailable and why. Once the start timeout has passed,
// the reason reads as such, and the log says it once.
func TestMuteServerWaitedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits for a start timeout")
	}
	const wait, startTimeout = 4 * time.Second, 6 * time.Second
	cfg := writeConfig(t, map[string]serverEntry{"mute": demoUpstream("--fault", "mute")},
		map[string]any{"discoveryWait": wait.String(), "startTimeout": startTimeout.String()})
	logs := &logBuffer{}
	cs, _ := startServeLogged(t, cfg, filepath.Join(t.TempDir(), "catalog.db"), logs)

	discover := func() (string, time.Duration) {
		start := time.Now()
		res, _ := callBridge(t, cs, "discover_capability", map[string]any{"intent": "get the weather"})
		return resultText(res), time.Since(start)
	}
	first, took := discover()
	if took < wait/2 {
		t.Errorf("the first discovery answered after %v, before the server's start had a chance (discoveryWait %v)", took, wait)
	}
	second, took := discover()
	if took >= wait {
		t.Errorf("the second discovery waited %v for the same hanging start again", took)
	}
	for _, ans := range []string{first, second} {
		if !strings.Contains(ans, "Unavailable servers: mute (still starting)") {
			t.Errorf("a discovery that found nothing does not say mute is still starting: %s", ans)
		}
	}

	if !waitFor(startTimeout+10*time.Second, func() bool { return strings.Contains(logs.String(), "no answer to initialize") }) {
		t.Fatalf("no log line says the server did not answer initialize:\n%s", logs.String())
	}
	third, _ := discover()
	if !strings.Contains(third, "mute (") || !strings.Contains(third, "no answer to initialize within") {
		t.Errorf("after the start timeout, a discovery does not say why mute is unavailable: %s", third)
	}
	if strings.Contains(third, "context canceled") {
		t.Errorf("the reason is the SDK's cancellation, not the server's silence: %s", third)
	}
	time.Sleep(time.Second) // any duplicate log line of the same failure
	if n := strings.Count(logs.String(), "no answer to initialize"); n != 1 {
		t.Errorf("the start timeout is logged %d times, want once:\n%s", n, logs.String())
	}
}
