package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestReplaceCatalogStoresAndReads(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	listed := time.UnixMilli(1_790_000_000_000)
	err := s.ReplaceCatalog(ctx, Server{Name: "mail", Fingerprint: "fp", LastListed: listed, Bytes: 1234}, toolSeq(
		tool("send_message", "Send an email message", "to", "body"),
		tool("list_folders", "List mail folders"),
		refused("huge_tool", "input schema 300 KiB over the 256 KiB limit"),
	))
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, "calendar", tool("create_event", "Create a calendar event"))

	servers, err := s.Servers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []Server{
		{Name: "calendar", Fingerprint: "fp-calendar", State: StateStored, Tools: 1},
		{Name: "mail", Fingerprint: "fp", State: StateStored, LastListed: listed, Tools: 2, Refused: 1, Bytes: 1234},
	}
	if len(servers) != len(want) {
		t.Fatalf("Servers = %+v, want %d", servers, len(want))
	}
	for i := range want {
		got := servers[i]
		if want[i].LastListed.IsZero() {
			if got.LastListed.IsZero() {
				t.Errorf("%s: LastListed not defaulted to now", got.Name)
			}
			got.LastListed = time.Time{}
		}
		if !got.LastListed.Equal(want[i].LastListed) {
			t.Errorf("%s: LastListed %v, want %v", got.Name, got.LastListed, want[i].LastListed)
		}
		got.LastListed, want[i].LastListed = time.Time{}, time.Time{}
		if got != want[i] {
			t.Errorf("server %d = %+v, want %+v", i, got, want[i])
		}
	}

	got, err := s.Tool(ctx, "mail", "send_message")
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Record) != `{"name":"send_message"}` || got.Hash != "h-send_message" || got.Doc.Desc != "Send an email message" {
		t.Errorf("Tool = %+v", got)
	}
	if got.ContentHash != contentHash(got.Doc) {
		t.Errorf("ContentHash %q, want hash of doc", got.ContentHash)
	}
	for _, name := range []string{"huge_tool", "missing"} {
		if _, err := s.Tool(ctx, "mail", name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Tool(mail, %s) err = %v, want ErrNotFound", name, err)
		}
	}

	all, err := s.Tools(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"create_event", "huge_tool", "list_folders", "send_message"}; !slices.Equal(names(all), want) {
		t.Errorf("Tools() = %v, want %v", names(all), want)
	}
	mail, err := s.Tools(ctx, "mail")
	if err != nil {
		t.Fatal(err)
	}
	if len(mail) != 3 || mail[0].Refusal != "input schema 300 KiB over the 256 KiB limit" {
		t.Errorf("Tools(mail) = %+v", mail)
	}

	byID, err := s.ToolsByID(ctx, []int64{all[3].ID, 999, all[0].ID, all[2].ID})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"send_message", "create_event", "list_folders"}; !slices.Equal(names(byID), want) {
		t.Errorf("ToolsByID order = %v, want %v", names(byID), want)
	}
	docs, err := s.ToolDocs(ctx, []int64{all[3].ID, 999, all[0].ID, all[2].ID})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(docs), names(byID)) {
		t.Errorf("ToolDocs order = %v, want %v", names(docs), names(byID))
	}
	for i, d := range docs {
		full := byID[i]
		if d.ID != full.ID || d.Server != full.Server || d.Refusal != full.Refusal ||
			d.Doc.Name != full.Doc.Name || d.Doc.Desc != full.Doc.Desc {
			t.Errorf("ToolDocs[%d] = %+v, want the ids, names, doc name and description of %+v", i, d, full)
		}
		if d.Record != nil || d.Card != nil || d.Hash != "" || d.Doc.Params != "" {
			t.Errorf("ToolDocs[%d] read more than ranking needs: %+v", i, d)
		}
	}
}

func TestReplaceCatalogKeepsIDsOfListedTools(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "mail", tool("send_message", "Send an email"), tool("delete_message", "Delete an email"))
	before, _ := s.Tool(ctx, "mail", "send_message")
	mustReplace(t, s, "mail", tool("send_message", "Send an email now"), tool("archive_message", "Archive an email"))
	after, err := s.Tool(ctx, "mail", "send_message")
	if err != nil {
		t.Fatal(err)
	}
	if after.ID != before.ID || after.Doc.Desc != "Send an email now" {
		t.Errorf("after refresh: id %d desc %q, want id %d and the new desc", after.ID, after.Doc.Desc, before.ID)
	}
	if _, err := s.Tool(ctx, "mail", "delete_message"); !errors.Is(err, ErrNotFound) {
		t.Errorf("delisted tool still stored: %v", err)
	}
	if hits, _ := s.MatchWords(ctx, "delete", [5]float64{1, 1, 1, 1, 1}, 10); len(hits) != 0 {
		t.Errorf("delisted tool still matched: %v", hits)
	}
	if hits, _ := s.MatchWords(ctx, "now", [5]float64{1, 1, 1, 1, 1}, 10); !slices.Equal(ids(hits), []int64{before.ID}) {
		t.Errorf("changed text not reindexed: %v", hits)
	}
	terms, err := s.Terms(ctx, []string{"delete", "archive", "now", "email"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"archive": 1, "now": 1, "email": 2}; !mapsEqual(terms, want) {
		t.Errorf("Terms = %v, want %v", terms, want)
	}
	checkIndex(t, s)
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestReplaceCatalogFailureKeepsPrevious injects failures part way through
// the transaction: the catalog stored before must stay whole.
func TestReplaceCatalogFailureKeepsPrevious(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		tools []Tool
	}{
		{"duplicate new name after many", context.Background(), append(manyTools(300),
			tool("archive", "Archive mail"), tool("archive", "Archive again"))},
		{"duplicate stored name", context.Background(), []Tool{
			tool("send_message", "Send it"), tool("send_message", "Send it twice")}},
		{"cancelled", cancelled, []Tool{tool("archive", "Archive mail")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := openTemp(t)
			mustReplace(t, s, "mail", tool("send_message", "Send an email"), tool("list_folders", "List folders"))
			before := snapshot(t, s)
			err := s.ReplaceCatalog(tt.ctx, Server{Name: "mail", Fingerprint: "new"}, toolSeq(tt.tools...))
			if err == nil {
				t.Fatal("ReplaceCatalog succeeded, want an error")
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("catalog changed by a failed replace:\nbefore %s\nafter  %s", before, after)
			}
			if hits, err := s.MatchWords(ctx, "email", [5]float64{1, 1, 1, 1, 1}, 5); err != nil || len(hits) != 1 {
				t.Errorf("previous catalog not searchable: %v %v", hits, err)
			}
			checkIndex(t, s)
		})
	}
}

// manyTools returns n distinct searchable tools.
func manyTools(n int) []Tool {
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = tool(fmt.Sprintf("bulk_%03d", i), fmt.Sprintf("Bulk tool number%d of many", i))
	}
	return tools
}

// snapshot summarises every table a replace touches.
func snapshot(t *testing.T, s *Store) string {
	t.Helper()
	var out string
	for _, q := range []string{
		"SELECT group_concat(name || ':' || fingerprint, ',') FROM servers",
		"SELECT group_concat(id || ':' || name || ':' || doc_desc, ',') FROM tools",
		"SELECT group_concat(term || ':' || docs, ',') FROM (SELECT * FROM terms ORDER BY term)",
		"SELECT count(*) FROM tool_words('email')",
		"SELECT count(*) FROM tool_trigrams('folder')",
	} {
		var v any
		if err := s.db.QueryRow(q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out += fmt.Sprint(v) + " | "
	}
	return out
}

func TestRefusedToolsAreStoredButNeverMatched(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "big", refused("giant_report", "over 5,000 tools"), tool("small_report", "Small report"))
	tools, err := s.Tools(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 2 || tools[0].Refusal != "over 5,000 tools" {
		t.Fatalf("Tools = %+v", tools)
	}
	giant := tools[0].ID
	w, _ := s.MatchWords(ctx, "giant OR report", [5]float64{1, 1, 1, 1, 1}, 10)
	tg, _ := s.MatchTrigrams(ctx, `"gia"`, 10)
	vocab, _, _ := s.Vocabulary(ctx)
	terms, _ := s.Terms(ctx, []string{"giant"})
	if slices.Contains(ids(w), giant) || len(tg) != 0 || slices.Contains(vocab, "giant") || len(terms) != 0 {
		t.Errorf("refused tool searchable: words %v trigrams %v vocabulary %v terms %v", w, tg, vocab, terms)
	}
	if n, _, _ := s.TextStats(ctx); n != 1 {
		t.Errorf("TextStats counts %d tools, want 1", n)
	}
	// Refused then accepted: the same row becomes searchable.
	mustReplace(t, s, "big", tool("giant_report", "Giant report"))
	w, _ = s.MatchWords(ctx, "giant", [5]float64{1, 1, 1, 1, 1}, 10)
	if !slices.Equal(ids(w), []int64{giant}) {
		t.Errorf("accepted tool not matched under its id %d: %v", giant, w)
	}
}

func TestRemoveServerRemovesEveryRow(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.EnsureVectors(ctx, 3); err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, "mail", tool("send_message", "Send an email"), refused("huge", "too big"))
	mustReplace(t, s, "chat", tool("post_message", "Post a chat message"))
	tools, _ := s.Tools(ctx, "")
	var vs []Vector
	for i, tl := range tools {
		if tl.Refusal == "" {
			vs = append(vs, Vector{ToolID: tl.ID, ContentHash: tl.ContentHash, Vec: []float32{float32(i), 1, 0}})
		}
	}
	if err := s.PutVectors(ctx, "m", vs); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordCalls(ctx, []Call{{At: time.Now(), Server: "mail", Tool: "send_message", Outcome: "ok"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveServer(ctx, "mail"); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		query string
		want  int
	}{
		{"SELECT count(*) FROM servers", 1},
		{"SELECT count(*) FROM tools", 1},
		{"SELECT count(*) FROM tool_words('pad : capbridgepad')", 1},
		{"SELECT count(*) FROM tool_trigrams", 1},
		{"SELECT count(*) FROM tool_vectors", 1},
		{"SELECT count(*) FROM tool_words('email')", 0},
		{"SELECT count(*) FROM tool_trigrams('email')", 0},
		{"SELECT count(*) FROM terms WHERE term IN ('send', 'email')", 0},
		{"SELECT count(*) FROM terms WHERE term = 'message' AND docs = 1", 1},
		{"SELECT count(*) FROM calls", 1}, // telemetry outlives the server
	}
	for _, c := range checks {
		if got := count(t, s, c.query); got != c.want {
			t.Errorf("%s = %d, want %d", c.query, got, c.want)
		}
	}
	checkIndex(t, s)
	if err := s.RemoveServer(ctx, "mail"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second RemoveServer err = %v, want ErrNotFound", err)
	}
}

func TestSetServerState(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "mail", tool("send_message", "Send an email"))
	if err := s.SetServerState(ctx, "mail", "failing", "exit status 1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetServerState(ctx, "new", "failing", "not found"); err != nil {
		t.Fatal(err)
	}
	servers, err := s.Servers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 {
		t.Fatalf("Servers = %+v", servers)
	}
	if m := servers[0]; m.Name != "mail" || m.State != "failing" || m.LastError != "exit status 1" || m.Tools != 1 || m.Fingerprint != "fp-mail" {
		t.Errorf("mail = %+v", m)
	}
	if n := servers[1]; n.Name != "new" || n.State != "failing" || !n.LastListed.IsZero() || n.Tools != 0 {
		t.Errorf("new = %+v", n)
	}
}
