package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
)

var scanHelp = commandHelp{
	usage: []string{
		"scan [--config FILE] [--db FILE] [--json]",
		"scan --catalog F.jsonl [--catalog F2.jsonl]... [--json]",
	},
	about: `Runs the poisoning detector over a catalog without storing or serving it:
every tool goes through the same normalization as a real server's, and each
tool whose text speaks to the model (directives to the assistant, requests
for secrets or files, instructions about other tools, hiding things from the
user or misleading them, acting without their say, in many languages, after
Unicode normalization, look-alike letters, joined spaced-out letters, and
decoded base64, hex, rot13, percent-encoding and reversed text) is printed
with each rule, field and offending text. Each server's tools are read
knowing the tool and server names of the others. Refused tools are listed
with their reason, and the tools whose card leaves out text that addressed
the model with that text.

Without --catalog it scans the catalog stored for the configured servers
(the records 'capbridge index' stored), with the current detector. With
--catalog it reads JSONL files (one tool a line with its server; .gz read
gzipped), several as one catalog.

A catalog whose lines carry corpus labels (technique, field, lang, lure: see
testdata/poison/README.md) also gets its labelled figures: the share of
poisoned tools held, the share that put a lure on a card, and the share of
benign tools held or trimmed, per technique. The detector lowers the risk;
it cannot prove text harmless.`,
	examples: []string{
		"capbridge scan",
		"capbridge scan --catalog testdata/catalogs/laptop.jsonl.gz",
		"capbridge scan --catalog testdata/poison/holdout2.jsonl --catalog testdata/poison/holdout2_benign.jsonl",
	},
}

func runScan(ctx context.Context, e env) error {
	fs := newFlagSet("scan", e)
	var catalogs fileList
	fs.Var(&catalogs, "catalog", "catalog `file` (JSONL: one tool a line with its server); repeat to read several as one")
	configPath, dbPath := configFlag(fs), dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	args, done, err := parseFlags(fs, e, scanHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("scan: unexpected argument %q", args[0])}
	}
	var rep schema.Report
	if len(catalogs) == 0 {
		rep, err = scanStored(ctx, *configPath, *dbPath)
	} else {
		rep, err = scanFiles(catalogs)
	}
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	}
	return rep.WriteText(e.stdout)
}

// scanFiles scans catalog files as one catalog.
func scanFiles(paths []string) (schema.Report, error) {
	var readers []io.Reader
	for _, path := range paths {
		f, err := search.OpenFile(path)
		if err != nil {
			return schema.Report{}, err
		}
		defer f.Close()
		readers = append(readers, f)
	}
	rep, err := schema.ScanCatalog(io.MultiReader(readers...))
	if err != nil {
		return rep, fmt.Errorf("reading %s: %w", strings.Join(paths, ", "), err)
	}
	return rep, nil
}

// errNothingStored: the catalog holds none of the configured servers.
var errNothingStored = errors.New("no stored catalog to scan; run 'capbridge index' first, or pass --catalog FILE")

// scanStored scans the records stored for the configured, enabled servers
// (every stored server when there is no config), as their servers listed
// them; the tools refused at indexing are reported with their stored
// reason.
func scanStored(ctx context.Context, configPath, dbPath string) (schema.Report, error) {
	local, err := openLocal(ctx, configPath, dbPath)
	if err != nil {
		return schema.Report{}, err
	}
	defer local.close()
	if local.store == nil {
		return schema.Report{}, errNothingStored
	}
	stored, err := local.store.Servers(ctx)
	if err != nil {
		return schema.Report{}, err
	}
	var names []string
	for _, s := range stored {
		if local.config == nil || slices.Contains(local.config.Enabled(), s.Name) {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return schema.Report{}, errNothingStored
	}
	var listings []schema.Listing
	var refused []schema.ScanRefusal
	for _, name := range names {
		tools, err := local.store.Tools(ctx, name)
		if err != nil {
			return schema.Report{}, err
		}
		l := schema.Listing{Server: name}
		for _, t := range tools {
			if t.Refusal != "" {
				refused = append(refused, schema.ScanRefusal{Server: name, Refusal: schema.Refusal{Tool: t.Name, Reason: t.Refusal}})
				continue
			}
			rec, err := schema.DecodeRecord(t.Record)
			if err != nil {
				return schema.Report{}, fmt.Errorf("reading stored %s/%s: %w", name, t.Name, err)
			}
			l.Tools = append(l.Tools, rec.Raw)
		}
		listings = append(listings, l)
	}
	rep := schema.ScanListings(listings)
	rep.Tools += len(refused)
	rep.Refused = append(rep.Refused, refused...)
	return rep, nil
}
