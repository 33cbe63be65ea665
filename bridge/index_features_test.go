package bridge

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// countMessage is a slog handler that counts the records logged with one
// message.
type countMessage struct {
	msg string
	n   *atomic.Int32
}

func (h countMessage) Enabled(context.Context, slog.Level) bool { return true }
func (h countMessage) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.n.Add(1)
	}
	return nil
}
func (h countMessage) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h countMessage) WithGroup(string) slog.Handler      { return h }

// TestIndexFeaturesUnchangedListing: a server that lists its prompts and
// resources as last time is not checked nor stored again (each first run
// of a serve re-lists its server), and says what it said then; a changed
// listing is read again.
func TestIndexFeaturesUnchangedListing(t *testing.T) {
	ctx := testContext(t)
	st := openTestStore(t)
	file := filepath.Join(t.TempDir(), "features.json")
	write := func(prompts ...any) {
		t.Helper()
		data, err := json.Marshal(map[string]any{"prompts": prompts})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file+".tmp", data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(file+".tmp", file); err != nil {
			t.Fatal(err)
		}
	}
	plan := map[string]any{"name": "plan", "description": "Plans a week."}
	refused := map[string]any{"name": "huge", "description": strings.Repeat("Plans. ", 10_000)} // over schema.MaxFeatureBytes
	write(plan, refused)
	cfg := testConfig(demoServer(t, "board", "--features", file))
	var checked atomic.Int32
	opts := &IndexOptions{Logger: slog.New(countMessage{"not indexed", &checked})}

	index := func() IndexResult {
		t.Helper()
		ups := newTestUpstreams(t, cfg, nil)
		results, err := Index(ctx, cfg, st, ups, nil, opts)
		if err != nil || len(results) != 1 {
			t.Fatalf("Index = %+v, %v", results, err)
		}
		return results[0]
	}
	first := index()
	if first.Features != 1 || !strings.Contains(first.FeaturesNote, "refused") || checked.Load() != 1 {
		t.Fatalf("first index: %d features, note %q, %d refusals logged; want 1, a note of the refusal, 1",
			first.Features, first.FeaturesNote, checked.Load())
	}
	again := index()
	if again.Features != first.Features || again.FeaturesNote != first.FeaturesNote {
		t.Errorf("unchanged listing: %d features, note %q; want %d, %q", again.Features, again.FeaturesNote, first.Features, first.FeaturesNote)
	}
	if n := checked.Load(); n != 1 {
		t.Errorf("an unchanged listing was checked again (%d refusals logged in all, want 1)", n)
	}

	write(plan, refused, map[string]any{"name": "retro"})
	changed := index()
	if changed.Features != 2 || checked.Load() != 2 {
		t.Errorf("changed listing: %d features, %d refusals logged in all; want 2 and 2", changed.Features, checked.Load())
	}
}
