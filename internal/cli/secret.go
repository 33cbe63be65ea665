package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
	"golang.org/x/term"
)

var secretHelp = commandHelp{
	usage: []string{
		"secret set NAME      (the value from standard input, or a prompt at a terminal)",
		"secret list",
		"secret rm NAME",
	},
	about: `Keeps API keys and other secrets out of the config file. A server's env
and headers name one as ${secret:NAME}; capbridge reads it when it loads the
config, never stores or logs it, and redacts it from everything the model
reads. Secrets live in the OS keychain (macOS Keychain, Secret Service,
Windows Credential Manager) when there is one, else in a private file (0600,
in a 0700 folder) under the data directory. CAPBRIDGE_SECRETS=file or
=keychain chooses one.`,
	examples: []string{
		"capbridge secret set linear-key",
		"printf %s \"$KEY\" | capbridge secret set linear-key",
		`capbridge add linear --env 'LINEAR_API_KEY=${secret:linear-key}' -- npx -y linear-mcp`,
		"capbridge secret rm linear-key",
	},
}

// maxSecretBytes bounds a value read from standard input.
const maxSecretBytes = 64 << 10

func runSecret(ctx context.Context, e env) error {
	flags := newFlagSet("secret", e)
	args, done, err := parseFlags(flags, e, secretHelp)
	if done {
		return err
	}
	if len(args) == 0 {
		return &usageError{msg: "secret needs set NAME, list or rm NAME; run 'capbridge secret -h'"}
	}
	store, err := config.OpenSecrets()
	if err != nil {
		return err
	}
	switch verb, rest := args[0], args[1:]; verb {
	case "set":
		if len(rest) != 1 {
			return &usageError{msg: "secret set needs exactly one NAME (the value comes from standard input)"}
		}
		if err := checkSecretName(rest[0]); err != nil {
			return err
		}
		value, err := readSecret(e, rest[0])
		if err != nil {
			return err
		}
		if err := store.Set(config.UserSecretPrefix+rest[0], value); err != nil {
			return fmt.Errorf("secret set: %w", err)
		}
		fmt.Fprintf(e.stdout, "Kept secret %q in %s. Use it in a server's env or headers as ${secret:%s}.\n", rest[0], store.Where(), rest[0])
	case "list", "ls":
		if len(rest) != 0 {
			return &usageError{msg: "secret list takes no arguments"}
		}
		names, err := store.Names(config.UserSecretPrefix)
		if err != nil {
			return fmt.Errorf("secret list: %w", err)
		}
		if len(names) == 0 {
			fmt.Fprintf(e.stdout, "No secrets set (they would be in %s).\n", store.Where())
			return nil
		}
		fmt.Fprintf(e.stdout, "Secrets in %s (names only):\n", store.Where())
		for _, n := range names {
			fmt.Fprintf(e.stdout, "  %s\n", strings.TrimPrefix(n, config.UserSecretPrefix))
		}
	case "rm", "remove", "delete":
		if len(rest) != 1 {
			return &usageError{msg: "secret rm needs exactly one NAME"}
		}
		name := config.UserSecretPrefix + rest[0]
		if _, err := store.Get(name); errors.Is(err, config.ErrNoSecret) {
			names, _ := store.Names(config.UserSecretPrefix)
			for i := range names {
				names[i] = strings.TrimPrefix(names[i], config.UserSecretPrefix)
			}
			return fmt.Errorf("secret rm: no secret %q%s; run 'capbridge secret list'", rest[0], suggest(rest[0], names))
		} else if err != nil {
			return fmt.Errorf("secret rm: %w", err)
		}
		if err := store.Delete(name); err != nil {
			return fmt.Errorf("secret rm: %w", err)
		}
		fmt.Fprintf(e.stdout, "Removed secret %q.\n", rest[0])
	default:
		return &usageError{msg: fmt.Sprintf("unknown secret action %q%s; want set, list or rm", verb, suggest(verb, []string{"set", "list", "rm"}))}
	}
	return nil
}

// checkSecretName refuses names ${secret:NAME} could not spell.
func checkSecretName(name string) error {
	if name == "" || strings.ContainsAny(name, "}${ \t\r\n") {
		return &usageError{msg: fmt.Sprintf("secret name %q: use letters, digits, '-', '_' or '.' (it is written ${secret:NAME})", name)}
	}
	return nil
}

// readSecret reads the value: without echo at a terminal, else all of
// standard input less one trailing newline.
func readSecret(e env, name string) (string, error) {
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(e.stderr, "Value of %s (not shown): ", name)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(e.stderr)
		if err != nil {
			return "", fmt.Errorf("secret set: reading the value: %w", err)
		}
		if len(b) == 0 {
			return "", errors.New("secret set: the value is empty; nothing kept")
		}
		return string(b), nil
	}
	b, err := io.ReadAll(io.LimitReader(bufio.NewReader(e.stdin), maxSecretBytes+1))
	if err != nil {
		return "", fmt.Errorf("secret set: reading standard input: %w", err)
	}
	if len(b) > maxSecretBytes {
		return "", fmt.Errorf("secret set: the value is over %d KiB; nothing kept", maxSecretBytes>>10)
	}
	v := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if v == "" {
		return "", errors.New("secret set: standard input was empty; nothing kept (pipe the value in, or run at a terminal to be asked)")
	}
	return v, nil
}
