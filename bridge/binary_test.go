package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
)

// demoBinary builds capbridge once per test run, or uses the binary named
// by $CAPBRIDGE_TEST_BIN, for the benchmarks that time a real serve child.
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
	cmd.Dir = filepath.Join(filepath.Dir(file), "..")
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
	entry, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		name: map[string]any{"command": bin, "args": append([]string{"demo-server"}, flags...)}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := config.Parse(entry, "test")
	if err != nil {
		t.Fatal(err)
	}
	return f.Servers[name]
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

// newTestUpstreams starts a pool closed at the end of the test.
func newTestUpstreams(t testing.TB, cfg *config.File, opts *upstream.Options) *upstream.Pool {
	t.Helper()
	if opts == nil {
		opts = &upstream.Options{}
	}
	if opts.StopGrace == 0 {
		opts.StopGrace = 500 * time.Millisecond
	}
	u := upstream.NewPool(cfg, opts)
	t.Cleanup(func() { u.Close() })
	return u
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
