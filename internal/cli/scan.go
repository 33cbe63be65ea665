package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
)

var scanHelp = commandHelp{
	usage: []string{"scan [--catalog F.jsonl]... [--json]"},
	about: `Runs the poisoning detector over a catalog without storing or serving it:
every tool goes through the same normalization as a real server's, and each
tool whose text speaks to the model (directives to the assistant, requests
for secrets or files, instructions about other tools, hiding things from the
user, in many languages, after Unicode normalization, look-alike letters,
joined spaced-out letters and decoded base64/hex) is printed with each rule,
field and offending text. Each server's tools are read knowing the tool and
server names of the others. Refused tools are listed with their reason, and
the tools whose card leaves out text that addressed the model with that
text. Files ending in .gz are read gzipped; several --catalog files are read
as one catalog.

A catalog whose lines carry corpus labels (technique, field, lang, lure: see
testdata/poison/README.md) also gets its labelled figures: the share of
poisoned tools held, the share that put a lure on a card, and the share of
benign tools held or trimmed, per technique. The detector lowers the risk;
it cannot prove text harmless.`,
	examples: []string{
		"capbridge scan --catalog testdata/catalogs/laptop.jsonl.gz",
		"capbridge scan --catalog testdata/poison/holdout2.jsonl --catalog testdata/poison/holdout2_benign.jsonl",
		"capbridge scan --catalog testdata/poison/corpus.jsonl --json",
	},
}

// fileList is a flag that may be given more than once.
type fileList []string

func (l *fileList) String() string { return strings.Join(*l, ",") }

func (l *fileList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func runScan(ctx context.Context, e env) error {
	fs := newFlagSet("scan", e)
	var catalogs fileList
	fs.Var(&catalogs, "catalog", "catalog `file` (JSONL: one tool a line with its server); repeat to read several as one")
	asJSON := fs.Bool("json", false, "print one JSON object")
	args, done, err := parseFlags(fs, e, scanHelp)
	if done {
		return err
	}
	switch {
	case len(args) > 0:
		return &usageError{msg: fmt.Sprintf("scan: unexpected argument %q", args[0])}
	case len(catalogs) == 0:
		return &usageError{msg: "scan: --catalog is required"}
	}
	var readers []io.Reader
	for _, path := range catalogs {
		f, err := search.OpenFile(path)
		if err != nil {
			return fmt.Errorf("scan: %w", err)
		}
		defer f.Close()
		readers = append(readers, f)
	}
	rep, err := schema.ScanCatalog(io.MultiReader(readers...))
	if err != nil {
		return fmt.Errorf("scan %s: %w", catalogs.String(), err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	}
	return rep.WriteText(e.stdout)
}
