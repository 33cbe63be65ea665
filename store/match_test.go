package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestMatchWordsWeightsOrder(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "w",
		Tool{Name: "forecast", Doc: Doc{Name: "weather forecast", Desc: "Tomorrow at a glance"}},
		Tool{Name: "outlook", Doc: Doc{Name: "outlook", Desc: "Seven days of weather: weather maps, weather alerts"}},
		Tool{Name: "alerts", Doc: Doc{Name: "alerts", Desc: "Storm alerts", Params: "weather station"}},
	)
	tools, _ := s.Tools(ctx, "w")
	id := make(map[string]int64)
	for _, tl := range tools {
		id[tl.Name] = tl.ID
	}
	tests := []struct {
		name    string
		weights [5]float64
		first   string
	}{
		{"name heavy", [5]float64{10, 1, 1, 1, 1}, "forecast"},
		{"desc heavy", [5]float64{1, 10, 1, 1, 1}, "outlook"},
		{"params heavy", [5]float64{1, 1, 50, 1, 1}, "alerts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := s.MatchWords(ctx, "weather", tt.weights, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != 3 || hits[0].ID != id[tt.first] {
				t.Errorf("hits %v, want 3 led by %s (%d)", hits, tt.first, id[tt.first])
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Errorf("scores not descending: %v", hits)
				}
			}
			if hits[0].Score <= 0 {
				t.Errorf("best score %v, want > 0", hits[0].Score)
			}
		})
	}
	if hits, _ := s.MatchWords(ctx, "weathers", [5]float64{1, 1, 1, 1, 1}, 1); len(hits) != 1 {
		t.Errorf("porter stemming: limit 1 gave %v", hits)
	}
}

func TestDescribed(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "w",
		Tool{Name: "fill_form", Doc: Doc{Name: "fill form", Desc: "Fill a form in one call", ParamDescs: "Remember Me"}},
		Tool{Name: "read_graph", Doc: Doc{Name: "read graph", Desc: "Read the knowledge graph"}},
	)
	want := map[string]bool{"remember": false, "graphs": true, "form": true, "weather": false, `say "hi"`: false}
	for word, described := range want {
		got, err := s.Described(ctx, word)
		if err != nil {
			t.Fatal(err)
		}
		if got != described {
			t.Errorf("Described(%q) = %v, want %v", word, got, described)
		}
	}
}

func TestMatchRejectsHostileExpressions(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "mail", tool("send_message", "Send an email"))
	hostile := []string{`"unterminated`, `AND`, `send AND`, `(send`, `send)`, `NEAR(`, `*`, `nocolumn:send`,
		`'); DROP TABLE tools; --`, `^`, `send NOT`, "\x00", `"" OR`}
	for _, expr := range hostile {
		if _, err := s.MatchWords(ctx, expr, [5]float64{1, 1, 1, 1, 1}, 5); err == nil {
			t.Errorf("MatchWords(%q) gave no error", expr)
		}
		if _, err := s.MatchTrigrams(ctx, expr, 5); err == nil && expr != `*` {
			t.Logf("MatchTrigrams(%q) accepted", expr)
		}
	}
	if n := count(t, s, "SELECT count(*) FROM tools"); n != 1 {
		t.Errorf("tools table damaged: %d rows", n)
	}
	for _, blank := range []string{"", "  \t"} {
		hits, err := s.MatchWords(ctx, blank, [5]float64{1, 1, 1, 1, 1}, 5)
		if err != nil || hits != nil {
			t.Errorf("MatchWords(%q) = %v, %v; want nothing", blank, hits, err)
		}
	}
}

func TestMatchTrigramsAndTerms(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "cal",
		tool("list_calendars", "List every calendar of the account"),
		tool("create_event", "Create an event in a calendar"),
		tool("send_message", "Send a chat message"),
	)
	// "calender": the trigrams of the typo, OR-ed.
	typo := `"cal" OR "ale" OR "len" OR "end" OR "nde" OR "der"`
	hits, err := s.MatchTrigrams(ctx, typo, 10)
	if err != nil {
		t.Fatal(err)
	}
	send, _ := s.Tool(ctx, "cal", "send_message")
	if len(hits) < 2 || slices.Contains(ids(hits)[:2], send.ID) {
		t.Errorf("trigram hits %v: calendar tools should lead, not %d", hits, send.ID)
	}
	if hits, _ := s.MatchTrigrams(ctx, `"calender"`, 10); len(hits) != 0 {
		t.Errorf("plain trigram MATCH of a typo found %v; the test's premise changed", hits)
	}

	got, err := s.Terms(ctx, []string{"Calendar", "message", "calender", "an"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"Calendar": 2, "message": 1}; !mapsEqual(got, want) {
		t.Errorf("Terms = %v, want %v", got, want)
	}
}

func TestVocabularyCountsTools(t *testing.T) {
	tests := []struct {
		doc  Doc
		want []string
	}{
		{Doc{Name: "send_message send message", Desc: "Send a message to Zoë's channel #42"},
			[]string{"channel", "message", "send", "zoë"}},
		{Doc{Desc: "an ox is 1 of 100", Enums: "ASC DESC"}, []string{"100", "asc", "desc"}},
		{Doc{Params: "x-api-version user.email"}, []string{"api", "email", "user", "version"}},
	}
	for _, tt := range tests {
		got := slices.Sorted(maps.Keys(vocabulary(tt.doc)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("vocabulary(%+v) = %q, want %q", tt.doc, got, tt.want)
		}
	}
}

// TestMatchTiesAtTheLimit: tools scoring alike are cut at the limit in
// server and name order, whatever order they were stored in, and a limit
// past the matches, or none, returns every match.
func TestMatchTiesAtTheLimit(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	// Same text, so the same score; stored z first so rowids run against key order.
	for _, server := range []string{"z", "b", "m"} {
		mustReplace(t, s, server,
			Tool{Name: "send", Doc: Doc{Name: "mail", Desc: "Send an email now"}},
			Tool{Name: "post", Doc: Doc{Name: "mail", Desc: "Send an email now"}},
		)
	}
	mustReplace(t, s, "a", Tool{Name: "best", Doc: Doc{Name: "mail", Desc: "Send an email, an email"}})
	keys := func(hs []Hit) []string {
		var out []string
		for _, h := range hs {
			out = append(out, strings.ReplaceAll(h.Key, "\x00", "/"))
		}
		return out
	}
	tests := []struct {
		limit int
		want  []string
	}{
		{1, []string{"a/best"}},
		{2, []string{"a/best", "b/post"}},
		{4, []string{"a/best", "b/post", "b/send", "m/post"}},
		{7, []string{"a/best", "b/post", "b/send", "m/post", "m/send", "z/post", "z/send"}},
		{50, []string{"a/best", "b/post", "b/send", "m/post", "m/send", "z/post", "z/send"}},
		{0, []string{"a/best", "b/post", "b/send", "m/post", "m/send", "z/post", "z/send"}},
	}
	for _, tt := range tests {
		for name, match := range map[string]func() ([]Hit, error){
			"words":    func() ([]Hit, error) { return s.MatchWords(ctx, `"email"`, [5]float64{1, 1, 1, 1, 1}, tt.limit) },
			"trigrams": func() ([]Hit, error) { return s.MatchTrigrams(ctx, `"email"`, tt.limit) },
		} {
			hits, err := match()
			if err != nil {
				t.Fatal(err)
			}
			if got := keys(hits); !slices.Equal(got, tt.want) {
				t.Errorf("%s limit %d: %v, want %v", name, tt.limit, got, tt.want)
			}
		}
	}
}

// TestMatchTiesPastTheSlack: when more tools tie at the limit than
// matchKeyed keeps by score alone, the exact query still cuts them in
// server and name order.
func TestMatchTiesPastTheSlack(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var want []string
	n := tieSlack + 8
	for i := n - 1; i >= 0; i-- { // stored against key order
		server := fmt.Sprintf("s%02d", i)
		mustReplace(t, s, server, Tool{Name: "send", Doc: Doc{Name: "mail", Desc: "Send an email now"}})
	}
	for i := range 3 {
		want = append(want, fmt.Sprintf("s%02d\x00send", i))
	}
	for name, match := range map[string]func() ([]Hit, error){
		"words":    func() ([]Hit, error) { return s.MatchWords(ctx, `"email"`, [5]float64{1, 1, 1, 1, 1}, 3) },
		"trigrams": func() ([]Hit, error) { return s.MatchTrigrams(ctx, `"email"`, 3) },
	} {
		hits, err := match()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Key)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestMatchWordsIgnoresLength: the word table keeps no row lengths
// (migration 5), so a tool described at length scores as a terse one
// with the same words, and a word said twice scores higher, even in a
// catalog of very short texts.
func TestMatchWordsIgnoresLength(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	long := "Send an email " + strings.Repeat("with many other words about it ", 40)
	mustReplace(t, s, "m",
		Tool{Name: "terse", Doc: Doc{Name: "terse", Desc: "Send an email"}},
		Tool{Name: "verbose", Doc: Doc{Name: "verbose", Desc: long}},
		Tool{Name: "twice", Doc: Doc{Name: "twice", Desc: "email, email"}},
		Tool{Name: "other", Doc: Doc{Name: "other", Desc: "x"}},
	)
	hits, err := s.MatchWords(ctx, `"email"`, [5]float64{1, 1, 1, 1, 1}, 10)
	if err != nil {
		t.Fatal(err)
	}
	score := make(map[string]float64)
	for _, h := range hits {
		score[strings.TrimPrefix(h.Key, "m\x00")] = h.Score
	}
	if len(hits) != 3 || score["terse"] != score["verbose"] || score["twice"] <= score["terse"] || score["terse"] <= 0 {
		t.Errorf("scores %v: want terse = verbose > 0 and twice above them", score)
	}
	if hits, _ := s.MatchWords(ctx, `"capbridgepad"`, [5]float64{1, 1, 1, 1, 1}, 10); len(hits) != 0 {
		t.Errorf("the pad column matched a search: %v", hits)
	}
}

// TestMigrationFiveRebuildsWords opens a catalog whose word table is the
// version-4 one, holding rows: migration 5 rebuilds it from the tools, and
// searches, deletes and the FTS5 integrity check work on the new one.
func TestMigrationFiveRebuildsWords(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustReplace(t, s, "mail", tool("send_message", "Send an email"), tool("list_folders", "List mail folders"))
	mustReplace(t, s, "big", refused("giant", "too big"))
	for _, q := range []string{
		"DROP TABLE features", // migration 13
		"ALTER TABLE servers DROP COLUMN capabilities",
		"ALTER TABLE servers DROP COLUMN features_note",
		"ALTER TABLE servers DROP COLUMN features_listing", // migration 16 adds it
		"ALTER TABLE tools DROP COLUMN card_sum",           // migration 15 adds it
		"ALTER TABLE calls DROP COLUMN flagged",            // migration 11 adds it
		"CREATE VIRTUAL TABLE terms_trigrams USING fts5(term, tokenize = 'trigram', content = '', contentless_delete = 1)", // migration 10 drops it
		"DROP TABLE learned",                       // migration 14
		"DROP TABLE word_postings",                 // migration 9
		"ALTER TABLE calls DROP COLUMN redactions", // migration 8's
		"DROP TABLE pins",                          // migration 6
		"DROP INDEX tools_key",
		"ALTER TABLE tools DROP COLUMN doc_len",
		"CREATE INDEX tools_key ON tools (id, server, name)",
		"DROP TABLE tool_words",
		`CREATE VIRTUAL TABLE tool_words USING fts5(name, desc, params, param_descs, enums,
			tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1)`,
		`INSERT INTO tool_words (rowid, name, desc, params, param_descs, enums)
			SELECT id, doc_name, doc_desc, doc_params, doc_param_descs, doc_enums FROM tools WHERE refusal = ''`,
		"PRAGMA user_version = 4",
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hits, err := s.MatchWords(ctx, `"email"`, [5]float64{1, 1, 1, 1, 1}, 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("after migration 5: hits %v, %v; want send_message", hits, err)
	}
	if want := len("send_message") + len("Send an email") + len("[]"); hits[0].Len != want {
		t.Errorf("after migration 5: send_message has Len %d, want %d", hits[0].Len, want)
	}
	if n, _, err := s.TextStats(ctx); n != 2 || err != nil {
		t.Errorf("after migration 5: TextStats counts %d tools (%v), want 2: the refused one left out", n, err)
	}
	checkIndex(t, s)
	mustReplace(t, s, "mail", tool("list_folders", "List mail folders"))
	if hits, _ := s.MatchWords(ctx, `"email"`, [5]float64{1, 1, 1, 1, 1}, 10); len(hits) != 0 {
		t.Errorf("a removed tool still matches: %v", hits)
	}
	checkIndex(t, s)
	checkIntegrity(t, s)
}

// TestHitLengthsAndTextStats: both legs' hits carry the length of the
// tool's search text (every Doc field, in characters), and TextStats
// counts and averages searchable tools only, after a tool is refused too.
func TestHitLengthsAndTextStats(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	short := Tool{Name: "ping", Doc: Doc{Name: "ping", Desc: "Check the mail server"}}
	long := Tool{Name: "send", Doc: Doc{Name: "send mail", Desc: "Send a mail", Params: "to body",
		ParamDescs: "Recipient; the text", Enums: "plain html"}}
	mustReplace(t, s, "m", short, long, refused("giant", "too big"))
	wantLen := map[string]int{"ping": 4 + 21, "send": 9 + 11 + 7 + 19 + 10}
	for leg, match := range map[string]func() ([]Hit, error){
		"words":    func() ([]Hit, error) { return s.MatchWords(ctx, `"mail"`, [5]float64{1, 1, 1, 1, 1}, 10) },
		"trigrams": func() ([]Hit, error) { return s.MatchTrigrams(ctx, `"mai"`, 10) },
	} {
		hits, err := match()
		if err != nil {
			t.Fatalf("%s: %v", leg, err)
		}
		if len(hits) != 2 {
			t.Fatalf("%s: %d hits, want 2", leg, len(hits))
		}
		for _, h := range hits {
			name := strings.TrimPrefix(h.Key, "m\x00")
			if h.Len != wantLen[name] {
				t.Errorf("%s: %s has Len %d, want %d", leg, name, h.Len, wantLen[name])
			}
		}
	}
	n, mean, err := s.TextStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := float64(wantLen["ping"]+wantLen["send"]) / 2; n != 2 || mean != want {
		t.Errorf("TextStats = %d, %.1f; want 2, %.1f (the refused tool left out)", n, mean, want)
	}
	if plan := queryPlan(t, s, textStats); len(plan) != 1 || !strings.Contains(plan[0], "COVERING INDEX tools_key") {
		t.Errorf("TextStats plan %q, want a scan of the covering index tools_key alone", plan)
	}
	mustReplace(t, s, "m", short, refused("send", "now too big"))
	if n, mean, _ := s.TextStats(ctx); n != 1 || mean != float64(wantLen["ping"]) {
		t.Errorf("after refusing send: TextStats = %d, %.1f; want 1, %d", n, mean, wantLen["ping"])
	}
}
