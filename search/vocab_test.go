package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// TestCorrectionsFollowTheCatalog: a Searcher keeps the vocabulary in
// memory, and a word a server adds after the first correction is a
// correction target at once; a word its server takes away is not.
func TestCorrectionsFollowTheCatalog(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	ingest := func(server, name, desc string) {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"name": name, "description": desc,
			"inputSchema": map[string]any{"type": "object"}})
		if _, err := Ingest(ctx, st, store.Server{Name: server}, []json.RawMessage{raw}, nil); err != nil {
			t.Fatal(err)
		}
	}
	ingest("mail", "send_message", "Send an email message")
	s := New(st, nil)
	if fixed := s.corrections(ctx, []string{"calender"}); len(fixed) != 0 {
		t.Fatalf("corrections before any calendar tool: %v", fixed)
	}
	ingest("cal", "list_events", "List the events of a calendar")
	if fixed := s.corrections(ctx, []string{"calender"}); fixed["calender"].Text != "calendar" {
		t.Errorf("corrections after a calendar tool came: %v, want calendar", fixed)
	}
	ingest("cal", "list_events", "List the events")
	if fixed := s.corrections(ctx, []string{"calender"}); len(fixed) != 0 {
		t.Errorf("corrections after the calendar tool went: %v, want none", fixed)
	}
}
