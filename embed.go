package main

import _ "embed"

// demoTools is testdata/demo/tools.jsonl: the demo catalog, one tool a line
// with a "server" key (helpdesk, calendar, crm, files).
//
//go:embed testdata/demo/tools.jsonl
var demoTools []byte

// demoCatalog returns the built-in demo catalog in the shared JSONL form.
func demoCatalog() []byte { return demoTools }
