// Package demo is a real MCP server over stdio that capbridge's own binary
// runs as a hidden subcommand: the built-in demo catalog for `capbridge demo`,
// a replay of any catalog file, and fault modes for tests. It is a package of
// its own because it is an upstream server, not part of the bridge.
package demo
