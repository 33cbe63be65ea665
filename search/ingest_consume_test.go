package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/capbridge/capbridge/store"
)

// TestIngestConsume: with Consume, Ingest lets go of every raw tool it
// stored, and stores the same catalog as without; without it, raws are
// left as they were. A name listed twice with different definitions is
// refused whole, and its raws are kept.
func TestIngestConsume(t *testing.T) {
	for _, consume := range []bool{false, true} {
		ctx := context.Background()
		st := openStore(t)
		raws := []json.RawMessage{
			json.RawMessage(`{"name":"first","description":"a tool","inputSchema":{"type":"object"}}`),
			json.RawMessage(`{"name":"first","description":"its duplicate","inputSchema":{"type":"object"}}`),
			json.RawMessage(`{"name":"second","description":"another tool","inputSchema":{"type":"object"}}`),
		}
		rep, err := Ingest(ctx, st, store.Server{Name: "srv"}, raws, &IngestOptions{Consume: consume})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stored != 1 || len(rep.Refused) != 2 {
			t.Errorf("consume %v: %d stored, %d refused; want 1, 2", consume, rep.Stored, len(rep.Refused))
		}
		for i, want := range []bool{true, true, !consume} { // both copies of "first" are refused
			if got := raws[i] != nil; got != want {
				t.Errorf("consume %v: raws[%d] kept %v, want %v", consume, i, got, want)
			}
		}
		tools, err := st.Tools(ctx, "srv")
		if err != nil || len(tools) != 3 {
			t.Errorf("consume %v: %d tools stored (%v), want 3", consume, len(tools), err)
		}
	}
}
