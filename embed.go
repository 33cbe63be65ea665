package main

import (
	"bytes"
	_ "embed"
)

// demoTools is the demo catalog, one tool a line with a "server" key
// (helpdesk, calendar, crm, files).
//
//go:embed testdata/demo/tools.jsonl
var demoTools []byte

// stressTool is the deliberately oversized tool of the design (300
// parameters, names that need aliases, prompt-injection lures), one JSON
// object without a "server" key.
//
//go:embed testdata/stress/tool.json
var stressTool []byte

// demoCatalog returns the built-in demo catalog in the shared JSONL form:
// the demo tools, then the stress tool as server "stress".
func demoCatalog() []byte {
	var b bytes.Buffer
	b.Write(demoTools)
	if stress := bytes.TrimSpace(stressTool); len(stress) > 2 && stress[0] == '{' {
		b.WriteString(`{"server":"stress",`)
		b.Write(stress[1:])
		b.WriteByte('\n')
	}
	return b.Bytes()
}
