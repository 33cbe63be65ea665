package bridge

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/store"
)

func openTestStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(testContext(t), filepath.Join(t.TempDir(), "catalog.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func storedServer(t *testing.T, st *store.Store, name string) (store.Server, bool) {
	t.Helper()
	servers, err := st.Servers(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		if s.Name == name {
			return s, true
		}
	}
	return store.Server{}, false
}

func TestIndexOneDeadServer(t *testing.T) {
	ctx := testContext(t)
	st := openTestStore(t)
	good := demoServer(t, "helpdesk", "--server", "helpdesk")
	good.Tools = config.ToolFilter{Deny: []string{"delete_*"}}
	cfg := testConfig(good, demoServer(t, "dead", "--fault", "exit-at-start"))
	ups := newTestUpstreams(t, cfg, nil)

	need, err := NeedsIndex(ctx, cfg, st)
	if err != nil || !reflect.DeepEqual(need, []string{"dead", "helpdesk"}) {
		t.Fatalf("NeedsIndex before = %v, %v", need, err)
	}
	var progress bytes.Buffer
	results, err := Index(ctx, cfg, st, ups, nil, &IndexOptions{Progress: &progress})
	if !errors.Is(err, ErrIndexFailed) || !strings.Contains(err.Error(), "dead") {
		t.Fatalf("Index error = %v, want ErrIndexFailed naming dead", err)
	}
	byName := map[string]IndexResult{}
	for _, r := range results {
		byName[r.Server] = r
	}
	if r := byName["helpdesk"]; r.Err != nil || r.Stored == 0 || r.Bytes == 0 || r.Hidden != 1 {
		t.Errorf("helpdesk result = %+v", r)
	}
	if r := byName["dead"]; !errors.Is(r.Err, upstream.ErrExited) {
		t.Errorf("dead result = %+v, want upstream.ErrExited", r)
	}
	helpdesk, ok := storedServer(t, st, "helpdesk")
	if !ok || helpdesk.State != store.StateStored || helpdesk.Tools != byName["helpdesk"].Stored || helpdesk.Fingerprint != good.Fingerprint() {
		t.Errorf("stored helpdesk = %+v", helpdesk)
	}
	dead, ok := storedServer(t, st, "dead")
	if !ok || dead.State != StateFailing || !strings.Contains(dead.LastError, "exit") {
		t.Errorf("stored dead = %+v, want failing with the reason", dead)
	}
	tools, err := st.Tools(ctx, "helpdesk")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if strings.HasPrefix(tool.Name, "delete_") {
			t.Errorf("denied tool %s was stored", tool.Name)
		}
	}
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	if len(lines) != 2 || !strings.Contains(progress.String(), "tools stored") || !strings.Contains(progress.String(), "failed") {
		t.Errorf("progress:\n%s", progress.String())
	}

	need, err = NeedsIndex(ctx, cfg, st)
	if err != nil || !reflect.DeepEqual(need, []string{"dead"}) {
		t.Errorf("NeedsIndex after = %v, %v; want only the dead server", need, err)
	}
	changed := testConfig(demoServer(t, "helpdesk", "--server", "helpdesk", "--page-size", "2"))
	if need, _ := NeedsIndex(ctx, changed, st); !reflect.DeepEqual(need, []string{"helpdesk"}) {
		t.Errorf("NeedsIndex after a changed command = %v", need)
	}
}

func TestIndexNamedAndPruned(t *testing.T) {
	ctx := testContext(t)
	st := openTestStore(t)
	cfg := testConfig(demoServer(t, "crm", "--server", "crm"), demoServer(t, "calendar", "--server", "calendar"))
	ups := newTestUpstreams(t, cfg, nil)
	if _, err := Index(ctx, cfg, st, ups, []string{"nope"}, nil); !errors.Is(err, upstream.ErrUnknownServer) {
		t.Fatalf("unknown name: %v", err)
	}
	results, err := Index(ctx, cfg, st, ups, []string{"crm"}, nil)
	if err != nil || len(results) != 1 || results[0].Server != "crm" {
		t.Fatalf("Index crm = %+v, %v", results, err)
	}
	if _, ok := storedServer(t, st, "calendar"); ok {
		t.Error("calendar indexed though not named")
	}
	// Dropping crm from the config and indexing all removes its catalog.
	smaller := testConfig(demoServer(t, "calendar", "--server", "calendar"))
	ups.Reconfigure(smaller)
	if _, err := Index(ctx, smaller, st, ups, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := storedServer(t, st, "crm"); ok {
		t.Error("crm still stored after leaving the config")
	}
	if s, ok := storedServer(t, st, "calendar"); !ok || s.Tools == 0 {
		t.Errorf("calendar = %+v", s)
	}
}

func TestIndexPartialCatalog(t *testing.T) {
	ctx := testContext(t)
	st := openTestStore(t)
	cfg := testConfig(demoServer(t, "pager", "--fault", "pages-forever", "--page-size", "5"))
	ups := newTestUpstreams(t, cfg, &upstream.Options{Limits: upstream.CatalogLimits{MaxPages: 10}})
	results, err := Index(ctx, cfg, st, ups, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Refusal == "" || !strings.Contains(results[0].String(), "pages") {
		t.Errorf("result = %s", results[0])
	}
	s, _ := storedServer(t, st, "pager")
	if s.State != StatePartial || s.LastError == "" || s.Tools == 0 {
		t.Errorf("stored = %+v, want partial with the reason", s)
	}
}

func TestByteSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KiB"},
		{1536, "1.5 KiB"},
		{16 << 20, "16.0 MiB"},
	}
	for _, tt := range tests {
		if got := byteSize(tt.n); got != tt.want {
			t.Errorf("byteSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestIndexLockedCatalog: a catalog another capbridge holds past the busy
// timeout stops a server's index, but the server did nothing wrong. It is
// not marked failing, and what is stored for it stands.
func TestIndexLockedCatalog(t *testing.T) {
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "catalog.db")
	cfg := testConfig(demoServer(t, "helpdesk", "--server", "helpdesk"))
	ups := newTestUpstreams(t, cfg, nil)
	first, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Index(ctx, cfg, first, ups, nil, nil); err != nil {
		t.Fatal(err)
	}
	first.Close()

	// Another writer: BEGIN IMMEDIATE on its own connection, held.
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	// The other writer lets go the moment the store gives up waiting for
	// it, as a writer would a moment later: the index's next write could
	// then mark the server failing.
	release := func() {
		if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
			t.Error(err)
		}
	}
	logger := slog.New(onMessage{"catalog locked", &sync.Once{}, release})
	locked, err := store.Open(ctx, path, &store.Options{BusyTimeout: 100 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer locked.Close()
	// A changed listing, so that the index must write.
	changed := testConfig(demoServer(t, "helpdesk", "--server", "helpdesk", "--page-size", "2"))
	results, err := Index(ctx, changed, locked, newTestUpstreams(t, changed, nil), nil, nil)
	if len(results) != 1 || !errors.Is(results[0].Err, store.ErrLocked) || err == nil {
		t.Fatalf("Index on a locked catalog = %+v, %v; want the server's result to wrap store.ErrLocked", results, err)
	}
	if s, ok := storedServer(t, locked, "helpdesk"); !ok || s.State != store.StateStored || s.Tools == 0 {
		t.Errorf("helpdesk after a locked index = %+v; want it stored as before", s)
	}
}

// onMessage is a slog handler that calls do once, the first time a record
// with message msg is logged.
type onMessage struct {
	msg  string
	once *sync.Once
	do   func()
}

func (h onMessage) Enabled(context.Context, slog.Level) bool { return true }
func (h onMessage) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.once.Do(h.do)
	}
	return nil
}
func (h onMessage) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h onMessage) WithGroup(string) slog.Handler      { return h }
