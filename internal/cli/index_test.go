package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestIndexCommand(t *testing.T) {
	s := newSandbox(t)
	if r := s.mustRun(1, "index"); !strings.Contains(r.stderr, "capbridge import") || !strings.Contains(r.stderr, "capbridge add") {
		t.Errorf("index without a config:\n%s", r.stderr)
	}
	bin := capbridgeBinary(t)
	s.mustRun(0, "add", "helpdesk", "--", bin, "demo-server", "--server", "helpdesk")
	s.mustRun(0, "add", "dead", "--", bin, "demo-server", "--fault", "exit-at-start")

	if r := s.mustRun(2, "index", "helpdsk"); !strings.Contains(r.stderr, `did you mean "helpdesk"`) {
		t.Errorf("misspelt server:\n%s", r.stderr)
	}
	if r := s.mustRun(2, "index", "--bogus"); r.stdout != "" {
		t.Errorf("bad flag wrote to stdout: %q", r.stdout)
	}
	r := s.mustRun(0, "index", "helpdesk")
	if !strings.Contains(r.stderr, "helpdesk") || !strings.Contains(r.stderr, "tools stored") || r.stdout != "" {
		t.Errorf("index helpdesk: stdout %q, stderr:\n%s", r.stdout, r.stderr)
	}
	r = s.mustRun(1, "index", "--db", filepath.Join(s.wd, "other.db"))
	for _, want := range []string{"helpdesk", "dead", "failed", "exiting at start", "1 of 2 servers failed"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("index with a dead server: stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if h := s.mustRun(0, "index", "-h"); !strings.Contains(h.stdout, "capbridge index") {
		t.Errorf("index -h:\n%s", h.stdout)
	}
}
