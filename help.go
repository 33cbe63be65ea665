package main

import (
	"context"
	"fmt"
)

func runHelp(ctx context.Context, e env) error {
	if len(e.args) > 0 {
		return run(ctx, []string{e.args[0], "-h"}, e.stdin, e.stdout, e.stderr)
	}
	fmt.Fprintln(e.stdout, "capbridge: one MCP server in front of many; the model sees two tools.")
	fmt.Fprintln(e.stdout, "\nUsage: capbridge <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		if !c.hidden {
			fmt.Fprintf(e.stdout, "  %-8s %s\n", c.name, c.brief)
		}
	}
	fmt.Fprintln(e.stdout, "\nRun 'capbridge <command> -h' for a command's flags.")
	fmt.Fprintln(e.stdout, "Exit codes: 0 ok, 1 failure, 2 usage error.")
	return nil
}

// suggest returns ` (did you mean "x"?)` for the nearest of names, or "".
func suggest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(s, n); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
