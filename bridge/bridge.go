// Package bridge is the MCP server that shows a model two operations,
// discover_capability and run_capability, and the upstream client sessions
// (lazy start, reconnect, timeouts), action handles and config loading behind
// them.
package bridge
