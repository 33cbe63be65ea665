package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/internal/bench"
)

// runBenchArgs runs `capbridge bench args...` in this process; the children
// it starts (serve, index, demo-server) are this test binary run as
// capbridge.
func runBenchArgs(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	t.Setenv(asCapbridge, "1")
	var out, errb bytes.Buffer
	// The test binary's -timeout bounds a run; a soak of its own length
	// must not be cut short by a shorter one here.
	err := runBench(t.Context(), env{args: args, stdout: &out, stderr: &errb})
	if err != nil {
		t.Fatalf("capbridge bench %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// TestBenchQuick runs the standing benchmark with --quick --json: every row
// the table promises is there and measured (a number above zero), never
// typed in.
func TestBenchQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the benchmark takes about a minute")
	}
	if raceEnabled {
		t.Skip("-race: the figures would be the race detector's, and it would take many minutes")
	}
	out, _ := runBenchArgs(t, "--quick", "--json", "--laptop", laptopCatalog)
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench --json: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	want := []struct{ prefix, figure string }{
		{"discovery, 100 tools, words", "p95_ms"},
		{"discovery, 1000 tools, + vectors", "p95_ms"},
		{"discovery, 5000 tools, words", "p50_ms"},
		{"discovery, 5000 tools, + vectors", "p50_ms"},
		{"serve start", "p50_ms"},
		{"run overhead", "bridge_p50_ms"},
		{"shape a 500-record result", "p50_ms"},
		{"index 5,000 tools", "peak_rss_mib"},
		{"refresh 5,000 tools", "ms"},
		{"serve peak RSS", "peak_rss_mib"},
		{"serve peak RSS, 5,000 tools, after a first run", "peak_rss_mib"},
		{"index " + laptopCatalog, "peak_rss_mib"},
		{"bench process peak RSS", "peak_rss_mib"},
	}
	for _, w := range want {
		found := false
		for _, r := range rep.Rows {
			if strings.HasPrefix(r.Measure, w.prefix) {
				found = true
				if v := r.Figures[w.figure]; !(v > 0) {
					t.Errorf("row %q: %s = %v, want a measured figure above zero", r.Measure, w.figure, v)
				}
			}
		}
		if !found {
			t.Errorf("no row %q in the table", w.prefix)
		}
	}
	// The memory targets the table prints are held: serve answering from
	// its stored catalog once grew 11 MiB past its target (a lure detector
	// compiled for a one-line note) with nothing failing.
	targets := []struct {
		measure string
		mib     float64
	}{
		{"index 5,000 tools", bench.IndexRSSTargetMiB},
		{"serve peak RSS, 5,000 tools", bench.ServeRSSTargetMiB},
		{"serve peak RSS, 5,000 tools, after a first run", bench.ServeRunRSSTargetMiB},
	}
	for _, tt := range targets {
		for _, r := range rep.Rows {
			if (r.Measure == tt.measure || strings.HasPrefix(r.Measure, tt.measure+" (")) && r.Figures["peak_rss_mib"] > tt.mib {
				t.Errorf("%s: peak RSS %.1f MiB, over the %.0f MiB target", r.Measure, r.Figures["peak_rss_mib"], tt.mib)
			}
		}
	}
}

// TestBenchSoakShort runs a few seconds of the soak (CAPBRIDGE_SOAK=10m
// runs it for longer, until main.go wires `capbridge bench`): samples are
// printed, upstreams crash and are restarted, and the verdict is given.
func TestBenchSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: soak")
	}
	d := "8s"
	if v := os.Getenv("CAPBRIDGE_SOAK"); v != "" {
		d = v
	}
	out, _ := runBenchArgs(t, "--soak", d)
	t.Logf("%s", out)
	if !strings.Contains(out, "verdict: ") {
		t.Fatalf("no verdict in the soak's output")
	}
	if strings.Contains(out, "protocol errors]") {
		t.Errorf("the soak saw protocol errors")
	}
	if n := strings.Count(out, "\n| "); n < 3 {
		t.Errorf("soak printed %d table lines, want a header and samples", n)
	}
}
