package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
)

// Real upstream servers for the tests: the npm reference servers pinned
// under testdata/npm, and the demo server of capbridge's own binary.

// npmDir is where the pinned npm reference servers live.
func npmDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "npm")
}

var installNPM sync.Once

// npmServer returns a stdio config running one of the pinned npm servers
// ("everything", "memory", "filesystem") with node, installing them with
// npm ci when missing. A machine that cannot install them fails the test.
func npmServer(t testing.TB, name string, args ...string) config.Server {
	t.Helper()
	dir := npmDir(t)
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-"+name, "dist", "index.js")
	installNPM.Do(func() {
		if _, err := os.Stat(entry); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	})
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("npm server %s is not installed: %v", name, err)
	}
	return testServer(name, "node", append([]string{entry}, args...)...)
}

// testServer is a stdio server config as config.Load would make it.
func testServer(name, command string, args ...string) config.Server {
	entry, err := json.Marshal(map[string]any{"mcpServers": map[string]any{name: map[string]any{"command": command, "args": args}}})
	if err != nil {
		panic(err)
	}
	f, err := config.Parse(entry, "test")
	if err != nil {
		panic(err)
	}
	return f.Servers[name]
}

// demoBinary builds capbridge once per test run, or uses the binary named
// by $CAPBRIDGE_TEST_BIN.
var demoBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("CAPBRIDGE_TEST_BIN"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "capbridge-bridge-test-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "capbridge")
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

// demoServer returns a stdio config running `capbridge demo-server` with
// the given flags (e.g. "--fault", "hang").
func demoServer(t testing.TB, name string, flags ...string) config.Server {
	t.Helper()
	bin, err := demoBinary()
	if err != nil {
		t.Fatalf("building capbridge for the demo server: %v", err)
	}
	return testServer(name, bin, append([]string{"demo-server"}, flags...)...)
}

// testConfig wraps servers into a config.File with short timeouts.
func testConfig(servers ...config.Server) *config.File {
	cfg := &config.File{Servers: map[string]config.Server{}, Bridge: config.Bridge{
		CallTimeout: 20 * time.Second, IdleShutdown: time.Hour, DiscoveryWait: time.Second,
	}}
	for _, s := range servers {
		cfg.Servers[s.Name] = s
	}
	return cfg
}

// newTestUpstreams starts a manager closed at the end of the test.
func newTestUpstreams(t testing.TB, cfg *config.File, opts *Options) *Pool {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	if opts.StopGrace == 0 {
		opts.StopGrace = 500 * time.Millisecond
	}
	u := NewPool(cfg, opts)
	t.Cleanup(func() { u.Close() })
	return u
}

// pidOf returns the pid of server's running child.
func pidOf(t testing.TB, u *Pool, server string) int {
	t.Helper()
	u.mu.Lock()
	up := u.servers[server]
	u.mu.Unlock()
	up.mu.Lock()
	defer up.mu.Unlock()
	if up.conn == nil || up.conn.proc == nil {
		t.Fatalf("%s has no running child", server)
	}
	return up.conn.proc.cmd.Process.Pid
}

// alive reports whether a process (or, with a negative pid, a process
// group) still exists. A zombie whose threads have all exited counts as
// gone; one whose first thread is a zombie while others still exit does not
// (it still holds its pipes, and its parent cannot wait for it yet).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	if pid < 0 {
		return true
	}
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat))
	if len(fields) < 3 || fields[2] != "Z" {
		return true
	}
	status, err := os.ReadFile(filepath.Join(dir, "status"))
	return err != nil || !strings.Contains(string(status), "\nThreads:\t1\n")
}

// waitGone waits up to d for pid to be gone.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return !alive(pid)
}

// freePort returns a TCP address on localhost nobody listens on.
func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// toolNames returns the names in a listing.
func toolNames(t testing.TB, l *Listing) []string {
	t.Helper()
	var names []string
	for _, raw := range l.Tools {
		var tool struct{ Name string }
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatalf("tool %s: %v", raw, err)
		}
		names = append(names, tool.Name)
	}
	return names
}

// testContext bounds a test at 60 s of its own. The demo server's binary
// is built first (once a run, see demoBinary): on a fresh clone's cold
// build cache, under the README's 'go test ./...' with every package
// building at once, the build alone took a minute and ran the deadline
// out before a server started.
func testContext(t testing.TB) context.Context {
	demoBinary() // a failed build is reported by the demoServer that needs it
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
