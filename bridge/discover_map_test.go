package bridge

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/search"
)

// TestMapWhenNothingIsClose: over the laptop catalog (21 real servers), a
// discovery whose best card is not a close match also says which servers
// are connected and what each one's tools work on, within the answer's
// budget; one with a close match does not.
func TestMapWhenNothingIsClose(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	f, err := search.OpenFile(filepath.Join("..", "testdata", "catalogs", "laptop.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := search.LoadCatalog(ctx, st, f, nil); err != nil {
		t.Fatal(err)
	}
	servers, err := st.Servers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.File{Servers: map[string]config.Server{}, Bridge: config.Bridge{DiscoveryWait: 1}}
	for _, s := range servers {
		// Configured but never started: the map reads the stored catalog.
		cfg.Servers[s.Name] = config.Server{Name: s.Name, Type: config.TypeStdio, Command: "false"}
	}
	b, err := New(cfg, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	cs := connectClient(t, b)
	discover := func(intent string) (string, discovery) {
		t.Helper()
		res, _ := call(t, cs, DiscoverTool, map[string]any{"intent": intent, "limit": 5})
		text := answerText(t, res)
		var ans discovery
		if err := json.Unmarshal([]byte(text), &ans); err != nil {
			t.Fatal(err)
		}
		return text, ans
	}
	text, ans := discover("query the sqlite database")
	t.Logf("no close match: %d bytes, %d servers mapped, %d more", len(text), len(ans.Servers), ans.MoreServers)
	if len(text) > maxAnswerBytes || len(ans.Servers) == 0 || len(ans.Servers) > maxMapServers || !strings.Contains(ans.Note, mapNote) {
		t.Fatalf("no close match: %d bytes, %d servers mapped, note %q; want a map within %d bytes", len(text), len(ans.Servers), ans.Note, maxAnswerBytes)
	}
	about := make(map[string]string)
	for _, s := range ans.Servers {
		about[s.Name] = s.About
	}
	for server, word := range map[string]string{"memory": "relations", "mongodb": "collection"} {
		if !strings.Contains(about[server], word) {
			t.Errorf("map says %s is about %q, want %q among its words (map %v)", server, about[server], word, ans.Servers)
		}
	}
	if strings.Contains(ans.Note, "Searched servers") {
		t.Errorf("note %q names the searched servers beside the map", ans.Note)
	}
	if _, ans := discover("list the pods in the default namespace"); len(ans.Servers) != 0 {
		t.Errorf("a close match carries a map: %v", ans.Servers)
	}
}
