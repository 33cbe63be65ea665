package upstream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stderrSamples reads the NAME.stderr and NAME.want pairs of a set.
func stderrSamples(t *testing.T, set string) map[string][2]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "stderr", set, "*.stderr"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no samples in %s: %v", set, err)
	}
	out := map[string][2]string{}
	for _, p := range paths {
		stderr, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(p, ".stderr") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = [2]string{string(stderr), strings.TrimSpace(string(want))}
	}
	return out
}

// TestTellingLine: on the stderr the markers were tuned on, the line shown
// is the one that says what went wrong.
func TestTellingLine(t *testing.T) {
	for name, s := range stderrSamples(t, "tuned") {
		if got, _ := TellingLine(s[0]); got != s[1] {
			t.Errorf("%s: got %q\nwant %q", name, got, s[1])
		}
	}
	if got, marked := TellingLine(""); got != "" || marked {
		t.Errorf("empty stderr: %q, %v", got, marked)
	}
}

// TestTellingLineHeldOut reports how TellingLine does on stderr shapes it
// was not tuned on. It fails only when it gets none right.
func TestTellingLineHeldOut(t *testing.T) {
	samples := stderrSamples(t, "heldout")
	right := 0
	for name, s := range samples {
		got, _ := TellingLine(s[0])
		if got == s[1] {
			right++
			continue
		}
		t.Logf("held out %s: got %q\n  want %q", name, got, s[1])
	}
	t.Logf("held out: %d of %d right", right, len(samples))
	if right == 0 {
		t.Error("no held-out sample right")
	}
}

func FuzzTellingLine(f *testing.F) {
	f.Add("npm error code E404\nnpm error 404 Not Found - GET https://x\n")
	f.Add("Traceback (most recent call last):\n  File \"x\", line 1\nValueError: bad\n")
	f.Fuzz(func(t *testing.T, stderr string) {
		line, _ := TellingLine(stderr)
		if strings.ContainsAny(line, "\n") {
			t.Errorf("line %q holds a newline", line)
		}
		if line != "" && !strings.Contains(stderr, line) {
			t.Errorf("line %q is not in the stderr", line)
		}
	})
}
