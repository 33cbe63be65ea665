// Package upstream keeps capbridge's client sessions to the upstream MCP
// servers of a config: a [Pool] starts each server lazily on first use (a
// child process over stdio, or Streamable HTTP with an SSE fallback), lists
// its whole catalog as the server sent it ([Listing], bounded by
// [CatalogLimits]), calls tools with a timeout (one that must run as a
// task, as a task followed to its result: [Pool.CallTask]), restarts a crashed server
// with backoff, and stops idle ones. Failures of a server come as [*Error],
// scrubbed of the entry's secrets, with a short reason; what a stdio server
// printed on stderr goes to the log, not into the error.
//
// To every server the pool declares roots, elicitation and sampling; what a
// server asks of its client while a call runs, and its progress and log
// messages, go to the [Asker] of that call (see [WithAsker]).
//
// A stdio server starts with the environment the TypeScript MCP SDK's stdio
// client gives: a safe default set of capbridge's variables (HOME, LOGNAME,
// PATH, SHELL, TERM, USER; the Windows equivalents there), the entry's
// inheritEnv names, and its own env. Nothing else of capbridge's
// environment reaches it.
//
// The package knows nothing of the bridge or the store.
package upstream
