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

// demoSearcher ingests the built-in demo catalog (demo/catalog/tools.jsonl
// and the oversized stress tool, as `capbridge demo` serves them) into a
// fresh store and returns a Searcher over it with default options.
func demoSearcher(t testing.TB) *Searcher {
	t.Helper()
	ctx := context.Background()
	st := openStore(t)
	f, err := os.Open(filepath.Join("..", "demo", "catalog", "tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := LoadCatalog(ctx, st, f, nil); err != nil {
		t.Fatal(err)
	}
	stress, err := os.ReadFile(filepath.Join("..", "demo", "catalog", "stress.json"))
	if err != nil {
		t.Fatal(err)
	}
	raws := []json.RawMessage{json.RawMessage(stress)}
	if _, err := Ingest(ctx, st, store.Server{Name: "stress"}, raws, nil); err != nil {
		t.Fatal(err)
	}
	return New(st, nil)
}

// demoIntents are loose, realistic requests a user might make of the demo
// catalog, each with the tool meant. They were written from reading the
// catalog, before any tuning against them, and are kept whatever the
// result: they measure the product's promise, they are not a tuning set.
// top is how high the tool must rank: 1, or 3 where another tool
// legitimately competes for the wording.
var demoIntents = []struct {
	intent string
	want   string // server/name
	top    int
}{
	{"open a case for a customer who can't log in", "helpdesk/create_ticket", 1},
	{"what meetings do I have tomorrow", "calendar/list_events", 1},
	{"move this file to the archive folder", "files/move_file", 1},
	{"send the customer a password reset", "crm/reset_customer_password", 1},
	{"find deals closing this month", "crm/list_deals", 1},
	{"a customer is locked out after too many wrong passwords", "crm/unlock_customer_account", 3},
	{"set up a call with the sales team next Tuesday", "calendar/create_event", 1},
	{"who is jane@acme.com in our CRM", "crm/lookup_customer_by_email", 1},
	{"note that I spoke to the client on the phone for ten minutes", "crm/log_call", 3},
	{"when is everyone free for an hour this week", "calendar/find_free_slots", 3},
	{"zip up the logs folder", "files/compress_files", 1},
	{"bump this ticket to the on-call engineer", "helpdesk/escalate_ticket", 1},
	{"mark the ticket as resolved", "helpdesk/close_ticket", 1},
	{"I'm on vacation next week, block my calendar", "calendar/set_out_of_office", 1},
	{"reply to the customer on their ticket", "helpdesk/add_comment", 1},
	{"give Bob edit access to the team calendar", "calendar/share_calendar", 1},
	{"show me what's in the reports directory", "files/list_directory", 1},
	{"cancel my 3pm meeting and let people know", "calendar/cancel_event", 1},
}

// minDemoHits is how many of demoIntents discovery answers as wanted
// today (13 of 18); fewer is a regression. The misses are logged.
const minDemoHits = 13

// TestDemoIntents holds discovery to the demo catalog's promise: each
// loose intent should rank its tool first (or within the top 3 where two
// tools compete). The flagship intent, the first, must; of the rest, a
// miss is logged and the hit rate may not fall below minDemoHits.
func TestDemoIntents(t *testing.T) {
	s := demoSearcher(t)
	hits := 0
	for i, tt := range demoIntents {
		rs, err := s.Search(context.Background(), tt.intent, Query{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		got := names(rs)
		rank := slices.Index(got, tt.want) + 1
		switch {
		case rank > 0 && rank <= tt.top:
			hits++
		case i == 0:
			t.Errorf("flagship: Search(%q) = %s; want %s first", tt.intent, strings.Join(got, ", "), tt.want)
		default:
			t.Logf("miss: Search(%q) = %s; want %s in the top %d", tt.intent, strings.Join(got, ", "), tt.want, tt.top)
		}
	}
	t.Logf("demo intents: %d of %d hit", hits, len(demoIntents))
	if hits < minDemoHits {
		t.Errorf("demo intents: %d of %d hit, want at least %d", hits, len(demoIntents), minDemoHits)
	}
}
