package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/search"
)

// eval --confidence reports both cases: the set against its own catalog
// (present), and against another that lacks its tools (absent), less the
// queries naming a domain of that catalog.
func TestEvalConfidence(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	queries := write("queries.jsonl", `{"query":"delete a file from disk","relevant":[{"server":"files","name":"delete_file"}]}
{"query":"weather forecast for Paris","relevant":[{"server":"weather","name":"get_forecast"}]}
{"query":"open a support ticket","relevant":[{"server":"helpdesk","name":"create_ticket"}]}
`)
	absent := write("absent.jsonl", `{"server":"git","name":"git_commit","description":"Record changes to the repository.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}}
{"server":"git","name":"git_log","description":"Show the commit history of a branch.","inputSchema":{"type":"object"}}
`)
	domains := write("domains.txt", "# what the git server serves\ngit\nfile\n")
	args := []string{"eval", "--catalog", filepath.Join("..", "..", "search", "testdata", "catalog.jsonl"),
		"--queries", queries, "--confidence", absent, "--domains", domains}

	var out, errOut bytes.Buffer
	if err := Run(context.Background(), append(args, "--json"), nil, &out, &errOut); err != nil {
		t.Fatalf("eval: %v (stderr %s)", err, errOut.String())
	}
	var rep struct {
		Confidence *search.Calibration `json:"confidence"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Confidence == nil {
		t.Fatalf("eval --confidence --json printed %q: %v", out.String(), err)
	}
	c := rep.Confidence
	if c.Present.Queries != 3 || c.Present.First == 0 || c.Present.Confident == 0 {
		t.Errorf("present %+v: want 3 queries, some relevant first and confident", c.Present)
	}
	if c.Absent.LeftOut != 1 || c.Absent.Queries != 2 || c.Absent.Quiet != 2 {
		t.Errorf("absent %+v: want 1 left out (names a file), 2 run, none confident", c.Absent)
	}

	out.Reset()
	if err := Run(context.Background(), args, nil, &out, &errOut); err != nil {
		t.Fatalf("eval: %v", err)
	}
	if !strings.Contains(out.String(), "confidence (close match at 0.5 or more)") || !strings.Contains(out.String(), "1 left out") {
		t.Errorf("eval --confidence printed:\n%s", out.String())
	}
}
