package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/search"
)

var demoServerHelp = commandHelp{
	usage: []string{"demo-server [--catalog F.jsonl --server NAME] [--features F.json] [--fault MODE] [--http ADDR] [--page-size N] [-v]"},
	about: `Runs an MCP server over stdio (or Streamable HTTP with --http) that serves the
built-in demo catalog, or replays one server of a catalog file, answering
every call deterministically. capbridge demo and the tests start it as an
upstream server.

Fault modes (--fault MODE, or the environment variable CAPBRIDGE_DEMO_FAULT):
  banner            print a non-JSON line on stdout before speaking JSON-RPC
  exit-at-start     exit with status 3 at once
  mute              read every message and answer none, initialize included
  crash-on-call[:N] exit with status 4 in the middle of the Nth tools/call (default 1)
  garbage           write a non-JSON line on stdout after every message
  hang              never answer tools/call
  slow:DURATION     sleep DURATION (e.g. 500ms) before answering each tools/call
  huge[:BYTES]      answer every tools/call with ~BYTES of text (default 20 MiB)
  pages-forever     tools/list always returns a nextCursor
  schema-change     after the first tools/call, that tool's input schema gains a
                    required input and notifications/tools/list_changed is sent
  big-catalog:N     serve N synthetic tools (~3.15 KB each) instead of the catalog
  listed-twice      serve a catalog that lists a name twice as it is written
  list-changed-flood[:N]  after the first tools/call, send N (default 3000)
                    notifications/tools/list_changed, one a millisecond (stdio only)
  slow-start:DURATION  read nothing for DURATION before serving
  inject:KIND       put a hostile payload into every answer: tag, resource,
                    structured, needs-input or footer
banner, garbage, exit-at-start, mute and slow-start apply to stdio only.`,
	examples: []string{
		"capbridge demo-server",
		"capbridge demo-server --server helpdesk",
		"capbridge demo-server --catalog testdata/catalogs/laptop.jsonl.gz --server notion",
		"capbridge demo-server --fault crash-on-call:2",
		"capbridge demo-server --http 127.0.0.1:8931",
	},
}

func runDemoServer(ctx context.Context, e env) error {
	fs := newFlagSet("demo-server", e)
	var (
		catalog  = fs.String("catalog", "", "replay the tools of `FILE` (JSONL, one tool a line with a \"server\" key) instead of the demo catalog")
		server   = fs.String("server", "", "serve only the tools of server `NAME` (required with --catalog; demo servers: helpdesk, calendar, crm, files, stress)")
		fault    = fs.String("fault", os.Getenv(demo.FaultEnv), "misbehave as `MODE` (see above; default $"+demo.FaultEnv+")")
		httpAddr = fs.String("http", "", "serve Streamable HTTP on `ADDR` (e.g. 127.0.0.1:8931; port 0 picks one) instead of stdio")
		pageSize = fs.Int("page-size", demo.DefaultPageSize, "`N` tools per tools/list page")
		verbose  = fs.Bool("verbose", false, "log every call on stderr")
		watch    = fs.Bool("watch", false, "with --catalog: serve the file again whenever it changes, notifying tools/list_changed")
		envTool  = fs.Bool("env-tool", false, "also serve demo_env, which reports the server's environment variable names or one variable's value")
		features = fs.String("features", "", "also serve the prompts, resources and templates of `FILE` (JSON), again whenever it changes")
	)
	alias(fs, "v", "verbose")
	// Its stdout is the MCP stream, so even its help goes to stderr.
	args, done, err := parseFlags(fs, env{args: e.args, stdout: e.stderr, stderr: e.stderr}, demoServerHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("demo-server takes no arguments (got %q)", args)}
	}
	if *catalog != "" && *server == "" {
		return &usageError{msg: "--catalog needs --server NAME: the server to replay"}
	}
	f, err := demo.ParseFault(*fault)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	tools, err := demoServerTools(*catalog, *server)
	if err != nil {
		return err
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	opts := &demo.Options{
		Tools:     tools,
		Name:      *server,
		Fault:     f,
		StatsTool: *catalog == "",
		EnvTool:   *envTool,
		PageSize:  *pageSize,
		Logger:    slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level})),
	}
	if *features != "" {
		read := func() (*demo.Features, error) {
			data, err := os.ReadFile(*features)
			if err != nil {
				return nil, err
			}
			return demo.ReadFeatures(data)
		}
		if opts.Features, err = read(); err != nil {
			return fmt.Errorf("demo-server: --features: %w", err)
		}
		opts.FeaturesReload = demo.WatchFile(ctx, *features, 100*time.Millisecond, read)
	}
	if *watch && *catalog != "" {
		opts.Reload = demo.WatchFile(ctx, *catalog, 100*time.Millisecond, func() ([]json.RawMessage, error) {
			return demoServerTools(*catalog, *server)
		})
	}
	if *httpAddr == "" {
		return demo.ServeStdio(ctx, io.NopCloser(e.stdin), e.stdout, opts)
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return fmt.Errorf("demo-server: listening on %s: %w", *httpAddr, err)
	}
	fmt.Fprintf(e.stderr, "capbridge demo-server: listening on http://%s\n", ln.Addr())
	return demo.ServeHTTP(ctx, ln, opts)
}

// demoServerTools reads the tools to serve: one server of a catalog file, or
// the built-in demo catalog (all of it, or one of its servers).
func demoServerTools(catalog, server string) ([]json.RawMessage, error) {
	if catalog != "" {
		f, err := search.OpenFile(catalog)
		if err != nil {
			return nil, fmt.Errorf("demo-server: %w", err)
		}
		defer f.Close()
		tools, err := demo.ReadCatalog(f, server)
		if err != nil {
			return nil, fmt.Errorf("demo-server: %s: %w", catalog, err)
		}
		return tools, nil
	}
	tools, err := demo.ReadCatalog(bytes.NewReader(demo.BuiltinCatalog()), server)
	if err != nil {
		return nil, fmt.Errorf("demo-server: built-in catalog: %w", err)
	}
	return tools, nil
}
