package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
)

var approveHelp = commandHelp{
	usage: []string{"approve SERVER[/TOOL] [--db FILE]"},
	about: `Makes the definition a server lists now the pin of its tool (of each of its
tools, given only SERVER) and releases the tools held for review: a change
that raised a tool's risk, any change under "bridge": {"pinning": "strict"},
or text that reads like an attack on the model. 'capbridge servers' shows
what is held and why; read it before approving. A running 'capbridge serve'
offers an approved tool from its next discovery. Approving does not put
text the detector flagged back on a card: it stays cut.`,
	examples: []string{"capbridge approve notes/read_note", "capbridge approve notes"},
}

func runApprove(ctx context.Context, e env) error {
	flags := newFlagSet("approve", e)
	dbPath := dbFlag(flags)
	args, done, err := parseFlags(flags, e, approveHelp)
	if done {
		return err
	}
	if len(args) != 1 || args[0] == "" || strings.HasPrefix(args[0], "/") {
		return &usageError{msg: "approve needs one SERVER or SERVER/TOOL; run 'capbridge servers' to see what is held"}
	}
	server, tool, _ := strings.Cut(args[0], "/")
	path := config.DBPath(*dbPath)
	st, err := openExistingCatalog(ctx, path)
	if err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	if st == nil {
		return fmt.Errorf("approve: no catalog at %s; nothing is pinned yet", path)
	}
	defer st.Close()
	approved, err := st.Approve(ctx, server, tool)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("approve: nothing pinned as %s in %s; run 'capbridge servers' to see the servers and what is held", args[0], path)
	}
	if err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	if len(approved) == 0 {
		fmt.Fprintf(e.stdout, "Nothing to approve: %s is pinned as it is listed.\n", args[0])
		return nil
	}
	for _, p := range approved {
		line := fmt.Sprintf("Approved %s/%s: the definition listed now is its pin", p.Server, terminalText(p.Tool))
		if p.Held {
			line += "; released (it was held: " + terminalText(p.Reason) + ")"
		}
		fmt.Fprintln(e.stdout, line+".")
	}
	return nil
}
