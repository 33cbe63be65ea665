package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

func runHelp(ctx context.Context, e env) error {
	if len(e.args) > 0 {
		name := e.args[0]
		for _, c := range commands() {
			if c.name == name {
				return c.run(ctx, env{args: []string{"-h"}, stdin: e.stdin, stdout: e.stdout, stderr: e.stderr})
			}
		}
		return &usageError{msg: fmt.Sprintf("no help for %q%s; run 'capbridge help'", name, suggest(name, commandNames()))}
	}
	w := e.stdout
	fmt.Fprint(w, `capbridge: one MCP server in front of many. A model sees two tools,
discover_capability and run_capability, instead of every tool of every server;
the exact definitions stay in a local SQLite catalog.

Usage: capbridge [command] [flags]   (no command: serve)

Commands:
`)
	for _, c := range commands() {
		if !c.hidden {
			fmt.Fprintf(w, "  %-8s %s\n", c.name, c.brief)
		}
	}
	fmt.Fprintf(w, `  %-8s %s

Getting started:
  capbridge import claude          bring the servers Claude Desktop runs
  capbridge add files -- npx -y @modelcontextprotocol/server-filesystem ~/notes
  capbridge index                  list and store every server's tools
  capbridge stats                  what the bridge saves in context

Files and environment:
  config    --config FILE, else $CAPBRIDGE_CONFIG, else $XDG_CONFIG_HOME/capbridge/config.json
  catalog   --db FILE, else $CAPBRIDGE_DB, else $XDG_DATA_HOME/capbridge/catalog.db

Exit codes:
  0  success
  1  failure (the message says what failed and what to do next)
  2  usage error: unknown command or flag, missing argument

Run 'capbridge help COMMAND' or 'capbridge COMMAND -h' for a command's flags and examples.
`, "help", "this text; 'help COMMAND' for one command")
	return nil
}

// commandHelp is what `capbridge COMMAND -h` prints around the flags.
type commandHelp struct {
	usage    []string // one line each, without "capbridge "
	about    string   // what the command does, in a few lines
	examples []string
	tip      string // printed after a flag mistake, e.g. how to pass a command line
}

// printHelp writes a command's usage, description, flags and examples.
func printHelp(w io.Writer, fs *flag.FlagSet, h commandHelp) {
	fmt.Fprintln(w, "Usage:")
	for _, u := range h.usage {
		fmt.Fprintf(w, "  capbridge %s\n", u)
	}
	fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(h.about))
	lines := [][2]string{}
	width := len("-h, --help")
	spellings := map[string][]string{} // a flag's name: its other spellings
	fs.VisitAll(func(f *flag.Flag) {
		if a, ok := f.Value.(aliasValue); ok {
			spellings[a.of] = append(spellings[a.of], f.Name)
		}
	})
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(aliasValue); ok {
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		names := append([]string{f.Name}, spellings[f.Name]...)
		slices.SortFunc(names, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
		for i, n := range names {
			names[i] = flagName(n)
		}
		left := strings.Join(names, ", ")
		if arg != "" {
			left += " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		lines = append(lines, [2]string{left, usage})
		width = max(width, len(left))
	})
	lines = append(lines, [2]string{"-h, --help", "print this help"})
	fmt.Fprintln(w, "\nFlags:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
	}
	if len(h.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, ex := range h.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
}

// suggest returns ` (did you mean "x"?)` for the nearest of names, or "".
func suggest(s string, names []string) string {
	best := nearest(s, names)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// nearest returns the one of names within two edits of s that is nearest
// it, or "".
func nearest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(s, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// neighbouring letters that turn a into b (optimal string alignment), so that
// "servres" is nearer "servers" than "serve".
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
