// Package cli is capbridge's command line: one file per command, each with
// its own [flag.FlagSet] parsed the same way, and the help, progress output
// and HTML stats page beside them. [Run] dispatches a command line; the
// command's error tells main the exit code ([ExitCode]).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
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
		{name: "servers", brief: "server states, tool counts, bytes, refused and held tools", run: runServers},
		{name: "approve", brief: "release held tools: pin the definitions listed now", run: runApprove},
		{name: "stats", brief: "context saved: direct registration vs the bridge", run: runStats},
		{name: "eval", brief: "measure discovery on a catalog and queries", run: runEval},
		{name: "scan", brief: "flag tool text that reads like an attack on the model", run: runScan},
		{name: "import", brief: "merge an existing mcpServers config", run: runImport},
		{name: "add", brief: "add a server to the config", run: runAdd},
		{name: "remove", brief: "remove a server from the config", run: runRemove},
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
