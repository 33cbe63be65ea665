// Package config owns capbridge's config file: the mcpServers map that
// Claude Desktop, Cursor and VS Code use, plus the bridge's own settings.
//
// [Load] and [Parse] read it into a [File] of [Server] entries with every
// ${VAR} expanded (secret values are kept private to the entry: use
// [Server.Redact] on any text built from a server's output); [Watch]
// follows the file; [Lock] serializes edits between processes. [Doc] edits
// a file at the JSON level, keeping unknown keys and order, for `capbridge
// import`, `add` and `remove`; [ClientSources] and [ReadClientSource] read
// the configs of Claude Desktop, Claude Code, Cursor and VS Code. [Path] and
// [DBPath] resolve the default file locations (XDG).
//
// The package knows nothing of the bridge, the store or MCP sessions.
package config
