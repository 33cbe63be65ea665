package cli

import (
	"context"
	"fmt"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
)

var logoutHelp = commandHelp{
	usage: []string{"logout SERVER"},
	about: `Forgets a remote server's sign-in: its access and refresh tokens and the
client secret capbridge was given when it registered, from the keychain or
the private file. The server then answers 401 until 'capbridge login SERVER'.
The authorization server is not told; revoke the grant there to end it.`,
	examples: []string{"capbridge logout linear"},
}

func runLogout(ctx context.Context, e env) error {
	flags := newFlagSet("logout", e)
	args, done, err := parseFlags(flags, e, logoutHelp)
	if done {
		return err
	}
	if len(args) != 1 {
		return &usageError{msg: "logout needs exactly one SERVER"}
	}
	store, err := config.OpenSecrets()
	if err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	had, err := upstream.Logout(store, args[0])
	if err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	if !had {
		fmt.Fprintf(e.stdout, "Not signed in to %q: nothing to forget.\n", args[0])
		return nil
	}
	fmt.Fprintf(e.stdout, "Signed out of %q: its tokens are gone from %s.\n", args[0], store.Where())
	return nil
}
