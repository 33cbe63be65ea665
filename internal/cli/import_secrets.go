package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
	"golang.org/x/term"
)

// offerSecretMove finds the literal secrets (API keys written as they are
// in env or headers) of the servers import adds, and moves them into the
// secret store, writing ${secret:NAME} in their place: with move set, or
// when the user says yes at a terminal. Otherwise it says how. It returns
// how many moved; a value that could not be kept stays in the file as it
// was.
func offerSecretMove(e env, dst *config.Doc, added []string, move, dryRun bool) (int, error) {
	found := dst.LiteralSecrets(added)
	if len(found) == 0 {
		return 0, nil
	}
	var names []string
	for _, ls := range found {
		names = append(names, fmt.Sprintf("%s (%s.%s)", ls.Key, ls.Server, ls.Field))
	}
	fmt.Fprintf(e.stdout, "\n%d value(s) written as they are look like secrets: %s.\n", len(found), strings.Join(names, ", "))
	switch {
	case dryRun:
		fmt.Fprintln(e.stdout, "Without --dry-run, --move-secrets keeps them in the keychain and writes ${secret:NAME} in the config.")
		return 0, nil
	case !move && askYes(e, "Keep them in the keychain instead, with ${secret:NAME} in the config? [y/N] "):
		move = true
	case !move:
		fmt.Fprintln(e.stdout, "They are copied as they are. Run 'capbridge import --move-secrets ...' to keep them in the keychain instead.")
		return 0, nil
	}
	store, err := config.OpenSecrets()
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, ls := range found {
		if err := dst.MoveSecret(ls, store); err != nil {
			fmt.Fprintf(e.stderr, "capbridge: warning: %s of %s stays in the config: %v\n", ls.Key, ls.Server, err)
			continue
		}
		moved++
		fmt.Fprintf(e.stdout, "  %s of %s -> ${secret:%s}\n", ls.Key, ls.Server, ls.Name)
	}
	fmt.Fprintf(e.stdout, "Moved %d secret(s) to %s.\n", moved, store.Where())
	return moved, nil
}

// askYes asks a yes/no question when standard input and output are a
// terminal; anything but y or yes is no.
func askYes(e env, question string) bool {
	in, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) || !isTerminal(e.stdout) {
		return false
	}
	fmt.Fprint(e.stdout, question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
