package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
)

var loginHelp = commandHelp{
	usage: []string{"login SERVER [--no-browser] [--timeout D] [--config FILE]"},
	about: `Signs in to a remote server that asks for OAuth (it answers 401 with a
WWW-Authenticate challenge). capbridge finds the server's authorization
server, registers itself there (or uses the server's "oauth" settings in the
config), and opens the sign-in page in a browser; the browser comes back to
a listener on 127.0.0.1. Without a browser (SSH, CI) the address is printed:
open it anywhere that can reach this machine's loopback, or finish there.

The tokens go to the OS keychain, else to a private file (see 'capbridge
secret'); serve, index and call use them and refresh them before they
expire. When a token cannot be refreshed (the refresh token was revoked or
expired), discoveries and run_capability name this command. Run it again
to grant more permission when a server asks for it.`,
	examples: []string{"capbridge login linear", "capbridge login --no-browser sentry"},
}

func runLogin(ctx context.Context, e env) error {
	flags := newFlagSet("login", e)
	configPath := configFlag(flags)
	noBrowser := flags.Bool("no-browser", false, "print the sign-in address; do not open a browser")
	timeout := flags.Duration("timeout", 5*time.Minute, "give up after `D` without an answer from the browser")
	args, done, err := parseFlags(flags, e, loginHelp)
	if done {
		return err
	}
	if len(args) != 1 {
		return &usageError{msg: "login needs exactly one SERVER; run 'capbridge servers' to see them"}
	}
	s, err := remoteServer(*configPath, args[0])
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	store, err := config.OpenSecrets()
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	res, err := upstream.Login(ctx, s, upstream.LoginOptions{
		Secrets: store,
		Open: func(ctx context.Context, authURL string) error {
			fmt.Fprintf(e.stderr, "To sign in to %s, open this address in a browser:\n\n  %s\n\nWaiting for the answer (up to %s)...\n", s.Name, authURL, *timeout)
			if !*noBrowser {
				if err := openBrowser(authURL); err != nil {
					fmt.Fprintf(e.stderr, "(no browser opened: %v)\n", err)
				}
			}
			return nil
		},
	})
	if errors.Is(err, upstream.ErrNoSignIn) {
		fmt.Fprintf(e.stdout, "Server %q answered without asking to sign in: nothing to do.\n", s.Name)
		return nil
	}
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	fmt.Fprintf(e.stdout, "Signed in to %q%s; %s. Kept in %s.\n", s.Name, scopeNote(res.Scopes), expiryNote(res.Expiry, res.Refreshing, time.Now()), store.Where())
	return nil
}

// remoteServer loads the config and returns the server name, which must be
// configured and reached by url.
func remoteServer(configPath, name string) (config.Server, error) {
	path := config.Path(configPath)
	cfg, err := config.Load(path)
	if err != nil {
		return config.Server{}, err
	}
	s, ok := cfg.Servers[name]
	if !ok {
		return config.Server{}, fmt.Errorf("no server %q in %s%s", name, path, suggest(name, cfg.Enabled()))
	}
	if s.Type == config.TypeStdio {
		return config.Server{}, fmt.Errorf("server %q is a local (stdio) server: only remote (url) servers sign in", name)
	}
	return s, nil
}

func scopeNote(scopes []string) string {
	if len(scopes) == 0 {
		return ""
	}
	return fmt.Sprintf(" (scope %q)", strings.Join(scopes, " "))
}

// expiryNote says when a token expires, as `login` and `servers` print it.
func expiryNote(expiry time.Time, refreshing bool, now time.Time) string {
	var s string
	switch {
	case expiry.IsZero():
		s = "the token has no stated expiry"
	case !expiry.After(now):
		s = "the token expired " + expiry.Local().Format("2006-01-02 15:04")
	default:
		s = fmt.Sprintf("the token expires in %s (%s)", roundDuration(expiry.Sub(now)), expiry.Local().Format("2006-01-02 15:04"))
	}
	if refreshing {
		s += ", refreshed on use"
	}
	return s
}

func roundDuration(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// openBrowser starts the user's browser on url without waiting for it:
// $BROWSER when set, else the system's opener. On Linux with no display
// (SSH, CI) there is none.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch b := os.Getenv("BROWSER"); {
	case b != "":
		first, _, _ := strings.Cut(b, string(os.PathListSeparator))
		f := strings.Fields(first)
		if len(f) == 0 {
			return errors.New("$BROWSER is blank")
		}
		args := f[1:]
		if i := slices.Index(args, "%s"); i >= 0 {
			args[i] = url
		} else {
			args = append(args, url)
		}
		cmd = exec.Command(f[0], args...)
	case runtime.GOOS == "darwin":
		cmd = exec.Command("open", url)
	case runtime.GOOS == "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; its exit is not ours to judge
	return nil
}
