// Package upstream keeps capbridge's client sessions to the upstream MCP
// servers of a config: a [Pool] starts each server lazily on first use (a
// child process over stdio, or Streamable HTTP with an SSE fallback), lists
// its whole catalog as the server sent it ([Listing], bounded by
// [CatalogLimits]), calls tools with a timeout, restarts a crashed server
// with backoff, and stops idle ones. Failures of a server come as [*Error],
// scrubbed of the entry's secrets.
//
// The package knows nothing of the bridge or the store.
package upstream
