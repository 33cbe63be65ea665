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
	usage: []string{"approve SERVER[/TOOL] [--config FILE] [--db FILE]"},
	about: `Makes the definition a server lists now the pin of its tool (of each of its
tools, given only SERVER) and releases the tools held for review: a change
that raised a tool's risk, any change under "bridge": {"pinning": "strict"},
or text that reads like an attack on the model. 'capbridge servers' shows
what is held and why; read it before approving. A running 'capbridge serve'
offers an approved tool from its next discovery. Approving does not put
text the detector flagged back on a card: it stays cut.`,
	examples: []string{"capbridge approve notes/read_note", "capbridge approve notes",
		"capbridge approve notes --config ./capbridge.json --db ./catalog.db"},
}

func runApprove(ctx context.Context, e env) error {
	flags := newFlagSet("approve", e)
	configPath, dbPath := configFlag(flags), dbFlag(flags)
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
		return fmt.Errorf("approve: nothing pinned as %s in %s%s; run 'capbridge servers' to see the servers and what is held",
			args[0], path, nearServer(ctx, st, *configPath, server, tool))
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

// nearServer says what name, the server of a failed approval, may have
// been meant to be: the nearest tool of a stored server when the tool was
// misspelt (` (did you mean "notes/read_note"?)`), a note that a configured
// server is not indexed yet, or the nearest stored or configured server; ""
// when nothing is near. The config is read only for its names: a config
// that cannot be read leaves them out.
func nearServer(ctx context.Context, st *store.Store, configFlag, name, tool string) string {
	stored, _ := st.Servers(ctx)
	var names []string
	for _, s := range stored {
		if s.Name != name {
			names = append(names, s.Name)
			continue
		}
		tools, err := st.Tools(ctx, name)
		if err != nil {
			return ""
		}
		var toolNames []string
		for _, t := range tools {
			toolNames = append(toolNames, name+"/"+t.Name)
		}
		return suggest(name+"/"+tool, toolNames)
	}
	if cfg, err := config.Load(config.Path(configFlag)); err == nil {
		if _, ok := cfg.Servers[name]; ok {
			return fmt.Sprintf(" (%s is configured but not indexed yet: 'capbridge index %s' lists its tools)", name, name)
		}
		names = append(names, configuredNames(cfg)...)
	}
	return suggest(name, names)
}
