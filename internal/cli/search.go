package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// searchHit is one result of `capbridge search --json`.
type searchHit struct {
	Server     string          `json:"server"`
	Name       string          `json:"name"`
	Score      float64         `json:"score"`
	Confidence float64         `json:"confidence"`
	Exact      bool            `json:"exact,omitempty"`
	Legs       []searchLeg     `json:"legs"`
	Card       json.RawMessage `json:"card"`
}

type searchLeg struct {
	Leg   string  `json:"leg"`
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
}

var searchHelp = commandHelp{
	usage: []string{"search [--config F] [--db F] [--limit N] [--json] INTENT"},
	about: `Shows the tools discover_capability would offer for INTENT, with each
search leg's rank and score, from the stored catalog and the config's
scope (allow/deny lists, disabled servers) and embeddings endpoint.`,
	examples: []string{`capbridge search --limit 5 "open a support ticket"`},
}

func runSearch(ctx context.Context, e env) error {
	fs := newFlagSet("search", e)
	configFlag := configFlag(fs)
	dbFlag := dbFlag(fs)
	limit := fs.Int("limit", bridge.DefaultLimit, "results, 1 to 5, as discover_capability's limit")
	asJSON := fs.Bool("json", false, "print JSON")
	args, done, err := parseFlags(fs, e, searchHelp)
	if done {
		return err
	}
	intent := strings.TrimSpace(strings.Join(args, " "))
	if intent == "" {
		return &usageError{msg: "search: an INTENT is required, e.g. capbridge search \"send an email\""}
	}
	if *limit < 1 || *limit > 5 {
		return &usageError{msg: "search: --limit must be 1 to 5"}
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts := &search.Options{Logger: logger}
	var allowed func(server, tool string) bool
	cfg, err := config.Load(config.Path(*configFlag))
	switch {
	case errors.Is(err, config.ErrNotFound):
		// No config: every stored tool is in scope, no vector leg.
	case err != nil:
		return fmt.Errorf("search: %w", err)
	default:
		allowed = bridge.Scope(cfg)
		if opts.Embedder, err = bridge.NewEmbedder(cfg, logger); err != nil {
			return fmt.Errorf("search: %w", err)
		}
	}
	st, err := store.Open(ctx, config.DBPath(*dbFlag), &store.Options{Logger: logger})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	defer st.Close()
	results, err := search.New(st, opts).Search(ctx, intent, search.Query{Limit: *limit, Allowed: allowed})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	// Held tools are left out, as discover_capability leaves them out.
	held, err := st.Held(ctx)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	nHeld := 0
	results = slices.DeleteFunc(results, func(r search.Result) bool {
		for _, h := range held {
			if h.Server == r.Tool.Server && h.Tool == r.Tool.Name {
				nHeld++
				return true
			}
		}
		return false
	})
	if nHeld > 0 {
		fmt.Fprintf(e.stderr, "capbridge: %d tool(s) held for review left out: run 'capbridge servers'\n", nHeld)
	}
	hits := make([]searchHit, len(results))
	for i, r := range results {
		hits[i] = searchHit{Server: r.Server, Name: r.Name, Score: r.Score, Confidence: r.Confidence,
			Exact: r.Exact, Legs: []searchLeg{}, Card: r.Tool.Card}
		for _, l := range r.Legs {
			hits[i].Legs = append(hits[i].Legs, searchLeg{Leg: l.Leg.String(), Rank: l.Rank, Score: l.Score})
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(hits)
	}
	printSearch(e.stdout, intent, hits)
	return nil
}

func printSearch(w io.Writer, intent string, hits []searchHit) {
	if len(hits) == 0 {
		fmt.Fprintf(w, "no tool matches %q\n", intent)
		return
	}
	for i, h := range hits {
		var card schema.Card
		json.Unmarshal(h.Card, &card) // a card that does not decode shows no summary
		how := ""
		if h.Exact {
			how = "  named in the intent"
		}
		fmt.Fprintf(w, "%d. %s/%s  confidence %.2f  score %.4f%s\n", i+1, h.Server, h.Name, h.Confidence, h.Score, how)
		if card.Summary != "" {
			fmt.Fprintf(w, "   %s\n", card.Summary)
		}
		var legs []string
		for _, l := range h.Legs {
			legs = append(legs, fmt.Sprintf("%s #%d (%.3f)", l.Leg, l.Rank, l.Score))
		}
		if len(legs) > 0 {
			fmt.Fprintf(w, "   legs: %s\n", strings.Join(legs, ", "))
		}
	}
}
