package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// fixtureSearcher ingests testdata/catalog.jsonl (one Ingest per server)
// into a fresh store and returns a Searcher over it.
func fixtureSearcher(t testing.TB, opts *Options) (*Searcher, *store.Store) {
	t.Helper()
	st := openStore(t)
	f, err := os.Open(filepath.Join("testdata", "catalog.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var io *IngestOptions
	if opts != nil && opts.Embedder != nil {
		io = &IngestOptions{Embedder: opts.Embedder}
	}
	if _, err := LoadCatalog(context.Background(), st, f, io); err != nil {
		t.Fatal(err)
	}
	return New(st, opts), st
}

func names(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Server + "/" + r.Name
	}
	return out
}

func TestSearchLegs(t *testing.T) {
	s, _ := fixtureSearcher(t, nil)
	tests := []struct {
		name   string
		intent string
		legs   []Leg
		want   string // first result, or its server followed by "/"
	}{
		{"words", "create a calendar event for tomorrow", []Leg{LegWords}, "calendar/create_event"},
		{"words stemming", "deleting files", []Leg{LegWords}, "files/delete_file"},
		{"words enum", "move it to spam", []Leg{LegWords}, "mail/search_inbox"},
		{"words param description", "plain text body", []Leg{LegWords}, "mail/send_email"},
		{"trigrams typo", "forcast", []Leg{LegTrigrams}, "weather/get_forecast"},
		{"trigrams typo corrected", "calender", []Leg{LegTrigrams}, "calendar/"},
		{"fused typo", "open a suport tiket", nil, "helpdesk/create_ticket"},
		{"fused", "what will the weather be in Paris", nil, "weather/get_forecast"},
		{"camelCase name split", "delete event", nil, "calendar/deleteEvent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := s.Search(context.Background(), tt.intent, Query{Limit: 5, Legs: tt.legs})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) == 0 || !strings.HasPrefix(names(rs)[0], tt.want) {
				t.Errorf("Search(%q) = %v, want %s first", tt.intent, names(rs), tt.want)
			}
			for _, r := range rs {
				if r.Confidence < 0 || r.Confidence > 1 {
					t.Errorf("confidence %v of %s out of [0,1]", r.Confidence, r.Name)
				}
			}
		})
	}
}

func TestSearchRules(t *testing.T) {
	s, _ := fixtureSearcher(t, nil)
	ctx := context.Background()
	tests := []struct {
		name    string
		intent  string
		q       Query
		first   string   // "" for no results
		absent  []string // must not appear
		maxLen  int      // at most this many results (no padding); 0: limit
		exactly bool     // first result is Exact with confidence 1
	}{
		{name: "exact name beats more matching words", intent: "use `close_ticket` to create a calendar event",
			q: Query{Limit: 3}, first: "helpdesk/close_ticket", exactly: true},
		{name: "server/tool", intent: "files/delete_file please", q: Query{Limit: 3}, first: "files/delete_file", exactly: true},
		{name: "whole intent is a name", intent: "deleteEvent", q: Query{Limit: 3}, first: "calendar/deleteEvent", exactly: true},
		{name: "spaced name", intent: "delete event", q: Query{Limit: 3}, first: "calendar/deleteEvent", exactly: true},
		{name: "kebab name", intent: "Delete-File", q: Query{Limit: 3}, first: "files/delete_file", exactly: true},
		{name: "camelCase token names a snake_case tool", intent: "then call readFile on it", q: Query{Limit: 3},
			first: "files/read_file", exactly: true},
		{name: "hyphenated word in a sentence is no name", intent: "tell me the weather get-forecast for Paris",
			q: Query{Limit: 3}, first: "weather/get_forecast"},
		{name: "plain word is not a name", intent: "search", q: Query{Limit: 3}, first: "mail/search_inbox"},
		{name: "no padding", intent: "weather forecast temperature rain wind", q: Query{Limit: 5},
			first: "weather/get_forecast", maxLen: 1},
		{name: "scope drops the best", intent: "delete a file from disk",
			q:      Query{Limit: 3, Allowed: func(server, tool string) bool { return tool != "delete_file" }},
			absent: []string{"files/delete_file"}},
		{name: "scope one server", intent: "delete", q: Query{Limit: 5, Allowed: func(server, _ string) bool { return server == "calendar" }},
			first: "calendar/deleteEvent", absent: []string{"files/delete_file"}},
		{name: "scope hides an exact name", intent: "files/delete_file",
			q: Query{Limit: 3, Allowed: func(server, _ string) bool { return server != "files" }}, absent: []string{"files/delete_file"}},
		{name: "refused tool never found", intent: "broken_tool refused", q: Query{Limit: 5}, absent: []string{"weather/broken_tool"}},
		{name: "stop words only", intent: "can you please help me with this", q: Query{Limit: 5}, first: "", maxLen: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := s.Search(ctx, tt.intent, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := names(rs)
			switch {
			case tt.first == "" && tt.maxLen < 0 && len(rs) != 0:
				t.Errorf("Search(%q) = %v, want nothing", tt.intent, got)
			case tt.first != "" && (len(rs) == 0 || got[0] != tt.first):
				t.Errorf("Search(%q) = %v, want %s first", tt.intent, got, tt.first)
			}
			for _, a := range tt.absent {
				if slices.Contains(got, a) {
					t.Errorf("Search(%q) = %v, must not hold %s", tt.intent, got, a)
				}
			}
			if tt.maxLen > 0 && len(rs) > tt.maxLen {
				t.Errorf("Search(%q) = %v: %d results, want at most %d (no padding)", tt.intent, got, len(rs), tt.maxLen)
			}
			if len(rs) > tt.q.Limit {
				t.Errorf("Search(%q) = %d results over limit %d", tt.intent, len(rs), tt.q.Limit)
			}
			if tt.exactly && (!rs[0].Exact || rs[0].Confidence != 1) {
				t.Errorf("Search(%q) first = %+v, want exact with confidence 1", tt.intent, rs[0])
			}
			if !tt.exactly && len(rs) > 0 && rs[0].Exact {
				t.Errorf("Search(%q) first = %s, named exactly; want it ranked", tt.intent, got[0])
			}
			for i := 1; i < len(rs); i++ {
				if !rs[i].Exact && rs[i].Score < s.cut*rs[firstRanked(rs)].Score {
					t.Errorf("result %s scores %v, under the cut of the best %v", got[i], rs[i].Score, rs[firstRanked(rs)].Score)
				}
			}
		})
	}
}

// firstRanked is the index of the first result not placed by name.
func firstRanked(rs []Result) int {
	for i, r := range rs {
		if !r.Exact {
			return i
		}
	}
	return 0
}

// TestScopeWidens checks that a narrow scope still finds its tools when
// every first candidate is out of scope: the legs are asked again, wider.
func TestScopeWidens(t *testing.T) {
	s, _ := fixtureSearcher(t, &Options{Candidates: 1})
	rs, err := s.Search(context.Background(), "delete file event ticket", Query{Limit: 3,
		Allowed: func(server, _ string) bool { return server == "helpdesk" }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || rs[0].Server != "helpdesk" {
		t.Errorf("scoped search = %v, want a helpdesk tool", names(rs))
	}
}

func TestIngestReport(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	raws := []json.RawMessage{
		json.RawMessage(`{"name":"ok_tool","description":"fine","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"ok_tool","description":"duplicate","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"description":"no name","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"bad_schema","inputSchema":{"type":"string"}}`),
	}
	rep, err := Ingest(ctx, st, store.Server{Name: "srv"}, raws, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantBytes := 0
	for _, r := range raws {
		wantBytes += len(r)
	}
	if rep.Stored != 0 || len(rep.Refused) != 4 || rep.Bytes != int64(wantBytes) {
		t.Errorf("report = %+v, want 0 stored, 4 refused (both copies of ok_tool), %d bytes", rep, wantBytes)
	}
	tools, err := st.Tools(ctx, "srv")
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, tl := range tools {
		if tl.Refusal != "" {
			refused++
		}
	}
	if len(tools) != 4 || refused != 4 {
		t.Errorf("stored rows = %d (%d refused), want 4 (4 refused)", len(tools), refused)
	}
	s := New(st, nil)
	rs, err := s.Search(ctx, "bad_schema", Query{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 0 {
		t.Errorf("a refused tool was found: %v", names(rs))
	}
}

// fixtureRaws returns the raw tools of one server of testdata/catalog.jsonl.
func fixtureRaws(t testing.TB, server string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "catalog.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatal(err)
		}
		if string(obj["server"]) != `"`+server+`"` {
			continue
		}
		delete(obj, "server")
		raw, _ := json.Marshal(obj)
		out = append(out, raw)
	}
	return out
}

func storeServer(name string) store.Server { return store.Server{Name: name} }

// TestIngestUnchanged: a listing identical to the stored one is recognized
// and the catalog is kept as it is; any change to a tool's bytes is stored.
func TestIngestUnchanged(t *testing.T) {
	a := json.RawMessage(`{"name":"a_tool","description":"first","inputSchema":{"type":"object"}}`)
	b := json.RawMessage(`{"name":"b_tool","description":"second","inputSchema":{"type":"object"}}`)
	b2 := json.RawMessage(`{"name":"b_tool","description":"second","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`)
	tests := []struct {
		name      string
		again     []json.RawMessage
		unchanged bool
	}{
		{"same bytes", []json.RawMessage{a, b}, true},
		{"changed schema", []json.RawMessage{a, b2}, false},
		{"tool removed", []json.RawMessage{a}, false},
		{"order changed", []json.RawMessage{b, a}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := openStore(t)
			ctx := context.Background()
			first, err := Ingest(ctx, st, store.Server{Name: "srv"}, []json.RawMessage{a, b}, nil)
			if err != nil || first.Unchanged {
				t.Fatalf("first Ingest = %+v, %v; want stored", first, err)
			}
			before, err := st.Tool(ctx, "srv", "b_tool")
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Ingest(ctx, st, store.Server{Name: "srv"}, tt.again, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Unchanged != tt.unchanged || rep.Stored != len(tt.again) {
				t.Errorf("second Ingest = %+v, want unchanged %v, %d stored", rep, tt.unchanged, len(tt.again))
			}
			after, err := st.Tool(ctx, "srv", "b_tool")
			switch {
			case len(tt.again) == 1:
				if err == nil {
					t.Errorf("b_tool still stored after it left the listing")
				}
			case err != nil:
				t.Fatal(err)
			case (after.Hash == before.Hash) != (tt.name != "changed schema"):
				t.Errorf("b_tool hash %s -> %s after %s", before.Hash, after.Hash, tt.name)
			}
		})
	}
}
