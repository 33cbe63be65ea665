package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
)

var serversHelp = commandHelp{
	usage: []string{"servers [--config FILE] [--db FILE] [--json]"},
	about: `Lists every server in the config file and in the catalog database with its
state, tool counts, catalog size, when its tools were last listed, its last
error, the tools refused at indexing with the reason for each, the tools
held for review with why, and the tools whose definition changed since it
was pinned, with what changed.

A tool is pinned the first time it is stored. A later change that raises
its risk (bridge.pinning "risk", the default), any change ("strict"), or
text that reads like an attack on the model holds it: it is neither
offered nor run until 'capbridge approve SERVER/TOOL' (or SERVER, for all
its held tools) makes the definition listed now its pin.

States:
  configured    in the config, no tools stored yet ('capbridge index' lists them)
  stored        tools listed and stored
  failing       the last attempt to list its tools failed (see LAST ERROR)
  disabled      "disabled": true in the config; its tools are not offered
  invalid       its config entry cannot be used as written (LAST ERROR says
                why); the other servers are served, and its stored tools
                are kept, not offered, until the entry is mended
  not in config stored, but no longer configured ('capbridge remove NAME' drops it)
"running" exists only inside 'capbridge serve', which starts servers lazily;
this command reads the files and starts nothing.`,
	examples: []string{"capbridge servers", "capbridge servers --json | jq '.servers[] | select(.refused > 0)'"},
}

// serverStatus is one line of `capbridge servers`.
type serverStatus struct {
	Name         string        `json:"name"`
	State        string        `json:"state"`
	Transport    string        `json:"transport,omitempty"` // stdio, http, sse; "" when not configured
	Tools        int           `json:"tools"`
	Refused      int           `json:"refused"`
	Bytes        int64         `json:"catalogBytes"`
	LastListed   *time.Time    `json:"lastListed,omitempty"`
	LastError    string        `json:"lastError,omitempty"`
	RefusedTools []refusedTool `json:"refusedTools,omitempty"`
	Held         int           `json:"held"` // stored tools held for review
	HeldTools    []heldTool    `json:"heldTools,omitempty"`
	ChangedTools []changedTool `json:"changedTools,omitempty"` // changed since first pinned, and not held
	NewTools     []newTool     `json:"newTools,omitempty"`     // listed after the server's first pinning
	// FeaturesNote says what listing the server's prompts, resources and
	// templates left out, and why.
	FeaturesNote string `json:"featuresNote,omitempty"`
}

type refusedTool struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Server states `capbridge servers` shows beyond the store's own.
const (
	stateConfigured  = "configured"
	stateDisabled    = "disabled"
	stateInvalid     = "invalid"
	stateNotInConfig = "not in config"
)

func runServers(ctx context.Context, e env) error {
	flags := newFlagSet("servers", e)
	configPath, dbPath := configFlag(flags), dbFlag(flags)
	asJSON := flags.Bool("json", false, "print one JSON object: {config, db, servers: [...]}")
	args, done, err := parseFlags(flags, e, serversHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("servers takes no arguments (got %q)", args)}
	}
	local, err := openLocal(ctx, *configPath, *dbPath)
	if err != nil {
		return fmt.Errorf("servers: %w", err)
	}
	defer local.close()
	statuses, err := local.serverStatuses(ctx)
	if err != nil {
		return fmt.Errorf("servers: %w", err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Config   string         `json:"config"`
			DB       string         `json:"db"`
			Servers  []serverStatus `json:"servers"`
			SignIns  []signInStatus `json:"signIns,omitempty"`
			Warnings []string       `json:"warnings,omitempty"`
		}{local.configPath, local.dbPath, statuses, signInStatuses(local, statuses), local.warnings()})
	}
	printServers(e.stdout, local, statuses)
	return nil
}

// localFiles are the config and the catalog the read-only commands show;
// either may be absent.
type localFiles struct {
	configPath string
	config     *config.File // nil: no config file
	dbPath     string
	store      *store.Store // nil: no catalog file
}

// openLocal reads the config and opens the catalog, creating neither. With
// neither present there is nothing to show, and the error says how to begin.
func openLocal(ctx context.Context, configFlag, dbFlag string) (*localFiles, error) {
	l := &localFiles{configPath: config.Path(configFlag), dbPath: config.DBPath(dbFlag)}
	cfg, err := config.Load(l.configPath)
	switch {
	case err == nil:
		l.config = cfg
	case !errors.Is(err, config.ErrNotFound):
		return nil, fmt.Errorf("%w; fix the file, or point --config at another one", err)
	}
	if l.store, err = openExistingCatalog(ctx, l.dbPath); err != nil {
		return nil, err
	}
	if l.config == nil && l.store == nil {
		return nil, fmt.Errorf("no config at %s and no catalog at %s; start with 'capbridge import claude' (or cursor, vscode, FILE) or 'capbridge add NAME -- COMMAND'", l.configPath, l.dbPath)
	}
	return l, nil
}

// warnings are the config's problems that did not stop it loading, such as
// an unset ${VAR}; they name variables, never values.
func (l *localFiles) warnings() []string {
	if l.config == nil {
		return nil
	}
	return l.config.Warnings
}

func (l *localFiles) close() {
	if l.store != nil {
		l.store.Close()
	}
}

// serverStatuses joins the configured servers with the stored ones, by name.
func (l *localFiles) serverStatuses(ctx context.Context) ([]serverStatus, error) {
	byName := make(map[string]*serverStatus)
	var names []string
	get := func(name string) *serverStatus {
		if s, ok := byName[name]; ok {
			return s
		}
		s := &serverStatus{Name: name, State: stateNotInConfig}
		byName[name] = s
		names = append(names, name)
		return s
	}
	if l.config != nil {
		for name, sc := range l.config.Servers {
			s := get(name)
			s.State, s.Transport = stateConfigured, sc.Type
		}
	}
	if l.store != nil {
		stored, err := l.store.Servers(ctx)
		if err != nil {
			return nil, err
		}
		for _, row := range stored {
			s := get(row.Name)
			if s.State == stateConfigured && row.State != "" {
				s.State = row.State
			}
			s.Tools, s.Refused, s.Bytes, s.LastError = row.Tools, row.Refused, row.Bytes, row.LastError
			if !row.LastListed.IsZero() {
				listed := row.LastListed
				s.LastListed = &listed
			}
			if row.Refused > 0 {
				if s.RefusedTools, err = refusedTools(ctx, l.store, row.Name); err != nil {
					return nil, err
				}
			}
			s.Held = row.Held
			if s.HeldTools, s.ChangedTools, s.NewTools, err = pinStatuses(ctx, l.store, row.Name); err != nil {
				return nil, err
			}
		}
		listings, err := l.store.FeatureListings(ctx)
		if err != nil {
			return nil, err
		}
		for _, fl := range listings {
			if fl.Note != "" {
				get(fl.Server).FeaturesNote = fl.Note
			}
		}
	}
	if l.config != nil {
		for name, sc := range l.config.Servers {
			if sc.Disabled {
				byName[name].State = stateDisabled
			}
		}
		for name, bad := range l.config.Invalid {
			s := get(name)
			s.State, s.LastError = stateInvalid, "config entry: "+bad.Reason()
		}
	}
	slices.Sort(names)
	out := make([]serverStatus, 0, len(names))
	for _, n := range names {
		out = append(out, *byName[n])
	}
	return out, nil
}

func refusedTools(ctx context.Context, st *store.Store, server string) ([]refusedTool, error) {
	tools, err := st.Tools(ctx, server)
	if err != nil {
		return nil, err
	}
	var out []refusedTool
	for _, t := range tools {
		if t.Refusal != "" {
			out = append(out, refusedTool{Name: t.Name, Reason: t.Refusal})
		}
	}
	return out, nil
}

// printServers writes the aligned table for people, then the refused tools.
func printServers(w io.Writer, l *localFiles, statuses []serverStatus) {
	fmt.Fprintf(w, "config:  %s%s\ncatalog: %s%s\n\n", l.configPath, absentNote(l.config != nil), l.dbPath, absentNote(l.store != nil))
	if len(statuses) == 0 {
		fmt.Fprintln(w, "No servers yet: 'capbridge import claude' or 'capbridge add NAME -- COMMAND' adds some.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tSTATE\tTRANSPORT\tTOOLS\tREFUSED\tHELD\tCATALOG\tLAST LISTED\tLAST ERROR")
	for _, s := range statuses {
		listed := "never"
		if s.LastListed != nil {
			listed = s.LastListed.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\n", s.Name, s.State, orDash(s.Transport),
			s.Tools, s.Refused, s.Held, formatBytes(s.Bytes), listed, orDash(firstLine(bridge.TellingError(s.Name, s.LastError), maxErrorChars)))
	}
	tw.Flush()
	printSignIns(w, signInStatuses(l, statuses), time.Now())
	if warnings := l.warnings(); len(warnings) > 0 {
		fmt.Fprintln(w, "\nConfig warnings:")
		for _, warning := range warnings {
			fmt.Fprintf(w, "  %s\n", warning)
		}
	}
	for _, s := range statuses {
		if len(s.RefusedTools) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nRefused tools of %s (kept out of discovery; their siblings are served):\n", s.Name)
		for _, t := range s.RefusedTools {
			fmt.Fprintf(w, "  %s: %s\n", t.Name, t.Reason)
		}
	}
	for _, s := range statuses {
		if s.FeaturesNote != "" {
			fmt.Fprintf(w, "\nPrompts and resources of %s left out: %s\n", s.Name, terminalText(s.FeaturesNote))
		}
	}
	printPins(w, statuses)
}

func absentNote(present bool) string {
	if present {
		return ""
	}
	return " (none)"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// maxErrorChars bounds the LAST ERROR column: the last, so a long line
// shifts no other, and wide enough for an npm 404 line with its package.
const maxErrorChars = 160

// firstLine returns the first line of s, cut to n characters.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// formatBytes writes a byte count for people: 980 B, 38.2 KiB, 1.6 MiB.
func formatBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
	}
}
