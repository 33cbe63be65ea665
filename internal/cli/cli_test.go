package cli

// Tests that drive the built capbridge binary as a user would: a temporary
// HOME and XDG directories, real config files and a real catalog database.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

var built struct {
	once sync.Once
	path string
	err  error
}

// capbridgeBinary builds the binary once per test run. It lives at one path
// per checkout under the temp directory, replaced atomically by each run, so
// runs neither pile up binaries nor race each other.
func capbridgeBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			built.err = err
			return
		}
		sum := sha256.Sum256([]byte(wd))
		dir := filepath.Join(os.TempDir(), "capbridge-cli-test-"+hex.EncodeToString(sum[:6]))
		if built.err = os.MkdirAll(dir, 0o755); built.err != nil {
			return
		}
		tmp, err := os.MkdirTemp(dir, "build")
		if err != nil {
			built.err = err
			return
		}
		defer os.RemoveAll(tmp)
		cmd := exec.Command("go", "build", "-o", filepath.Join(tmp, "capbridge"), ".")
		cmd.Dir = filepath.Join("..", "..") // the module root, where main.go is
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = errors.New("go build: " + err.Error() + "\n" + string(out))
			return
		}
		built.path = filepath.Join(dir, "capbridge")
		built.err = os.Rename(filepath.Join(tmp, "capbridge"), built.path)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// sandbox is a user's machine in miniature: HOME, XDG dirs and a work dir.
type sandbox struct {
	t                      *testing.T
	home, config, data, wd string
}

func newSandbox(t *testing.T) *sandbox {
	root := t.TempDir()
	s := &sandbox{t: t, home: filepath.Join(root, "home"), config: filepath.Join(root, "xdg-config"),
		data: filepath.Join(root, "xdg-data"), wd: filepath.Join(root, "work")}
	for _, d := range []string{s.home, s.config, s.data, s.wd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func (s *sandbox) configPath() string { return filepath.Join(s.config, "capbridge", "config.json") }
func (s *sandbox) dbPath() string     { return filepath.Join(s.data, "capbridge", "catalog.db") }

// cmd returns capbridge args as the sandbox runs it, to be started by the
// caller.
func (s *sandbox) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command(capbridgeBinary(s.t), args...)
	cmd.Dir = s.wd
	cmd.Env = []string{"HOME=" + s.home, "XDG_CONFIG_HOME=" + s.config, "XDG_DATA_HOME=" + s.data, "PATH=" + os.Getenv("PATH")}
	return cmd
}

// result is one finished run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// run runs capbridge with args in the sandbox and returns what it printed
// and its exit code.
func (s *sandbox) run(args ...string) result {
	s.t.Helper()
	cmd := s.cmd(args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		s.t.Fatalf("running capbridge %q: %v", args, err)
	}
	return r
}

// mustRun runs capbridge and fails the test unless it exits with want.
func (s *sandbox) mustRun(want int, args ...string) result {
	s.t.Helper()
	r := s.run(args...)
	if r.code != want {
		s.t.Fatalf("capbridge %q exited %d, want %d\nstdout:\n%s\nstderr:\n%s", args, r.code, want, r.stdout, r.stderr)
	}
	return r
}

func (s *sandbox) writeFile(path, content string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) readFile(path string) string {
	s.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// storedCatalog is what storeDemoCatalog put into a database, as the test
// computed it independently of the command under test.
type storedCatalog struct {
	tools   map[string]int      // server -> stored tools
	refused map[string][]string // server -> refused tool names
	raws    map[string][][]byte // server -> compact raw tools, in order
}

// storeDemoCatalog normalizes the built-in demo catalog server by server and
// stores it at dbPath, as `capbridge index` would.
func storeDemoCatalog(t *testing.T, dbPath string) storedCatalog {
	t.Helper()
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("..", "..", "demo", "catalog", "tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := demo.ReadCatalog(bytes.NewReader(data), "")
	if err != nil {
		t.Fatal(err)
	}
	var servers []string
	seen := map[string]bool{}
	for line := range bytes.SplitSeq(bytes.TrimSpace(data), []byte("\n")) {
		var tool struct{ Server string }
		if err := json.Unmarshal(line, &tool); err != nil {
			t.Fatal(err)
		}
		if !seen[tool.Server] {
			seen[tool.Server] = true
			servers = append(servers, tool.Server)
		}
	}
	if len(all) == 0 || len(servers) < 2 {
		t.Fatalf("demo catalog holds %d tools of %d servers; want several", len(all), len(servers))
	}
	st, err := store.Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := storedCatalog{tools: map[string]int{}, refused: map[string][]string{}, raws: map[string][][]byte{}}
	for _, server := range servers {
		raws, err := demo.ReadCatalog(bytes.NewReader(data), server)
		if err != nil {
			t.Fatal(err)
		}
		var tools []*schema.Tool
		refusals := schema.NormalizeCatalog(server, raws, nil, func(_ int, t *schema.Tool) { tools = append(tools, t) })
		var rows []store.Tool
		for _, tool := range tools {
			record, _ := json.Marshal(tool.Record)
			card, _ := json.Marshal(tool.Card)
			rows = append(rows, store.Tool{Name: tool.Record.Name, Hash: tool.Record.Hash, Record: record, Card: card,
				Doc: store.Doc{Name: tool.Record.Name, Desc: tool.Card.Summary}})
			var compact bytes.Buffer
			if err := json.Compact(&compact, tool.Record.Raw); err != nil {
				t.Fatal(err)
			}
			got.raws[server] = append(got.raws[server], compact.Bytes())
		}
		for _, r := range refusals {
			rows = append(rows, store.Tool{Name: r.Tool, Refusal: r.Reason})
			got.refused[server] = append(got.refused[server], r.Tool)
		}
		var size int64
		for _, raw := range raws {
			size += int64(len(raw))
		}
		if err := st.ReplaceCatalog(ctx, store.Server{Name: server, Bytes: size}, storeTools(rows...)); err != nil {
			t.Fatal(err)
		}
		got.tools[server] = len(tools)
	}
	return got
}
