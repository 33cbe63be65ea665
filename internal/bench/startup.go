package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/capbridge/capbridge/search"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startFigures are serve's start-up on one stored catalog.
type startFigures struct {
	list50, list95 time.Duration // process start to the first tools/list answer
	disc50         time.Duration // process start to the first discovery answer
	starts         int
}

// What each of the 20 servers offers beside its tools.
const (
	TwentyPrompts   = 10
	TwentyResources = 40
	TwentyTemplates = 2
)

// serveStartTwenty measures serve's start on 20 configured servers of
// perServer synthetic tools each, and the prompts, resources and
// templates above, all stored (none is started).
func (p benchProcs) serveStartTwenty(ctx context.Context, perServer, reps int) (startFigures, error) {
	servers := map[string]benchServer{}
	for i := range 20 {
		name := fmt.Sprintf("server%02d", i+1)
		features, err := p.writeFeatures(name, TwentyPrompts, TwentyResources, TwentyTemplates)
		if err != nil {
			return startFigures{}, err
		}
		servers[name] = p.demoServer("--fault", fmt.Sprintf("big-catalog:%d", perServer), "--features", features)
	}
	cfg, err := p.writeConfig("twenty", servers)
	if err != nil {
		return startFigures{}, err
	}
	db := filepath.Join(p.dir, "twenty.db")
	if _, err := p.index(ctx, cfg, db); err != nil {
		return startFigures{}, err
	}
	return p.serveStartOn(ctx, cfg, db, reps)
}

// serveStartOn measures `capbridge serve` on a stored catalog, reps times:
// from process start to its first tools/list answer, and (in another start,
// so that the first does not warm it) to its first discovery answer, which
// waits for the catalog's integrity check.
func (p benchProcs) serveStartOn(ctx context.Context, cfg, db string, reps int) (startFigures, error) {
	f := startFigures{starts: reps}
	var lists, discs []time.Duration
	for range reps {
		took, err := p.startOnce(ctx, cfg, db, func(cs *mcp.ClientSession) error {
			_, err := cs.ListTools(ctx, nil)
			return err
		})
		if err != nil {
			return f, fmt.Errorf("tools/list: %w", err)
		}
		lists = append(lists, took)
		took, err = p.startOnce(ctx, cfg, db, func(cs *mcp.ClientSession) error {
			return toolOK(cs.CallTool(ctx, &mcp.CallToolParams{Name: "discover_capability",
				Arguments: map[string]any{"intent": builtinIntents[0]}}))
		})
		if err != nil {
			return f, fmt.Errorf("first discovery: %w", err)
		}
		discs = append(discs, took)
	}
	f.list50, f.list95, f.disc50 = search.Percentile(lists, 50), search.Percentile(lists, 95), search.Percentile(discs, 50)
	return f, nil
}

// startOnce starts serve, connects (initialize) and runs first; it
// reports the time from the start of the process to first's answer.
func (p benchProcs) startOnce(ctx context.Context, cfg, db string, first func(*mcp.ClientSession) error) (time.Duration, error) {
	start := time.Now()
	cs, _, err := p.serve(ctx, cfg, db)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	err = first(cs)
	return time.Since(start), err
}

// addStartRow adds the row of one serve start-up measure.
func (t *Report) addStartRow(catalog string, f startFigures) {
	t.add("serve start to first tools/list answer, "+catalog, fmt.Sprintf("p50 %s, p95 %s", ms(f.list50), ms(f.list95)),
		fmt.Sprintf("%d process starts; no upstream started; first discovery answered after p50 %s (it waits for the integrity check); target < 50 ms",
			f.starts, ms(f.disc50)),
		map[string]float64{"p50_ms": msf(f.list50), "p95_ms": msf(f.list95), "first_discovery_p50_ms": msf(f.disc50)})
}
