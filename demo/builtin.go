package demo

import (
	"bytes"
	_ "embed"
)

// builtinTools is the demo catalog, one tool a line with a "server" key
// (helpdesk, calendar, crm, files).
//
//go:embed catalog/tools.jsonl
var builtinTools []byte

// stressTool is the deliberately oversized tool of the design (300
// parameters, names that need aliases, prompt-injection lures), one JSON
// object without a "server" key. testdata/stress writes it.
//
//go:embed catalog/stress.json
var stressTool []byte

// BuiltinCatalog returns the built-in demo catalog in the shared JSONL form
// that [ReadCatalog] reads: the demo tools, then the stress tool as server
// "stress". The caller owns the returned slice.
func BuiltinCatalog() []byte {
	var b bytes.Buffer
	b.Write(builtinTools)
	if stress := bytes.TrimSpace(stressTool); len(stress) > 2 && stress[0] == '{' {
		b.WriteString(`{"server":"stress",`)
		b.Write(stress[1:])
		b.WriteByte('\n')
	}
	return b.Bytes()
}
