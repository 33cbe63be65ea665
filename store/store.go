// Package store keeps the capbridge catalog in one SQLite file: servers,
// exact tool records and cards, the full-text and trigram search tables kept
// in step with them, optional sqlite-vec embeddings, and call telemetry.
//
// The store knows nothing of MCP or JSON Schema rules: records and cards are
// opaque bytes to it, and search text arrives already prepared as a [Doc].
package store
