package bridge

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultLimit is how many cards a discovery answers when the model names
// no limit (the design contract).
const DefaultLimit = 3

// Other discovery limits from the design contract.
const (
	maxLimit     = 5
	maxNameChars = 64
)

// card is one match of a discovery answer, exactly as the model reads it.
type card struct {
	ActionID   string         `json:"actionId"`
	Name       string         `json:"name"`
	Summary    string         `json:"summary"`
	Provider   string         `json:"provider"`
	Risk       schema.Risk    `json:"risk"`
	Confidence float64        `json:"confidence"`
	Complete   bool           `json:"complete"`
	Note       string         `json:"note,omitempty"`
	Inputs     []schema.Input `json:"inputs"`
}

// discovery is the whole discovery answer.
type discovery struct {
	Matches []card `json:"matches"`
	Omitted int    `json:"omitted,omitempty"`
	Held    int    `json:"held,omitempty"` // matches left out: held until the user approves them
	Note    string `json:"note,omitempty"`
	// Servers maps the connected servers when no card is a close match
	// (see serverMap); MoreServers counts those left out of it.
	Servers     []serverAbout `json:"servers,omitempty"`
	MoreServers int           `json:"moreServers,omitempty"`
}

const noMatchNote = "No tool matched this intent. Try other words for the task; if nothing ever matches, the catalog may be empty (the user can run `capbridge index`)."

// discoverArgs are discover_capability's arguments.
type discoverArgs struct {
	Intent string `json:"intent"`
	Limit  *int   `json:"limit,omitempty"`
}

func (b *Server) discover(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args discoverArgs
	if errs := decodeExact(req.Params.Arguments, &args, map[string]bool{"intent": true, "limit": true}); len(errs) > 0 {
		return invalidParams(errs), nil
	}
	if strings.TrimSpace(args.Intent) == "" {
		return invalidParams([]fieldError{{Path: "/intent", Message: "required: the task in plain words"}}), nil
	}
	limit := DefaultLimit
	if args.Limit != nil {
		limit = min(max(*args.Limit, 1), maxLimit)
	}

	cfg := b.config()
	wait := cfg.Bridge.DiscoveryWait
	if wait <= 0 {
		wait = config.DefaultDiscoveryWait
	}
	if !b.indexer.wait(ctx, wait) {
		b.logger.Info("discovery answered while indexing continues", "waited", wait)
	}

	held, err := b.heldTools(ctx)
	if err != nil {
		return b.discoveryFailed(err), nil
	}
	results, err := b.searcher.Search(ctx, args.Intent, search.Query{Limit: limit, Allowed: Scope(cfg), Learning: !cfg.Bridge.NoLearning})
	if err != nil {
		return b.discoveryFailed(fmt.Errorf("searching the catalog: %w", err)), nil
	}
	results, nHeld := held.leaveOut(results)
	results, nDisagree := b.recheck(ctx, results, cfg.Bridge.Suspicious != config.SuspiciousStrip)
	nHeld += nDisagree
	matches := b.cards(results)
	ans, err := b.fitDiscovery(sessionKey(req.Session), matches, nHeld)
	if err != nil {
		return b.discoveryFailed(err), nil
	}
	if !cfg.Bridge.NoLearning {
		b.learner.discovered(sessionKey(req.Session), args.Intent, matches)
	}
	if !closeMatch(results) {
		ans.Servers, ans.MoreServers = b.serverMap(ctx, cfg, args.Intent)
	}
	b.noteServers(ctx, cfg, &ans, results)
	return textAnswer(ans, false), nil
}

// discoveryFailed answers a discovery the bridge could not make (the
// catalog unreadable, no randomness for ids): a tool failure the model can
// read, not a protocol error.
func (b *Server) discoveryFailed(err error) *mcp.CallToolResult {
	b.logger.Error("discovery failed", "err", err)
	return textAnswer(discovery{
		Matches: []card{},
		Note:    sanitized("The catalog could not be searched: "+err.Error(), maxMessageLen),
	}, true)
}

// Scope is the set of tools a discovery may offer: the configured, enabled
// servers' tools that their allow/deny lists let through.
func Scope(cfg *config.File) func(server, tool string) bool {
	return func(server, tool string) bool {
		sc, ok := cfg.Servers[server]
		return ok && !sc.Disabled && sc.Allows(tool)
	}
}

// unavailable says in one short line which configured servers a discovery
// could not search and why: those whose last listing failed (servers are
// the stored ones), with the reason, even while they are tried again;
// those still being indexed for the first time (a server that is slow to
// start, or never answers); and those whose config entry is left out as
// written wrong. "" when every server is available.
func (b *Server) unavailable(cfg *config.File, servers []store.Server) string {
	var parts []string
	failing := map[string]bool{}
	for _, s := range servers {
		c, ok := cfg.Servers[s.Name]
		if !ok || c.Disabled || s.State != StateFailing {
			continue
		}
		failing[s.Name] = true
		parts = append(parts, fmt.Sprintf("%s (%s)", s.Name, cutRunes(lastReason(s.Name, s.LastError), 100)))
	}
	for _, name := range b.indexer.busy() {
		if s, ok := cfg.Servers[name]; ok && !s.Disabled && !failing[name] {
			parts = append(parts, name+" (still starting)")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Invalid)) {
		parts = append(parts, fmt.Sprintf("%s (its config entry is wrong: %s)", name, cutRunes(cfg.Invalid[name].Reason(), 100)))
	}
	if len(parts) == 0 {
		return ""
	}
	return sanitized("Unavailable servers: "+strings.Join(parts, "; ")+".", 400)
}

// searched says in one short line which of servers (the stored ones) a
// discovery searched, so that a model asking what there is ("what tools
// do you have?") learns where to look; "" when none has tools. At most
// maxSearchedServers are named, those with most tools first.
//
// The names are the user's config's, as trusted as the commands it runs:
// each is made safe to show as a card's provider is (schema.SanitizeName),
// but the lure detector does not read them. Compiling the detector raised
// serve's peak RSS over 5,000 stored tools from 54 to 66 MiB (capbridge
// bench), a cost that serve answering from its stored catalog is not to
// pay (see schema's poison).
func searched(cfg *config.File, servers []store.Server) string {
	servers = slices.DeleteFunc(slices.Clone(servers), func(s store.Server) bool {
		c, ok := cfg.Servers[s.Name]
		return !ok || c.Disabled || s.Tools-s.Held <= 0
	})
	if len(servers) == 0 {
		return ""
	}
	slices.SortStableFunc(servers, func(a, b store.Server) int { return cmp.Compare(b.Tools-b.Held, a.Tools-a.Held) })
	var names []string
	for _, s := range servers[:min(len(servers), maxSearchedServers)] {
		names = append(names, schema.SanitizeName(s.Name, schema.MaxNameChars))
	}
	line := "Searched servers: " + strings.Join(names, ", ")
	if more := len(servers) - len(names); more > 0 {
		line += fmt.Sprintf(" and %d more", more)
	}
	return cutRunes(line+".", 400)
}

// maxSearchedServers bounds the servers an empty discovery names.
const maxSearchedServers = 10

// match is one ranked tool with what its card needs.
type match struct {
	card card // without an action id
	act  action
}

// cards builds the card of each ranked tool, in rank order, from the
// stored card and hash the search results carry.
func (b *Server) cards(results []search.Result) []match {
	var out []match
	for _, r := range results {
		t := r.Tool
		var c schema.Card
		if err := json.Unmarshal(t.Card, &c); err != nil {
			b.logger.Warn("stored card unreadable; skipping it", "server", t.Server, "tool", t.Name, "err", err)
			continue
		}
		c = b.served.card(t.Card, c, t.CardSum, b.logger, t.Server, t.Name)
		out = append(out, match{
			card: card{
				Name:       cutRunes(c.Name, maxNameChars),
				Summary:    c.Summary,
				Provider:   c.Provider,
				Risk:       c.Risk,
				Confidence: math.Round(r.Confidence*100) / 100,
				Complete:   c.Complete,
				Note:       c.Note,
				Inputs:     c.Inputs,
			},
			act: action{server: t.Server, tool: t.Name, hash: t.Hash},
		})
		if r.Learned > 0 {
			out[len(out)-1].card.Note = joinNotes(out[len(out)-1].card.Note, learnedNote)
		}
	}
	noteOrder(out)
	return out
}

// Notes a card may carry about its place among the others.
const (
	// learnedNote marks a card lifted by what discovery learned from use
	// (bridge.learning): its confidence may be that evidence.
	learnedNote = "Run before for a request in much these words."
	// orderNote marks a card placed above one of higher confidence: the
	// two measure different things (issue 32: 0.84, 0.38, 0.53 read as an
	// order nobody could explain).
	orderNote = "Placed above a card of higher confidence: the order weighs all of a tool's text (its inputs too) and where the searches found it; confidence weighs how its name and description cover the request."
)

// noteOrder notes each card placed above a card of higher confidence, as
// the model reads both (rounded).
func noteOrder(ms []match) {
	for i := range ms {
		if slices.ContainsFunc(ms[i+1:], func(m match) bool { return m.card.Confidence > ms[i].card.Confidence }) {
			ms[i].card.Note = joinNotes(ms[i].card.Note, orderNote)
		}
	}
}

// fitDiscovery issues an action id for each match that fits and builds the
// answer: each card shrunk to MaxCardBytes, the whole within maxAnswerBytes,
// matches that do not fit counted in omitted, and held matches (left out
// before) counted in held, with a note.
func (b *Server) fitDiscovery(session any, matches []match, held int) (discovery, error) {
	ans := discovery{Matches: []card{}}
	if held > 0 {
		ans.Held, ans.Note = held, heldNote(held)
	}
	if len(matches) == 0 {
		if held == 0 {
			ans.Note = noMatchNote
		}
		return ans, nil
	}
	// The answer is {"matches":[card,card...]} and then maybe ,"omitted":N
	// before the closing brace: its size is the sum of its cards' own compact
	// JSON and the punctuation, so each card is measured once instead of the
	// whole answer again for every card (5 cards: 15 marshaled, ~25% of the
	// handler's own CPU on the synthetic 5,000-tool catalog).
	size := len(`{"matches":[]}`)
	// Room for `,"omitted":N` whatever N turns out to be, and for the
	// held count and its note.
	budget := maxAnswerBytes - len(`,"omitted":`) - 1
	if held > 0 {
		budget -= jsonSize(struct {
			Held int    `json:"held"`
			Note string `json:"note"`
		}{ans.Held, ans.Note}) - 1
	}
	// Ids are issued only for cards that fit; an id's length is fixed, so a
	// placeholder measures the same.
	placeholder := handlePrefix + strings.Repeat("x", handleChars)
	var shown []action
	for _, m := range matches {
		c := m.card
		c.ActionID = placeholder
		if c.Inputs == nil {
			c.Inputs = []schema.Input{} // "inputs" is always present
		}
		c, n := fitCard(c, MaxCardBytes)
		if len(ans.Matches) > 0 {
			n++ // the comma before it
		}
		if size+n > budget {
			ans.Omitted++
			continue
		}
		size += n
		ans.Matches = append(ans.Matches, c)
		shown = append(shown, m.act)
	}
	for i, a := range shown {
		id, err := b.handles.issue(session, a)
		if err != nil {
			return discovery{}, err
		}
		ans.Matches[i].ActionID = id
	}
	return ans, nil
}

// Description lengths tried, in order, while shrinking a card.
var (
	inputDescSteps = []int{120, 60, 0}
	summarySteps   = []int{400, 160, 60}
)

// fitCard makes c's compact JSON fit max bytes, losing the least useful
// first: enum values, then input descriptions, then the summary's tail, then
// optional inputs, then required inputs (and then c says it is incomplete).
// It returns the card and the size of its compact JSON, measured while
// shrinking it.
func fitCard(c card, max int) (card, int) {
	size := 0
	fits := func() bool {
		size = jsonSize(c)
		return size <= max
	}
	if fits() {
		return c, size
	}
	c.Inputs = append([]schema.Input(nil), c.Inputs...)
	labels := make([]string, len(c.Inputs)) // an alias keeps the provider name it stands for
	for i := range c.Inputs {
		c.Inputs[i].Enum = nil
		labels[i] = schema.AliasLabel(c.Inputs[i])
	}
	for _, n := range inputDescSteps {
		if fits() {
			return c, size
		}
		for i := range c.Inputs {
			in := &c.Inputs[i]
			if labels[i] != "" && utf8.RuneCountInString(labels[i]) >= n {
				in.Description = labels[i]
			} else {
				in.Description = cutRunes(in.Description, n)
			}
		}
	}
	for _, n := range summarySteps {
		if fits() {
			return c, size
		}
		c.Summary = cutRunes(c.Summary, n)
	}
	for i := len(c.Inputs) - 1; i >= 0 && !fits(); i-- {
		if !c.Inputs[i].Required {
			c.Inputs = append(c.Inputs[:i], c.Inputs[i+1:]...)
		}
	}
	dropped := 0
	for len(c.Inputs) > 0 && !fits() {
		c.Inputs = c.Inputs[:len(c.Inputs)-1]
		dropped++
		c.Complete = false
		c.Note = fmt.Sprintf("%d required inputs are not shown; run_capability answers needs_input with each of them.", dropped)
	}
	fits() // measure the last change (the loops above may end without it)
	return c, size
}

// cutRunes cuts s to at most n characters, marking a cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
