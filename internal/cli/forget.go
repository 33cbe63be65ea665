package cli

import (
	"context"
	"fmt"

	"github.com/capbridge/capbridge/bridge/config"
)

var forgetHelp = commandHelp{
	usage: []string{"forget [SERVER] [--db FILE]"},
	about: `Forgets what discovery learned from use: which tool the model ran after which
request (see bridge.learning in the config). With a SERVER, only what was
learned of that server's tools. The catalog keeps it on this machine only, at
most the last 2,000 runs; set "learning": false in the config's "bridge" to
stop learning altogether.`,
	examples: []string{"capbridge forget", "capbridge forget github"},
}

func runForget(ctx context.Context, e env) error {
	flags := newFlagSet("forget", e)
	dbPath := dbFlag(flags)
	args, done, err := parseFlags(flags, e, forgetHelp)
	if done {
		return err
	}
	if len(args) > 1 {
		return &usageError{msg: "forget takes at most one SERVER"}
	}
	server := ""
	if len(args) == 1 {
		server = args[0]
	}
	st, err := openExistingCatalog(ctx, config.DBPath(*dbPath))
	if err != nil {
		return fmt.Errorf("forget: %w", err)
	}
	if st == nil {
		fmt.Fprintln(e.stdout, "Nothing learned: there is no catalog yet.")
		return nil
	}
	defer st.Close()
	n, err := st.ForgetLearned(ctx, server)
	if err != nil {
		return fmt.Errorf("forget: %w", err)
	}
	what := "every server's tools"
	if server != "" {
		what = fmt.Sprintf("server %q's tools", server)
	}
	fmt.Fprintf(e.stdout, "Forgot %d learned runs of %s in %s.\n", n, what, st.Path())
	return nil
}
