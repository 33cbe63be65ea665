package cli

// Tests that every command parses and explains its flags one way, through
// the built binary.

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFlagsReadOneWay: every command's help writes one-letter flags as -v
// and the others as --name, never --v, and lists a flag's two spellings on
// one line.
func TestFlagsReadOneWay(t *testing.T) {
	s := newSandbox(t)
	flagLine := regexp.MustCompile(`(?m)^  (-\S.*?)(?: {2,}|$)`)
	badSpelling := regexp.MustCompile(`^(--.\b|-[^-\s]{2,})`) // --v, -db
	for _, c := range commands() {
		help := s.mustRun(0, c.name, "-h")
		text := help.stdout + help.stderr // demo-server's help goes to stderr
		lines := flagLine.FindAllStringSubmatch(text[strings.Index(text, "\nFlags:"):], -1)
		if len(lines) == 0 {
			t.Errorf("%s -h lists no flags:\n%s", c.name, text)
		}
		for _, l := range lines {
			for _, spelling := range strings.Split(l[1], ", ") {
				if bad := badSpelling.FindString(spelling); bad != "" {
					t.Errorf("%s -h writes a flag as %q:\n%s", c.name, bad, l[0])
				}
			}
		}
		if strings.Contains(text, " --v ") || strings.Contains(text, "[--v]") {
			t.Errorf("%s -h shows --v:\n%s", c.name, text)
		}
	}
	for _, name := range []string{"index", "demo-server"} {
		r := s.mustRun(0, name, "-h")
		if !strings.Contains(r.stdout+r.stderr, "\n  -v, --verbose ") {
			t.Errorf("%s -h does not list -v and --verbose on one line:\n%s", name, r.stdout+r.stderr)
		}
	}
}

// TestFlagMistakes: a mistake names the flag exactly as it was typed, with
// the nearest real one, in one line; a flag's long spelling works.
func TestFlagMistakes(t *testing.T) {
	s := newSandbox(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"servers", "--dbb", "x.db"}, `unknown flag --dbb (did you mean "--db"?)`},
		{[]string{"servers", "-dbb", "x.db"}, `unknown flag -dbb (did you mean "--db"?)`},
		{[]string{"index", "--verbos"}, `unknown flag --verbos (did you mean "--verbose"?)`},
		{[]string{"index", "--vv"}, `unknown flag --vv (did you mean "-v"?)`},
		{[]string{"search", "--limit=many", "x"}, `invalid value "many" for --limit`},
		{[]string{"search", "x", "--limit"}, `search: --limit needs a value`},
		{[]string{"approve", "--confg", "c.json", "x"}, `did you mean "--config"?`},
	}
	for _, tt := range tests {
		r := s.mustRun(2, tt.args...)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("capbridge %q: stderr lacks %q:\n%s", tt.args, tt.want, r.stderr)
		}
	}

	// --verbose and -v are the same flag: both get past the flags to the
	// missing config.
	for _, v := range []string{"-v", "--verbose", "--v"} {
		if r := s.mustRun(1, "index", v, "--config", filepath.Join(s.wd, "none.json")); !strings.Contains(r.stderr, "no config at") {
			t.Errorf("index %s: %s", v, r.stderr)
		}
	}
}

// TestApproveTakesConfig: approve takes the same --config/--db pair as
// servers, and uses the config to say what a name it cannot find may be.
func TestApproveTakesConfig(t *testing.T) {
	s := newSandbox(t)
	bin := capbridgeBinary(t)
	cfg, db := filepath.Join(s.wd, "c.json"), filepath.Join(s.wd, "c.db")
	s.writeFile(cfg, `{"mcpServers": {
		"helpdesk": {"command": "`+bin+`", "args": ["demo-server", "--server", "helpdesk"]},
		"crm": {"command": "`+bin+`", "args": ["demo-server", "--server", "crm"]}}}`)
	s.mustRun(0, "index", "--config", cfg, "--db", db, "helpdesk")
	tests := []struct{ target, want string }{
		{"helpdesk/create_tikcet", `did you mean "helpdesk/create_ticket"?`},
		{"helpdsk", `did you mean "helpdesk"?`},
		{"crm", "crm is configured but not indexed yet"},
	}
	for _, tt := range tests {
		r := s.mustRun(1, "approve", "--config", cfg, "--db", db, tt.target)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("approve %s: stderr lacks %q:\n%s", tt.target, tt.want, r.stderr)
		}
	}
	if r := s.mustRun(0, "approve", "--config", cfg, "--db", db, "helpdesk"); !strings.Contains(r.stdout, "pinned as it is listed") {
		t.Errorf("approve helpdesk with --config: %s%s", r.stdout, r.stderr)
	}
}
