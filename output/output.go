// Package output shapes a tool result before a model reads it: field
// projection, internal-field stripping, compact Markdown or JSON, and a token
// ceiling with cursor pages. It does not know which server a result came from.
package output
