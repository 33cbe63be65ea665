package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIndexInterrupted: Ctrl-C during index prints the servers indexed so
// far and one plain line, with nothing of what the stopped servers printed
// (a stack trace on stderr) and no "failed"; the stopped server is not
// marked failing.
func TestIndexInterrupted(t *testing.T) {
	dir := t.TempDir()
	// stuck never answers initialize, and prints what Node prints when its
	// stdout is closed under it.
	stuck := serverEntry{Command: "sh", Args: []string{"-c",
		`printf 'Error: write EPIPE\n    at afterWriteDispatched (node:internal/stream_base_commons:160:15)\n' >&2; exec sleep 60`}}
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk"), "stuck": stuck}, nil)
	db := filepath.Join(dir, "catalog.db")

	cmd := capbridgeCmd("index", "--config", cfg, "--db", db)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	deadline := time.After(2 * time.Minute)
	for len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "helpdesk ") {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("index ended before helpdesk was indexed:\n%s", strings.Join(got, "\n"))
			}
			got = append(got, l)
		case <-deadline:
			t.Fatalf("helpdesk not indexed within 2 minutes:\n%s", strings.Join(got, "\n"))
		}
	}
	time.Sleep(500 * time.Millisecond) // stuck has printed its trace
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	for l := range lines {
		got = append(got, l)
	}
	err = cmd.Wait()
	took := time.Since(stopped)
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("interrupted index exited %d (%v), want 1", code, err)
	}
	want := "capbridge: index interrupted: 1 of 2 servers indexed; not indexed: stuck"
	if len(got) != 2 || got[1] != want {
		t.Errorf("interrupted index printed:\n%s\nwant the helpdesk line and then %q", strings.Join(got, "\n"), want)
	}
	for _, bad := range []string{"EPIPE", "failed", "context canceled", "afterWriteDispatched"} {
		if strings.Contains(strings.Join(got, "\n"), bad) {
			t.Errorf("interrupted index printed %q:\n%s", bad, strings.Join(got, "\n"))
		}
	}
	t.Logf("index exited %s after the interrupt", took.Round(time.Millisecond))
	if s := serverStates(t, cfg, db)["stuck"]; s.State != stateConfigured || s.LastError != "" {
		t.Errorf("stuck = %+v after an interrupt, want configured, not failing", s)
	}
}

// TestServeQuickExitIsQuiet: a serve that ends at once (its client gone
// before the catalog is checked) warns of nothing: closing is not a
// failure to tell which servers need indexing.
func TestServeQuickExitIsQuiet(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}, nil)
	for i := range 5 {
		cmd := capbridgeCmd("serve", "--config", cfg, "--db", filepath.Join(t.TempDir(), "catalog.db"), "--log-level", "warn")
		out, err := cmd.CombinedOutput() // stdin is empty: the client has left
		if err != nil {
			t.Fatalf("serve with no client: %v\n%s", err, out)
		}
		if len(out) > 0 {
			t.Errorf("serve %d ending at once logged:\n%s", i, out)
		}
	}
}
