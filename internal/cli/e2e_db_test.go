package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// twoServers is the config most database tests use.
func twoServers(t *testing.T) string {
	return writeConfig(t, map[string]serverEntry{
		"helpdesk": demoUpstream("--server", "helpdesk"),
		"calendar": demoUpstream("--server", "calendar"),
	}, nil)
}

// startServeLogged is startServeCmd with serve's stderr also kept in logs.
func startServeLogged(t *testing.T, cfg, db string, logs io.Writer) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "warn")
	cmd.Stderr = io.MultiWriter(testWriter{t}, logs)
	return connectServe(t, cmd), cmd
}

// capbridgeFails runs `capbridge args...`, which must fail, and returns its
// stderr.
func capbridgeFails(t *testing.T, args ...string) string {
	t.Helper()
	cmd := capbridgeCmd(args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatalf("capbridge %s succeeded; want it to fail", strings.Join(args, " "))
	}
	return stderr.String()
}

// useBoth discovers and runs a tool of each demo server.
func useBoth(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
	runAction(t, cs, card["actionId"].(string), map[string]any{})
	runCalendar(t, cs)
}

// TestServeRebuildsDamagedCatalog: a capbridge catalog damaged on disk is
// moved aside (kept byte for byte for a post-mortem) and rebuilt from the
// configured servers; serve answers as before. A second start finds the new
// catalog healthy and moves nothing: no crash loop.
func TestServeRebuildsDamagedCatalog(t *testing.T) {
	tests := []struct {
		name   string
		damage func(path string, size int64) error
	}{
		{"truncated", func(path string, size int64) error { return os.Truncate(path, size/2) }},
		{"pages overwritten", func(path string, size int64) error {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			for off := int64(4096); off < size; off += 2 * 4096 {
				if _, err := f.WriteAt(bytes.Repeat([]byte("garbage!"), 512), off); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := twoServers(t)
			db := filepath.Join(t.TempDir(), "catalog.db")
			runCapbridge(t, "index", "--config", cfg, "--db", db)
			info, err := os.Stat(db)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.damage(db, info.Size()); err != nil {
				t.Fatal(err)
			}
			damaged, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}

			logs := &logBuffer{}
			cs, _ := startServeLogged(t, cfg, db, logs)
			useBoth(t, cs)
			aside, _ := filepath.Glob(db + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("damaged catalog moved to %v, want one catalog.db.corrupt-TIME", aside)
			}
			if kept, err := os.ReadFile(aside[0]); err != nil || !bytes.Equal(kept, damaged) {
				t.Errorf("%s does not hold the damaged file as it was (%v)", aside[0], err)
			}
			if !strings.Contains(logs.String(), "moved it aside") {
				t.Errorf("serve did not warn that it moved the catalog aside:\n%s", logs.String())
			}
			for _, name := range []string{"helpdesk", "calendar"} {
				if st := serverStatusOf(t, cfg, db, name); st.State != "stored" || st.Tools == 0 {
					t.Errorf("rebuilt catalog: %s is %q with %d tools", name, st.State, st.Tools)
				}
			}
			cs.Close()

			cs = startServe(t, cfg, db)
			useBoth(t, cs)
			if again, _ := filepath.Glob(db + ".corrupt-*"); len(again) != 1 {
				t.Errorf("the second start moved the rebuilt catalog too: %v", again)
			}
		})
	}
}

// TestServeRefusesForeignFiles: a file that is not a capbridge catalog is
// never touched: serve and index refuse it with a message that says what
// it is and what to do.
func TestServeRefusesForeignFiles(t *testing.T) {
	tests := []struct {
		name  string
		write func(path string) error
		want  string
	}{
		{"text file", func(path string) error { return os.WriteFile(path, []byte("my notes, not a database\n"), 0o600) }, "not an SQLite database"},
		{"another application's SQLite", func(path string) error {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = db.Exec("PRAGMA application_id = 42; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
			return err
		}, "another application"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := twoServers(t)
			db := filepath.Join(t.TempDir(), "catalog.db")
			if err := tt.write(db); err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []string{"serve", "index"} {
				stderr := capbridgeFails(t, cmd, "--config", cfg, "--db", db)
				if !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, db) {
					t.Errorf("%s on a foreign file says %q; want it to name the file and say %q", cmd, stderr, tt.want)
				}
			}
			after, err := os.ReadFile(db)
			if err != nil || !bytes.Equal(before, after) {
				t.Errorf("the foreign file changed (%v)", err)
			}
			if aside, _ := filepath.Glob(db + ".corrupt-*"); len(aside) > 0 {
				t.Errorf("a foreign file was moved aside: %v", aside)
			}
		})
	}
}

// TestServeCatalogDeletedOrReplaced: the catalog file deleted, or replaced
// by another file, while serve runs: serve keeps answering from the file it
// opened; the next start rebuilds a deleted catalog and refuses the foreign
// replacement without touching it.
func TestServeCatalogDeletedOrReplaced(t *testing.T) {
	tests := []struct {
		name    string
		replace bool
	}{{"deleted", false}, {"replaced", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := twoServers(t)
			db := filepath.Join(t.TempDir(), "catalog.db")
			runCapbridge(t, "index", "--config", cfg, "--db", db)
			cs, cmd := startServeCmd(t, cfg, db)
			useBoth(t, cs)
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(db + suffix)
			}
			if tt.replace {
				if err := os.WriteFile(db, []byte("someone else's file\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			useBoth(t, cs)
			bridgeAlive(t, cs, cmd)
			cs.Close()

			if tt.replace {
				stderr := capbridgeFails(t, "serve", "--config", cfg, "--db", db)
				if !strings.Contains(stderr, "not an SQLite database") {
					t.Errorf("serve on the replacement says %q", stderr)
				}
				if data, _ := os.ReadFile(db); string(data) != "someone else's file\n" {
					t.Errorf("the replacement was changed: %q", data)
				}
				return
			}
			cs = startServe(t, cfg, db)
			useBoth(t, cs)
		})
	}
}

// TestServeCatalogLocked: another process holds the catalog's write lock
// past the busy timeout. Discovery still answers (WAL readers do not wait
// for the writer); a run, which re-lists the server and must write, answers
// a clear error naming the lock (not a failed server, not a crash); once the
// lock is gone the next run succeeds.
func TestServeCatalogLocked(t *testing.T) {
	t.Parallel()
	cfg := twoServers(t)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	cs, cmd := startServeCmd(t, cfg, db)
	card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")

	locker, err := sql.Open("sqlite", db+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close()
	ctx := context.Background()
	conn, err := locker.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	locked := true
	defer func() {
		if locked {
			conn.ExecContext(ctx, "ROLLBACK")
		}
	}()

	discoverAction(t, cs, "list calendar events", "calendar", "list_events")
	res, ans := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"]})
	if !res.IsError || !strings.Contains(strings.ToLower(resultText(res)), "locked") || strings.Contains(resultText(res), "failed") {
		t.Fatalf("run while another process holds the write lock: %s; want an error that names the lock, not a failed server", resultText(res))
	}
	t.Logf("answer while locked: %v", ans)
	bridgeAlive(t, cs, cmd)

	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	locked = false
	runAction(t, cs, card["actionId"].(string), map[string]any{})
}

// TestServeDiskFull: the catalog cannot grow (the file size limit of the
// serve process, ulimit -f, stands in for a full disk). Indexing a big new
// server fails with a clear reason; serve stays up and keeps answering from
// the catalog it had; that catalog stays whole (no half-written server) and
// passes SQLite's integrity check.
func TestServeDiskFull(t *testing.T) {
	t.Parallel()
	servers := map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", writeConfig(t, servers, nil), "--db", db)
	var size int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if info, err := os.Stat(db + suffix); err == nil {
			size = max(size, info.Size())
		}
	}
	servers["bulk"] = demoUpstream("--fault", "big-catalog:400")
	cfg := writeConfig(t, servers, map[string]any{"discoveryWait": "1s"})

	// Room for what is there and a little more, far less than 400 tools.
	blocks := (size + 256<<10) / 512
	cmd := exec.Command("sh", "-c", fmt.Sprintf(`ulimit -f %d && exec "$0" "$@"`, blocks),
		os.Args[0], "serve", "--config", cfg, "--db", db, "--log-level", "warn")
	cmd.Env = append(os.Environ(), asCapbridge+"=1")
	logs := &logBuffer{}
	cmd.Stderr = io.MultiWriter(testWriter{t}, logs)
	client := mcp.NewClient(&mcp.Implementation{Name: "disk-full", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	if !waitFor(90*time.Second, func() bool {
		l := strings.ToLower(logs.String())
		return strings.Contains(l, "indexing failed") && strings.Contains(l, "bulk")
	}) {
		t.Fatalf("indexing past the size limit did not fail clearly; logs:\n%s", logs.String())
	}
	card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
	runAction(t, cs, card["actionId"].(string), map[string]any{})
	bridgeAlive(t, cs, cmd)
	cs.Close()

	bulk := serverStatusOf(t, cfg, db, "bulk")
	if bulk.Tools != 0 {
		t.Errorf("bulk has %d tools stored: a half-written catalog", bulk.Tools)
	}
	if st := serverStatusOf(t, cfg, db, "helpdesk"); st.State != "stored" || st.Tools == 0 {
		t.Errorf("helpdesk after the failed write: %q, %d tools", st.State, st.Tools)
	}
	st, moved, err := store.OpenChecked(context.Background(), db, nil)
	if err != nil || moved != "" {
		t.Fatalf("the catalog after the failed write: %v (moved aside to %q)", err, moved)
	}
	st.Close()
}

// TestTwoServesOneCatalog: two serve processes on one new database index
// the same servers in the background and answer discoveries at the same
// time: no error, and every tool each server lists is stored exactly once.
func TestTwoServesOneCatalog(t *testing.T) {
	t.Parallel()
	servers := map[string]serverEntry{}
	for _, name := range []string{"helpdesk", "calendar", "crm", "files"} {
		servers[name] = demoUpstream("--server", name)
	}
	cfg := writeConfig(t, servers, nil)
	want := filepath.Join(t.TempDir(), "reference.db")
	runCapbridge(t, "index", "--config", cfg, "--db", want)

	db := filepath.Join(t.TempDir(), "catalog.db")
	sessions := []*mcp.ClientSession{startServe(t, cfg, db), startServe(t, cfg, db)}
	intents := []struct{ intent, provider, tool string }{
		{"list helpdesk tickets", "helpdesk", "list_tickets"},
		{"list calendar events", "calendar", "list_events"},
	}
	var wg sync.WaitGroup
	for i, cs := range sessions {
		for j := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				in := intents[(i+j)%len(intents)]
				discoverAction(t, cs, in.intent, in.provider, in.tool)
			}()
		}
	}
	wg.Wait()
	card := discoverAction(t, sessions[1], "list helpdesk tickets", "helpdesk", "list_tickets")
	runAction(t, sessions[1], card["actionId"].(string), map[string]any{})
	for _, cs := range sessions {
		cs.Close()
	}
	for name := range servers {
		got, ref := serverStatusOf(t, cfg, db, name), serverStatusOf(t, cfg, want, name)
		if got.State != "stored" || got.Tools != ref.Tools || got.Refused != ref.Refused || got.Bytes != ref.Bytes {
			t.Errorf("%s: %q %d tools, %d refused, %d bytes; one index alone stores %d, %d, %d",
				name, got.State, got.Tools, got.Refused, got.Bytes, ref.Tools, ref.Refused, ref.Bytes)
		}
	}
}

// TestTwoServesOneDamagedCatalog: two serve processes start together on one
// damaged catalog. The damaged file is moved aside once (the second serve
// does not move the first one's new catalog away too), and both answer from
// the rebuilt catalog.
func TestTwoServesOneDamagedCatalog(t *testing.T) {
	t.Parallel()
	cfg := twoServers(t)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	info, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, info.Size()/2); err != nil {
		t.Fatal(err)
	}
	sessions := make([]*mcp.ClientSession, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "warn")
			cmd.Stderr = testWriter{t}
			client := mcp.NewClient(&mcp.Implementation{Name: "capbridge-e2e", Version: "1"}, nil)
			sessions[i], errs[i] = client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
		}()
	}
	wg.Wait()
	for i, cs := range sessions {
		if errs[i] != nil {
			t.Fatalf("serve %d did not start on the damaged catalog: %v", i, errs[i])
		}
		t.Cleanup(func() { cs.Close() })
	}
	for _, cs := range sessions {
		useBoth(t, cs)
	}
	// The damaged file goes aside with its -wal and -shm when it has them;
	// count the catalogs moved.
	var aside []string
	matches, _ := filepath.Glob(db + ".corrupt-*")
	for _, m := range matches {
		if !strings.HasSuffix(m, "-wal") && !strings.HasSuffix(m, "-shm") {
			aside = append(aside, m)
		}
	}
	if len(aside) != 1 {
		t.Errorf("two serves on one damaged catalog moved %d catalogs aside (%v), want 1", len(aside), matches)
	}
	for _, name := range []string{"helpdesk", "calendar"} {
		if st := serverStatusOf(t, cfg, db, name); st.State != "stored" || st.Tools == 0 {
			t.Errorf("%s is %q with %d tools in the rebuilt catalog", name, st.State, st.Tools)
		}
	}
}
