//go:build linux

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nobody is the unprivileged user the environ test runs capbridge as when
// the tests run as root.
const nobody = 65534

// TestEnvironHiddenFromServers: a stdio server started by serve or index,
// running as the same (non-root) user, reads /proc/$PPID/environ as a
// hostile server would, and finds neither the secrets in capbridge's
// environment nor anything else. A control shows that the same read of an
// ordinary parent works, so the test sees a leak when there is one.
func TestEnvironHiddenFromServers(t *testing.T) {
	const secret = "sk-planted-environ-secret-7f3a"
	dir, cred := unprivilegedDir(t)
	binary := capbridgeBinary(t)

	// Control: an ordinary parent's environment is readable by its child.
	control := exec.Command("sh", "-c", `sh -c 'cat /proc/$PPID/environ'`)
	control.Env = []string{"PLANTED=" + secret, "PATH=" + os.Getenv("PATH")}
	control.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := control.Output()
	if errors.Is(err, syscall.EPERM) {
		t.Skipf("cannot run a child as another user here: %v", err)
	}
	if err != nil || !strings.Contains(string(out), secret) {
		t.Fatalf("control: a child could not read its ordinary parent's environ (%v, %q): the test could not see a leak", err, out)
	}

	for _, command := range []string{"serve", "index"} {
		t.Run(command, func(t *testing.T) {
			run := filepath.Join(dir, command)
			mkdirOwned(t, run, cred)
			script := fmt.Sprintf(`cat /proc/$PPID/environ > %[1]s/environ 2> %[1]s/err; echo $PPID > %[1]s/done; exec %[2]s demo-server`, run, binary)
			cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]serverEntry{"reader": {Command: "sh", Args: []string{"-c", script}}}})
			cfgPath := filepath.Join(run, "config.json")
			writeOwned(t, cfgPath, cfg, cred)

			cmd := exec.Command(binary, command, "--config", cfgPath, "--db", filepath.Join(run, "catalog.db"))
			cmd.Env = []string{"HOME=" + run, "XDG_CONFIG_HOME=" + run, "XDG_DATA_HOME=" + run, "PATH=" + os.Getenv("PATH"),
				"ANTHROPIC_API_KEY=" + secret, "CAPBRIDGE_HTTP_TOKEN=" + secret}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if command == "serve" {
				stdin, err := cmd.StdinPipe() // held open: serve waits for a client
				if err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()

			deadline := time.Now().Add(time.Minute)
			for {
				if data, err := os.ReadFile(filepath.Join(run, "done")); err == nil && len(data) > 0 {
					if got := strings.TrimSpace(string(data)); got != fmt.Sprint(cmd.Process.Pid) {
						t.Fatalf("the server's parent is %s, not capbridge %s (%d)", got, command, cmd.Process.Pid)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("capbridge %s never started the server; stderr:\n%s", command, stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			environ, _ := os.ReadFile(filepath.Join(run, "environ"))
			errText, _ := os.ReadFile(filepath.Join(run, "err"))
			if strings.Contains(string(environ), secret) || len(environ) > 0 {
				t.Errorf("the server read capbridge %s's environment (%d bytes, secret there: %v)", command, len(environ), strings.Contains(string(environ), secret))
			}
			if !strings.Contains(string(errText), "Permission denied") {
				t.Errorf("reading /proc/$PPID/environ: %q, want Permission denied", errText)
			}
		})
	}
}

// unprivilegedDir returns a directory the test's unprivileged user owns,
// and that user's credential: nobody when the tests run as root, else the
// current user (already not root).
func unprivilegedDir(t *testing.T) (string, *syscall.Credential) {
	t.Helper()
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: nobody, Gid: nobody}
	}
	dir, err := os.MkdirTemp("", "capbridge-environ-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, cred
}

func mkdirOwned(t *testing.T, dir string, cred *syscall.Credential) {
	t.Helper()
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	chownTo(t, dir, cred)
}

func writeOwned(t *testing.T, path string, data []byte, cred *syscall.Credential) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	chownTo(t, path, cred)
}

func chownTo(t *testing.T, path string, cred *syscall.Credential) {
	t.Helper()
	if cred == nil {
		return
	}
	if err := os.Chown(path, int(cred.Uid), int(cred.Gid)); err != nil {
		t.Fatal(err)
	}
}
