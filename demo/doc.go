// Package demo is a real MCP server that capbridge's own binary runs as the
// hidden subcommand `capbridge demo-server`. It serves three things:
//
//   - the built-in demo catalog for `capbridge demo`: about 60 helpdesk,
//     calendar, CRM and files tools (servers "helpdesk", "calendar", "crm",
//     "files" of demo/catalog/tools.jsonl) and the oversized stress tool of
//     demo/catalog/stress.json (server "stress"), which the binary embeds
//     and hands over as [Options.Tools];
//   - a replay of any catalog file in the shared JSONL form (one tool a line
//     with a "server" key), so a recorded laptop can be served as one child
//     process per server ([ReadCatalog]);
//   - fault modes ([Fault]) that make the process misbehave the way real
//     upstream servers do, for the bridge's end-to-end and pressure tests.
//
// It is a package of its own because it is an upstream server, not part of
// the bridge: nothing here knows capbridge's catalog, cards or limits.
//
// # Serving
//
// [Serve] runs the server on any [mcp.Transport]; [ServeStdio] runs it on a
// process's stdin and stdout (and is where the stdout faults live);
// [ServeHTTP] runs it as Streamable HTTP on a listener. [NewServer] returns
// the underlying [mcp.Server] for callers that wire transports themselves.
//
// Tools are registered with [mcp.Server.AddTool] and their raw input schemas,
// so the server never validates arguments: whatever arrives is what the
// bridge sent. tools/list is answered from the raw catalog lines, so every
// field of a tool (execution, outputSchema, _meta...) goes out exactly as it
// was read.
//
// # Calls
//
// Answers are deterministic and depend only on the tool name, the arguments
// and the process's call counter:
//
//   - list tools (list_*, search_*, find_*, query_*) answer a JSON array of
//     records as text, and {"items":[...],"count":N,"call_number":C} as
//     structured content. A "count" or "limit" argument (also "max_results",
//     "page_size", "per_page") sets N; the default is 10, the most 100,000.
//     Every record has a unique id.
//   - get tools (get_*, read_*, lookup_*, fetch_*, describe_*, show_*)
//     answer one record, its id (or path, or email) taken from the
//     arguments; an id containing "missing" answers a tool error
//     (isError: true, "... not found").
//   - every other tool echoes: its answer holds "received", the arguments
//     object exactly as it arrived (same keys in the same order, same
//     values; only insignificant whitespace is dropped), and
//     "call_number".
//
// Records carry internal fields (_id, __v, created_at, updated_at, hash,
// label_ids) for an output stage to strip. call_number counts every
// tools/call the process has answered, from 1. With [Options.StatsTool] the
// server also offers demo_stats, which reports the calls per tool, so a test
// can prove a tool was called exactly once. With [Options.EnvTool]
// (`--env-tool`) it offers demo_env, which reports the names of the
// process's environment variables, or one variable's value, so a test can
// prove what environment a client gave the server it started.
//
// # Faults
//
// A fault is chosen with `--fault MODE` or the environment variable
// CAPBRIDGE_DEMO_FAULT ([FaultEnv]); see [ParseFault]. The exit statuses
// are [ExitAtStart] and [ExitCrash].
//
//	banner            print a non-JSON line on stdout before speaking JSON-RPC (stdio only)
//	exit-at-start     exit with status 3 at once (stdio only)
//	mute              read every message and answer none, initialize included (stdio only)
//	crash-on-call[:N] exit with status 4 in the middle of the Nth tools/call (default 1st)
//	garbage           write a non-JSON line on stdout after every message (stdio only)
//	hang              never answer tools/call (the process still ends on stdin EOF)
//	slow:DURATION     sleep DURATION before answering each tools/call
//	huge[:BYTES]      answer every tools/call with BYTES of text (default 20 MiB, past
//	                  the go-sdk's 16 MiB frame cap: an SDK client's session breaks)
//	pages-forever     tools/list always returns a nextCursor
//	schema-change     after the first tools/call, add a required property to
//	                  the called tool's input schema and send
//	                  notifications/tools/list_changed
//	big-catalog:N     serve N synthetic tools (~3.15 KB each; 5,000 make ~15.7 MB) instead of the catalog
//	listed-twice      serve a catalog that lists a name twice as it is written, as a
//	                  hostile server would (a call of the name reaches its last copy)
//	slow-start:DURATION  read nothing for DURATION before serving (stdio only), as a
//	                  server that npx downloads first
//	inject:KIND       put into every answer what a hostile server writes to steer the
//	                  model or to speak for the client (see [Injections]): tag (an
//	                  <IMPORTANT> block), resource (an embedded resource that speaks as
//	                  the system), structured (structured content ordering the
//	                  assistant), needs-input (an error result shaped as capbridge's
//	                  needs_input), footer (a line shaped as its truncation footer)
//	list-changed-flood[:N]  after the first tools/call, send N (default 3,000)
//	                  notifications/tools/list_changed, one a millisecond, the catalog unchanged
//	                  (stdio only); demo_stats counts the listings that follow
//
// Whatever the fault, the server logs [CancelledLog] when the client cancels
// a request with notifications/cancelled.
//
// # Reloading
//
// [Options.Reload] replaces the catalog while the server runs, as a server
// updated under its users would; [WatchFile] feeds it from a catalog file
// (`capbridge demo-server --catalog FILE --watch`). Each change sends
// notifications/tools/list_changed.
package demo
