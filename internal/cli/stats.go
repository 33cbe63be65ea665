package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

var statsHelp = commandHelp{
	usage: []string{"stats [--config FILE] [--db FILE] [--json] [--html FILE]"},
	about: `Shows the context capbridge saves, from the stored catalog and recorded calls.

Tool definitions: per server and in all, the bytes and estimated tokens of
registering every stored tool directly (each tool's object as its server sent
it, as tools/list would carry them), against capbridge's fixed cost: its two
tool definitions plus a typical discovery of 3 cards (the median stored card).
Tool results: from the calls 'capbridge serve' recorded, the bytes and tokens
results had before and after shaping.

Tokens are estimates, ceil(characters / 4); bytes are exact. Refused tools
are not counted (their definitions are not stored), so the saving shown is a
lower bound.`,
	examples: []string{
		"capbridge stats",
		"capbridge stats --json | jq .saved",
		"capbridge stats --html stats.html && xdg-open stats.html",
	},
}

// contextCost is what some text costs in a model's context.
type contextCost struct {
	Bytes     int64 `json:"bytes"`
	EstTokens int64 `json:"estTokens"` // ceil(characters / 4)
}

// textSize accumulates the bytes and Unicode characters of pieces of text.
type textSize struct{ bytes, chars int64 }

func sizeOf(b []byte) textSize { return textSize{int64(len(b)), int64(utf8.RuneCount(b))} }

func (a textSize) plus(b textSize) textSize { return textSize{a.bytes + b.bytes, a.chars + b.chars} }

func (a textSize) cost() contextCost {
	return contextCost{Bytes: a.bytes, EstTokens: output.CharsToTokens(a.chars)}
}

// statsReport is everything `capbridge stats` shows.
type statsReport struct {
	Config            string          `json:"config"`
	DB                string          `json:"db"`
	Servers           []serverSavings `json:"servers"`
	Tools             int             `json:"tools"`  // stored tools of every server
	Direct            contextCost     `json:"direct"` // every stored tool in one tools/list
	Bridge            bridgeCost      `json:"bridge"`
	Saved             contextCost     `json:"saved"`
	SavedPercent      float64         `json:"savedPercent"`
	RefusedNotCounted int             `json:"refusedNotCounted"`
	Calls             callSavings     `json:"calls"`
}

type serverSavings struct {
	Name   string      `json:"name"`
	Tools  int         `json:"tools"`
	Direct contextCost `json:"direct"`
}

type bridgeCost struct {
	Definitions     contextCost `json:"definitions"`      // discover_capability and run_capability
	Discovery       contextCost `json:"typicalDiscovery"` // bridge.DefaultLimit median cards
	Cards           int         `json:"cardsPerDiscovery"`
	MedianCardBytes int64       `json:"medianCardBytes"`
	Total           contextCost `json:"total"`
}

type callSavings struct {
	Calls int `json:"calls"`
	// Refused were answered by the bridge without calling the provider
	// (needs_input, invalid_params, schema_changed); Failures reached it, or
	// tried to, and failed (upstream_error, an isError result).
	Refused  int `json:"refusedBeforeCalling"`
	Failures int `json:"failedUpstream"`
	// Cancelled were cancelled before their server answered, by the
	// client or by capbridge shutting down: neither refused nor failed.
	Cancelled int `json:"cancelled"`
	// Redactions counts the secret values replaced in answers.
	Redactions int64 `json:"redactions"`
	// FlaggedCalls counts the answers in which the poisoning detector
	// flagged text addressed to the model (bridge.results); Flagged lists
	// them by tool.
	FlaggedCalls    int           `json:"flaggedCalls"`
	FlaggedPassages int64         `json:"flaggedPassages"`
	Flagged         []flaggedTool `json:"flagged"`
	Before          contextCost   `json:"beforeShaping"`
	After           contextCost   `json:"afterShaping"`
	Servers         []serverCalls `json:"servers"`
}

// flaggedTool is one tool whose answers the detector flagged.
type flaggedTool struct {
	Server   string `json:"server"`
	Tool     string `json:"tool"`
	Calls    int    `json:"calls"`
	Passages int64  `json:"passages"`
}

type serverCalls struct {
	Name   string      `json:"name"`
	Calls  int         `json:"calls"`
	Before contextCost `json:"beforeShaping"`
	After  contextCost `json:"afterShaping"`
}

func runStats(ctx context.Context, e env) error {
	flags := newFlagSet("stats", e)
	configPath, dbPath := configFlag(flags), dbFlag(flags)
	asJSON := flags.Bool("json", false, "print one JSON object")
	htmlPath := flags.String("html", "", "also write a self-contained HTML report with a chart per server to `FILE`")
	args, done, err := parseFlags(flags, e, statsHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("stats takes no arguments (got %q)", args)}
	}
	local, err := openLocal(ctx, *configPath, *dbPath)
	if err != nil {
		return fmt.Errorf("stats: %w", err)
	}
	defer local.close()
	report := statsReport{Config: local.configPath, DB: local.dbPath, Servers: []serverSavings{}, Calls: callSavings{Servers: []serverCalls{}}}
	if local.store != nil {
		if report, err = measure(ctx, local.store, report); err != nil {
			return fmt.Errorf("stats: %w", err)
		}
	}
	if *htmlPath != "" {
		if err := writeStatsHTML(*htmlPath, report); err != nil {
			return fmt.Errorf("stats: %w", err)
		}
		fmt.Fprintf(e.stderr, "Wrote %s.\n", *htmlPath)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	printStats(e.stdout, report)
	return nil
}

// measure fills the report from the catalog and the recorded calls.
func measure(ctx context.Context, st *store.Store, r statsReport) (statsReport, error) {
	tools, err := st.Tools(ctx, "")
	if err != nil {
		return r, err
	}
	perServer := make(map[string]*serverSavings)
	serverSize := make(map[string]textSize)
	var all textSize
	var cards []textSize
	for _, t := range tools {
		if t.Refusal != "" {
			r.RefusedNotCounted++
			continue
		}
		raw, err := rawTool(t)
		if err != nil {
			return r, err
		}
		s, ok := perServer[t.Server]
		if !ok {
			s = &serverSavings{Name: t.Server}
			perServer[t.Server] = s
			serverSize[t.Server] = sizeOf([]byte("[]"))
		} else {
			serverSize[t.Server] = serverSize[t.Server].plus(sizeOf([]byte(",")))
		}
		s.Tools++
		serverSize[t.Server] = serverSize[t.Server].plus(sizeOf(raw))
		all = all.plus(sizeOf(raw))
		cards = append(cards, sizeOf(t.Card))
		r.Tools++
	}
	if r.Tools > 0 {
		all = all.plus(textSize{int64(r.Tools + 1), int64(r.Tools + 1)}) // [ ] and commas
	}
	for name, s := range perServer {
		s.Direct = serverSize[name].cost()
		r.Servers = append(r.Servers, *s)
	}
	slices.SortFunc(r.Servers, func(a, b serverSavings) int { return int(b.Direct.Bytes - a.Direct.Bytes) })
	r.Direct = all.cost()
	if r.Bridge, err = bridgeCostFor(cards); err != nil {
		return r, err
	}
	r.Saved = contextCost{Bytes: r.Direct.Bytes - r.Bridge.Total.Bytes, EstTokens: r.Direct.EstTokens - r.Bridge.Total.EstTokens}
	if r.Direct.Bytes > 0 {
		r.SavedPercent = 100 * float64(r.Saved.Bytes) / float64(r.Direct.Bytes)
	}
	r.Calls, err = callTotals(ctx, st)
	return r, err
}

// rawTool returns a stored tool as its server sent it, compact: what a
// client registering it directly would put in the context.
func rawTool(t store.Tool) ([]byte, error) {
	rec, err := schema.DecodeRecord(t.Record)
	if err != nil {
		return nil, fmt.Errorf("reading stored record of %s/%s: %w; run 'capbridge index %s' again", t.Server, t.Name, err, t.Server)
	}
	if len(rec.Raw) == 0 {
		return nil, fmt.Errorf("reading stored record of %s/%s: it keeps no raw tool; run 'capbridge index %s' again", t.Server, t.Name, t.Server)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, rec.Raw); err != nil {
		return nil, fmt.Errorf("reading stored record of %s/%s: %w", t.Server, t.Name, err)
	}
	return b.Bytes(), nil
}

// bridgeCostFor is what the model reads through capbridge: the two
// definitions, and a discovery of bridge.DefaultLimit median cards with their
// action ids and confidences, inside the result envelope.
func bridgeCostFor(cards []textSize) (bridgeCost, error) {
	b := bridgeCost{Cards: min(bridge.DefaultLimit, len(cards))}
	// The tools array of tools/list, compact, as DESIGN.md's budget measures it.
	defs, err := json.Marshal(bridge.Definitions())
	if err != nil {
		return b, fmt.Errorf("measuring the bridge's definitions: %w", err)
	}
	b.Definitions = sizeOf(defs).cost()
	discovery := sizeOf([]byte(`{"matches":[]}`))
	if len(cards) > 0 {
		slices.SortFunc(cards, func(x, y textSize) int { return int(x.bytes - y.bytes) })
		median := cards[len(cards)/2]
		b.MedianCardBytes = median.bytes
		card := median.plus(sizeOf([]byte(`,"actionId":"` + strings.Repeat("0", bridge.ActionIDBytes) + `","confidence":0.82`)))
		card.bytes = min(card.bytes, bridge.MaxCardBytes)
		card.chars = min(card.chars, bridge.MaxCardBytes)
		for i := range b.Cards {
			if i > 0 {
				discovery = discovery.plus(sizeOf([]byte(",")))
			}
			discovery = discovery.plus(card)
		}
	}
	b.Discovery = discovery.cost()
	b.Total = contextCost{Bytes: b.Definitions.Bytes + b.Discovery.Bytes, EstTokens: b.Definitions.EstTokens + b.Discovery.EstTokens}
	return b, nil
}

// callTotals sums the recorded calls, per server and in all.
func callTotals(ctx context.Context, st *store.Store) (callSavings, error) {
	totals, err := st.CallTotals(ctx)
	if err != nil {
		return callSavings{}, err
	}
	c := callSavings{Servers: []serverCalls{}, Flagged: []flaggedTool{}}
	index := make(map[string]int)
	for _, t := range totals {
		c.Calls += t.Calls
		for outcome, n := range t.Outcomes {
			switch {
			case outcome == store.OutcomeOK:
			case bridge.RefusedBeforeCall(outcome):
				c.Refused += n
			case outcome == bridge.OutcomeCancelled:
				c.Cancelled += n
			default:
				c.Failures += n
			}
		}
		c.Redactions += t.Redactions
		if t.FlaggedCalls > 0 {
			c.FlaggedCalls += t.FlaggedCalls
			c.FlaggedPassages += t.Flagged
			c.Flagged = append(c.Flagged, flaggedTool{Server: t.Server, Tool: t.Tool, Calls: t.FlaggedCalls, Passages: t.Flagged})
		}
		c.Before.Bytes += t.BytesIn
		c.Before.EstTokens += t.TokensIn
		c.After.Bytes += t.BytesOut
		c.After.EstTokens += t.TokensOut
		i, ok := index[t.Server]
		if !ok {
			i = len(c.Servers)
			index[t.Server] = i
			c.Servers = append(c.Servers, serverCalls{Name: t.Server})
		}
		s := &c.Servers[i]
		s.Calls += t.Calls
		s.Before.Bytes += t.BytesIn
		s.Before.EstTokens += t.TokensIn
		s.After.Bytes += t.BytesOut
		s.After.EstTokens += t.TokensOut
	}
	return c, nil
}

// printStats writes the report for people.
func printStats(w io.Writer, r statsReport) {
	if len(r.Servers) == 0 {
		fmt.Fprintf(w, "No stored tools in %s yet: run 'capbridge index' to list your servers' tools.\n", r.DB)
		return
	}
	fmt.Fprintln(w, "Tool definitions in the context (tokens are estimates: ceil(characters / 4))")
	fmt.Fprintln(w)
	names := []string{"all servers"}
	for _, s := range r.Servers {
		names = append(names, s.Name)
	}
	name := leftAligned(names)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tTOOLS\tDIRECT BYTES\tDIRECT EST. TOKENS\t\n", name("SERVER"))
	for _, s := range r.Servers {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\n", name(s.Name), s.Tools, thousands(s.Direct.Bytes), thousands(s.Direct.EstTokens))
	}
	fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\n", name("all servers"), r.Tools, thousands(r.Direct.Bytes), thousands(r.Direct.EstTokens))
	tw.Flush()

	b := r.Bridge
	fmt.Fprintln(w, "\nThrough capbridge:")
	discovery := fmt.Sprintf("a typical discovery (%d cards, median card %d B)", b.Cards, b.MedianCardBytes)
	name = leftAligned([]string{"two tool definitions", discovery, "total"})
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  %s\t%s B\t%s est. tokens\t\n", name("two tool definitions"), thousands(b.Definitions.Bytes), thousands(b.Definitions.EstTokens))
	fmt.Fprintf(tw, "  %s\t%s B\t%s est. tokens\t\n", name(discovery), thousands(b.Discovery.Bytes), thousands(b.Discovery.EstTokens))
	fmt.Fprintf(tw, "  %s\t%s B\t%s est. tokens\t\n", name("total"), thousands(b.Total.Bytes), thousands(b.Total.EstTokens))
	tw.Flush()
	fmt.Fprintf(w, "\nSaved: %s B, %s est. tokens (%.1f%%) in every request that would carry all tools.\n",
		thousands(r.Saved.Bytes), thousands(r.Saved.EstTokens), r.SavedPercent)
	if r.RefusedNotCounted > 0 {
		fmt.Fprintf(w, "%d refused tool(s) are not counted: their definitions are not stored ('capbridge servers' shows why).\n", r.RefusedNotCounted)
	}
	printCallStats(w, r.Calls)
}

func printCallStats(w io.Writer, c callSavings) {
	if c.Calls == 0 {
		fmt.Fprintln(w, "\nTool results: no calls recorded yet ('capbridge serve' records every run_capability).")
		return
	}
	cancelled := ""
	if c.Cancelled > 0 {
		cancelled = fmt.Sprintf(", %d cancelled", c.Cancelled)
	}
	fmt.Fprintf(w, "\nTool results (%d recorded calls: %d refused before calling, %d failed upstream%s):\n\n", c.Calls, c.Refused, c.Failures, cancelled)
	names := []string{"all servers"}
	for _, s := range c.Servers {
		names = append(names, s.Name)
	}
	name := leftAligned(names)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tCALLS\tBYTES BEFORE\tBYTES AFTER\tEST. TOKENS BEFORE\tEST. TOKENS AFTER\t\n", name("SERVER"))
	for _, s := range c.Servers {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t\n", name(s.Name), s.Calls, thousands(s.Before.Bytes), thousands(s.After.Bytes),
			thousands(s.Before.EstTokens), thousands(s.After.EstTokens))
	}
	fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t\n", name("all servers"), c.Calls, thousands(c.Before.Bytes), thousands(c.After.Bytes),
		thousands(c.Before.EstTokens), thousands(c.After.EstTokens))
	tw.Flush()
	if c.Redactions > 0 {
		fmt.Fprintf(w, "\nSecrets redacted from answers: %d (values expanded from ${VAR} and header values in the config).\n", c.Redactions)
	}
	if c.FlaggedCalls > 0 {
		fmt.Fprintf(w, "\nAnswers with text that reads as instructions to the model (poisoning detector, bridge.results): %d, %d passages:\n",
			c.FlaggedCalls, c.FlaggedPassages)
		for _, f := range c.Flagged {
			fmt.Fprintf(w, "  %s/%s: %d answers, %d passages\n", f.Server, f.Tool, f.Calls, f.Passages)
		}
	}
}

// leftAligned returns a function padding a label to the widest of labels,
// so that a right-aligned tabwriter column reads left-aligned.
func leftAligned(labels []string) func(string) string {
	width := 0
	for _, l := range labels {
		width = max(width, utf8.RuneCountInString(l))
	}
	return func(s string) string { return fmt.Sprintf("%-*s", width, s) }
}

// thousands writes n with comma separators: 1,234,567.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
