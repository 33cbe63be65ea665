package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// statsTool is the demo_stats tool every demo server adds to its catalog
// (demo.Options.StatsTool): the same text on five servers, so BM25 ties
// it with itself and only a tie-break tells the copies apart.
const statsTool = `{"name":"demo_stats","title":"Demo server statistics",` +
	`"description":"Report how many tool calls this demo server process has answered since it started, in total and per tool. Read-only; for checking that a tool was called exactly once.",` +
	`"inputSchema":{"type":"object","properties":{}}}`

// demoSearcherOrdered ingests the demo catalog as `capbridge demo` serves
// it (each server with demo_stats), one server at a time in the order
// given ("stress" is the stress tool): the servers' tools get rowids in
// that order, as parallel indexing may give them.
func demoSearcherOrdered(t testing.TB, servers []string) *Searcher {
	t.Helper()
	ctx := context.Background()
	st := openStore(t)
	lines, err := os.ReadFile(filepath.Join("..", "demo", "catalog", "tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	byServer := make(map[string][][]byte)
	for _, line := range bytes.Split(lines, []byte("\n")) {
		var obj struct{ Server string }
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := json.Unmarshal(line, &obj); err != nil {
			t.Fatal(err)
		}
		byServer[obj.Server] = append(byServer[obj.Server], line)
	}
	for _, server := range servers {
		if server == "stress" {
			stress, err := os.ReadFile(filepath.Join("..", "demo", "catalog", "stress.json"))
			if err != nil {
				t.Fatal(err)
			}
			raws := []json.RawMessage{stress, json.RawMessage(statsTool)}
			if _, err := Ingest(ctx, st, store.Server{Name: "stress"}, raws, nil); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if len(byServer[server]) == 0 {
			t.Fatalf("demo catalog has no server %q", server)
		}
		stats := fmt.Sprintf(`{"server":%q,%s`, server, statsTool[1:])
		lines := append(byServer[server], []byte(stats))
		if _, err := LoadCatalog(ctx, st, bytes.NewReader(bytes.Join(lines, []byte("\n"))), nil); err != nil {
			t.Fatal(err)
		}
		delete(byServer, server)
	}
	if len(byServer) > 0 {
		t.Fatalf("servers left out of the order: %v", byServer)
	}
	return New(st, nil)
}

// ranking renders results as server/name=score lines: two rankings are
// the same only if tools, order and scores all agree.
func ranking(rs []Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s/%s=%.6f\n", r.Server, r.Name, r.Score)
	}
	return b.String()
}

// TestRankingIgnoresIndexOrder: the same catalog and intent give the same
// ranking whatever order the servers were indexed in (tools get different
// rowids), for every demo intent.
func TestRankingIgnoresIndexOrder(t *testing.T) {
	tests := []struct {
		name    string
		servers []string
	}{
		{"reverse", []string{"stress", "helpdesk", "files", "crm", "calendar"}},
		{"shuffled", []string{"crm", "stress", "helpdesk", "calendar", "files"}},
	}
	base := demoSearcherOrdered(t, []string{"calendar", "crm", "files", "helpdesk", "stress"})
	intents := []string{"how many calls has each demo server answered"}
	for _, in := range demoIntents {
		intents = append(intents, in.intent)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := demoSearcherOrdered(t, tt.servers)
			for _, intent := range intents {
				want, err := base.Search(context.Background(), intent, Query{Limit: 5})
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Search(context.Background(), intent, Query{Limit: 5})
				if err != nil {
					t.Fatal(err)
				}
				if ranking(got) != ranking(want) {
					t.Errorf("Search(%q) indexed %v:\n%s\nindexed in name order:\n%s", intent, tt.servers, ranking(got), ranking(want))
				}
			}
		})
	}
}

// minFlagshipLead is how far the demo's flagship intent's tool must lead
// the runner-up (fused score ratio): a lead within rounding of the
// runner-up flips with any change to the catalog's statistics.
const minFlagshipLead = 1.1

// TestFlagshipLead: create_ticket wins "open a case for a customer who
// can't log in" clearly, not by a rounding error, on the catalog as
// `capbridge demo` serves it.
func TestFlagshipLead(t *testing.T) {
	s := demoSearcherOrdered(t, []string{"calendar", "crm", "files", "helpdesk", "stress"})
	in := demoIntents[0]
	rs, err := s.Search(context.Background(), in.intent, Query{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 2 || rs[0].Server+"/"+rs[0].Name != in.want {
		t.Fatalf("Search(%q) =\n%s; want %s first", in.intent, ranking(rs), in.want)
	}
	if lead := rs[0].Score / rs[1].Score; lead < minFlagshipLead {
		t.Errorf("Search(%q) =\n%s; %s leads by %.3f, want at least %.2f", in.intent, ranking(rs), in.want, lead, minFlagshipLead)
	}
}
