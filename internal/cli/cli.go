// Package cli is capbridge's command line: one file per command, each with
// its own [flag.FlagSet] parsed the same way, and the help, progress output
// and HTML stats page beside them. [Run] dispatches a command line; the
// command's error tells main the exit code ([ExitCode]).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks a mistake in the command line (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// ExitCode reports err on stderr and returns the process's exit code: 0
// for nil, 2 for a mistake in the command line, 1 for any other failure.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "capbridge:", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

// env is what every subcommand gets: its arguments and the process's streams.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand; each lives in its own NAME.go file.
type command struct {
	name   string
	brief  string
	hidden bool
	run    func(ctx context.Context, e env) error
}

func commands() []command {
	return []command{
		{name: "serve", brief: "serve MCP over stdio (the default command)", run: runServe},
		{name: "index", brief: "connect to servers, list their tools, store them", run: runIndex},
		{name: "search", brief: "show the cards a model would get for an intent", run: runSearch},
		{name: "call", brief: "run one tool as the bridge runs it for a model", run: runCall},
		{name: "servers", brief: "server states, tool counts, bytes, refused and held tools", run: runServers},
		{name: "approve", brief: "release held tools: pin the definitions listed now", run: runApprove},
		{name: "stats", brief: "context saved: direct registration vs the bridge", run: runStats},
		{name: "eval", brief: "measure discovery on a catalog and queries", run: runEval},
		{name: "scan", brief: "flag tool text that reads like an attack on the model", run: runScan},
		{name: "import", brief: "merge an existing mcpServers config", run: runImport},
		{name: "add", brief: "add a server to the config", run: runAdd},
		{name: "remove", brief: "remove a server from the config", run: runRemove},
		{name: "login", brief: "sign in to a remote server that asks for OAuth", run: runLogin},
		{name: "logout", brief: "forget a remote server's sign-in", run: runLogout},
		{name: "secret", brief: "keep API keys in the keychain: set, list, rm", run: runSecret},
		{name: "forget", brief: "forget which tools discovery learned from use", run: runForget},
		{name: "demo", brief: "the whole flow on the built-in demo catalog", run: runDemo},
		{name: "bench", brief: "the standing benchmark: latency, start-up, memory", run: runBench},
		{name: "version", brief: "print the version and module versions", run: runVersion},
		{name: "demo-server", brief: "run the demo MCP server over stdio", hidden: true, run: runDemoServer},
	}
}

// Run runs the command line args (without the program name); no command
// means serve.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	name := "serve"
	switch {
	case len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		name, args = "help", args[1:]
	case len(args) > 0 && (args[0] == "-version" || args[0] == "--version"):
		name, args = "version", args[1:]
	case len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-':
		name, args = args[0], args[1:]
	}
	if name == "help" {
		return runHelp(ctx, env{args: args, stdin: stdin, stdout: stdout, stderr: stderr})
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, env{args: args, stdin: stdin, stdout: stdout, stderr: stderr})
		}
	}
	return &usageError{msg: fmt.Sprintf("unknown command %q%s; run 'capbridge help'", name, suggest(name, commandNames()))}
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		if !c.hidden {
			names = append(names, c.name)
		}
	}
	return append(names, "help")
}

// Flags. Every command parses its own [flag.FlagSet] with parseFlags, so a
// flag reads the same everywhere: one-letter flags are written -v and the
// others --name (both forms are accepted, as the flag package accepts
// them), in help and in every message; a mistake is one line that shows
// the flag as it was typed and the nearest real one.

// newFlagSet returns the flag set of one subcommand. Parse it with
// parseFlags, which prints help on -h and turns mistakes into usage errors.
func newFlagSet(name string, e env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// parseFlags explains mistakes itself, in one line: the flag package's
	// own report ("flag provided but not defined") must not print first.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// configFlag and dbFlag define the file flags every command that reads
// the catalog shares.
func configFlag(fs *flag.FlagSet) *string {
	return fs.String("config", "", "use the config in `FILE` (default $CAPBRIDGE_CONFIG, else $XDG_CONFIG_HOME/capbridge/config.json)")
}

func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "use the catalog database in `FILE` (default $CAPBRIDGE_DB, else $XDG_DATA_HOME/capbridge/catalog.db)")
}

// alias makes name another spelling of the flag of, defined before: both
// set the same value, and help lists them on one line ("-v, --verbose").
func alias(fs *flag.FlagSet, name, of string) {
	f := fs.Lookup(of)
	if f == nil {
		panic("cli: alias " + name + " of undefined flag " + of)
	}
	fs.Var(aliasValue{Value: f.Value, of: of}, name, "")
}

// aliasValue is the value of a flag that is another spelling of flag of.
type aliasValue struct {
	flag.Value
	of string
}

// IsBoolFlag lets an alias of a boolean flag go without a value, as the
// flag itself does.
func (a aliasValue) IsBoolFlag() bool {
	b, ok := a.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagName writes a flag's name as help and messages show it.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// parseFlags parses e.args with flags and positional arguments in any
// order (everything after "--" is positional) and returns the positional
// ones. With done set the command should return err at once: -h printed the
// help (err is nil), or the command line was wrong (a *usageError).
func parseFlags(fs *flag.FlagSet, e env, h commandHelp) (args []string, done bool, err error) {
	rest := e.args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(e.stdout, fs, h)
				return nil, true, nil
			}
			return nil, true, flagMistake(fs, e.args, h, err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			return args, false, nil
		}
		if len(e.args) > len(rest) && e.args[len(e.args)-len(rest)-1] == "--" {
			return append(args, rest...), false, nil
		}
		args, rest = append(args, rest[0]), rest[1:]
	}
}

// The flag package's reports of a mistake, which flagMistake rewrites.
var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -(.*)$`)
	valuelessFlag = regexp.MustCompile(`^flag needs an argument: -(.*)$`)
	badFlagValue  = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-([^:]*): (.*)$`)
)

// flagMistake explains a bad flag in one line: the flag as it was typed
// in args, the nearest real one, and where to look.
func flagMistake(fs *flag.FlagSet, args []string, h commandHelp, err error) error {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		msg = "unknown flag " + typedFlag(args, m[1]) + suggestFlag(fs, m[1])
	} else if m := valuelessFlag.FindStringSubmatch(msg); m != nil {
		msg = typedFlag(args, m[1]) + " needs a value"
	} else if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("invalid value %s for %s: %s", m[1], typedFlag(args, m[2]), m[3])
	}
	msg = fs.Name() + ": " + msg
	if h.tip != "" {
		msg += "; " + h.tip
	}
	return &usageError{msg: fmt.Sprintf("%s; run 'capbridge %s -h' for every flag", msg, fs.Name())}
}

// typedFlag returns flag name as args spell it ("-dbb", "--dbb"), or as
// help writes it when args do not have it.
func typedFlag(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		bare := strings.TrimLeft(a, "-")
		if bare, _, _ = strings.Cut(bare, "="); bare == name && bare != a {
			return a[:len(a)-len(strings.TrimLeft(a, "-"))] + name
		}
	}
	return flagName(name)
}

// suggestFlag returns ` (did you mean "--db"?)` for the defined flag
// nearest name, or "".
func suggestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	best := nearest(name, names)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", flagName(best))
}
