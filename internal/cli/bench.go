package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/capbridge/capbridge/internal/bench"
)

var benchHelp = commandHelp{
	usage: []string{"bench [--quick] [--json] [--catalog F.jsonl]... [--queries F.jsonl]... [--laptop F.jsonl]", "bench --soak DURATION"},
	about: `Measures capbridge on this machine and prints one table: discovery p50/p95
at 100, 1,000 and 5,000 tools with and without vectors (toy 384-dimension
embeddings served over HTTP on loopback: the real client and vec0 path, not
a model's latency), serve start to first answer with 20 stored servers, run
overhead against a direct call, shaping a 500-record result, indexing and
refreshing 5,000 tools, a recorded catalog replayed by one process per
server, and peak RSS. serve, index and the upstream demo servers run as real
child processes of this binary. Timings on a loaded machine are noisy: the
table prints the load average before and after.

--soak runs mixed discover/run traffic for DURATION through a bridge in this
process, with upstream servers that crash at random, and prints RSS, the
memory the Go runtime holds, the heap and its goal, goroutines, open files,
child processes, the tools numbered for action ids and the kept pages every
30 s, then a verdict: flat, or growing when the trend of the heap, RSS or
either part of RSS over the second half of the run exceeds its slack.`,
	examples: []string{
		"capbridge bench",
		"capbridge bench --quick --json",
		"capbridge bench --catalog testdata/catalogs/laptop.jsonl.gz --queries testdata/bench/retrieval_bfcl/queries.jsonl.gz",
		"capbridge bench --soak 10m",
	},
}

func runBench(ctx context.Context, e env) error {
	fs := newFlagSet("bench", e)
	var o bench.Options
	var asJSON bool
	var soak time.Duration
	fs.BoolVar(&o.Quick, "quick", false, "fewer repetitions of each measure (about a minute in all)")
	fs.BoolVar(&asJSON, "json", false, "print the table as one JSON object")
	fs.DurationVar(&soak, "soak", 0, "run the soak for `DURATION` (e.g. 10m) instead of the table")
	fs.Func("catalog", "search the tools of `FILE` (JSONL with a \"server\" key; repeatable; default: built-in demo + synthetic tools)", func(s string) error {
		o.Catalogs = append(o.Catalogs, s)
		return nil
	})
	fs.Func("queries", "take discovery intents from `FILE` (queries.jsonl; repeatable; default: built-in intents)", func(s string) error {
		o.Queries = append(o.Queries, s)
		return nil
	})
	fs.StringVar(&o.Laptop, "laptop", bench.LaptopCatalog, "replay and index the catalog `FILE`, one process per server (skipped when absent)")
	args, done, err := parseFlags(fs, e, benchHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("bench takes no arguments, got %q; run 'capbridge bench -h'", args)}
	}
	if soak < 0 {
		return &usageError{msg: "--soak needs a positive duration, as in --soak 10m"}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: finding this binary to run as serve and index: %w", err)
	}
	if soak > 0 {
		return bench.Soak(ctx, exe, soak, e.stdout)
	}
	o.Exe = exe
	t, err := bench.Run(ctx, o, e.stderr)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	t.Print(e.stdout)
	return nil
}
