// Command capbridge is one MCP server that stands in for many: it keeps the
// exact tool catalogs of a developer's MCP servers in SQLite and shows a
// model two tools, discover_capability and run_capability.
//
// Usage:
//
//	capbridge [command] [flags]
//
// Run `capbridge help` for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/capbridge/capbridge/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(cli.ExitCode(err, os.Stderr))
}
