package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
)

var scanHelp = commandHelp{
	usage: []string{"scan --catalog F.jsonl [--json]"},
	about: `Runs the poisoning detector over a catalog without storing or serving it:
every tool goes through the same normalization as a real server's, and each
tool whose text speaks to the model (directives to the assistant, requests
for secrets or files, instructions about other tools, hiding things from the
user, in any of eight languages, after Unicode normalization, look-alike
letters, joined spaced-out letters and decoded base64/hex) is printed with
each rule, field and offending text. Refused tools are listed with their
reason. Files ending in .gz are read gzipped.`,
	examples: []string{
		"capbridge scan --catalog testdata/catalogs/laptop.jsonl.gz",
		"capbridge scan --catalog testdata/poison/corpus.jsonl --json",
	},
}

func runScan(ctx context.Context, e env) error {
	fs := newFlagSet("scan", e)
	catalog := fs.String("catalog", "", "catalog `file` (JSONL: one tool a line with its server)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	args, done, err := parseFlags(fs, e, scanHelp)
	if done {
		return err
	}
	switch {
	case len(args) > 0:
		return &usageError{msg: fmt.Sprintf("scan: unexpected argument %q", args[0])}
	case *catalog == "":
		return &usageError{msg: "scan: --catalog is required"}
	}
	f, err := search.OpenFile(*catalog)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	defer f.Close()
	rep, err := schema.ScanCatalog(f)
	if err != nil {
		return fmt.Errorf("scan %s: %w", *catalog, err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	}
	return rep.WriteText(e.stdout)
}
