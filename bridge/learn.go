package bridge

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/capbridge/capbridge/search"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Learning from use (bridge.learning, on by default): each run after a
// discovery tells the search which tool the model chose for which intent
// (search.Searcher.Learn). The learner remembers, for each session, the
// intents of its last discoveries and the actions each one showed; a run
// of one of those actions is the evidence. It is written to the catalog
// file, on this machine only, after quickWindow: a discovery in the same
// session within that time that asks much as the run's did
// (search.Similar) says the run did not do what was wanted, and weakens
// it.
//
// How much a run says (Run.Weight):
const (
	weightSucceeded = 1.0  // the tool answered
	weightToolError = 0.5  // the tool answered with an error of its own
	weightNeedsFix  = 0.5  // invalid_params or needs_input: the model must fix its call
	weightUpstream  = 0.25 // the server failed: the tool may be right or not
	weightAskedSoon = 0.25 // times the above, for a run followed by a similar discovery
)

// Bounds of what the learner holds in memory.
const (
	quickWindow        = 60 * time.Second
	maxLearnSessions   = 256 // sessions whose discoveries are remembered
	maxShownPerSession = 4   // discoveries remembered per session
	maxPendingRuns     = 256 // runs waiting out quickWindow
)

// learner connects runs to the discoveries that showed them.
type learner struct {
	searcher *search.Searcher
	logger   *slog.Logger
	now      func() time.Time

	mu      sync.Mutex
	shown   map[any][]shownDiscovery // guarded by mu; each session's last discoveries, oldest first
	order   []any                    // guarded by mu; sessions by their last discovery, oldest first
	pending []pendingRun             // guarded by mu; runs waiting out quickWindow, oldest first
}

// shownDiscovery is one discovery and the actions it answered with.
type shownDiscovery struct {
	intent string
	at     time.Time
	acts   []action
}

// pendingRun is a run not yet written.
type pendingRun struct {
	session any
	run     search.Run
}

func newLearner(s *search.Searcher, logger *slog.Logger, now func() time.Time) *learner {
	return &learner{searcher: s, logger: logger, now: now, shown: make(map[any][]shownDiscovery)}
}

// discovered remembers what a discovery of session showed, and weakens
// the session's pending runs whose intent this one repeats.
func (l *learner) discovered(session any, intent string, matches []match) {
	acts := make([]action, len(matches))
	for i, m := range matches {
		acts[i] = m.act
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.pending {
		p := &l.pending[i]
		if p.session == session && now.Sub(p.run.At) < quickWindow && search.Similar(p.run.Intent, intent) {
			p.run.Weight *= weightAskedSoon
		}
	}
	ds := append(l.shown[session], shownDiscovery{intent: intent, at: now, acts: acts})
	l.shown[session] = ds[max(0, len(ds)-maxShownPerSession):]
	l.order = append(slices.DeleteFunc(l.order, func(s any) bool { return s == session }), session)
	if len(l.order) > maxLearnSessions {
		delete(l.shown, l.order[0])
		l.order = l.order[1:]
	}
}

// ran notes that session ran act, answered with res: evidence for the
// intent of the latest discovery that showed act, if one did within the
// action ids' lifetime.
func (l *learner) ran(session any, act action, res *mcp.CallToolResult) {
	weight, ok := runWeight(res)
	if !ok {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ds := l.shown[session]
	for i := len(ds) - 1; i >= 0; i-- {
		if now.Sub(ds[i].at) > handleTTL || !slices.Contains(ds[i].acts, act) {
			continue
		}
		if len(l.pending) >= maxPendingRuns {
			l.logger.Debug("learning: too many runs waiting; dropping the oldest")
			l.pending = l.pending[1:]
		}
		l.pending = append(l.pending, pendingRun{session: session, run: search.Run{
			Intent: ds[i].intent, Server: act.server, Tool: act.tool, Hash: act.hash, Weight: weight, At: now}})
		return
	}
}

// runWeight is how much a run answered with res says (see the weights
// above); ok is false for an answer that says nothing of the tool: an
// expired or unknown action id, a definition that changed, or a call
// cancelled by capbridge shutting down.
func runWeight(res *mcp.CallToolResult) (weight float64, ok bool) {
	if res == nil {
		return 0, false
	}
	if !res.IsError {
		return weightSucceeded, true
	}
	var ans struct {
		Status string `json:"status"`
	}
	if len(res.Content) > 0 {
		if t, isText := res.Content[0].(*mcp.TextContent); isText {
			_ = json.Unmarshal([]byte(t.Text), &ans) // a tool's own error text is no status
		}
	}
	switch ans.Status {
	case statusExpired, statusUnknownAction, statusSchemaChanged, statusCancelled:
		return 0, false
	case statusInvalidParams, statusNeedsInput:
		return weightNeedsFix, true
	case statusUpstreamError:
		return weightUpstream, true
	}
	return weightToolError, true
}

// flush writes the pending runs older than quickWindow, or all of them
// when all is set.
func (l *learner) flush(ctx context.Context, all bool) {
	now := l.now()
	l.mu.Lock()
	n := len(l.pending)
	if !all {
		n = 0
		for n < len(l.pending) && now.Sub(l.pending[n].run.At) >= quickWindow {
			n++
		}
	}
	runs := make([]search.Run, n)
	for i, p := range l.pending[:n] {
		runs[i] = p.run
	}
	l.pending = l.pending[n:]
	l.mu.Unlock()
	if len(runs) == 0 {
		return
	}
	if err := l.searcher.Learn(ctx, runs); err != nil {
		l.logger.Warn("learning from runs failed", "runs", len(runs), "err", err)
	}
}

// loop writes pending runs as they come due, and the rest when ctx ends.
func (l *learner) loop(ctx context.Context) {
	tick := time.NewTicker(quickWindow / 4)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			l.flush(ctx, false)
		case <-ctx.Done():
			done, cancel := context.WithTimeout(context.Background(), recordTimeout)
			l.flush(done, true)
			cancel()
			return
		}
	}
}
