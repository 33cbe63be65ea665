package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// defined is tool with a definition: its text stands for the definition.
func defined(name, def string) Tool {
	t := tool(name, def)
	t.Definition, t.Hash = []byte(def), "h-"+def
	return t
}

// holdChanges is a rule as the bridge's strict mode makes it: a new tool
// is pinned, a changed one held with what changed.
func holdChanges(pinned *Pin, t *Tool) Pin {
	if pinned == nil {
		return Pin{Hash: t.Hash, Definition: t.Definition}
	}
	if h, _ := pinned.Current(); h == t.Hash {
		return *pinned
	}
	p := *pinned
	p.ListedHash, p.Listed = t.Hash, t.Definition
	p.Previous, p.Changed, p.ChangedAt = pinned.Definition, []string{"description"}, time.UnixMilli(1000)
	p.Held, p.Reason = true, "strict"
	return p
}

func TestPinsFollowListingsAndApprovals(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	srv := Server{Name: "notes"}
	replace := func(tools ...Tool) {
		t.Helper()
		if err := s.ReplacePinned(ctx, srv, toolSeq(tools...), holdChanges); err != nil {
			t.Fatal(err)
		}
	}
	heldNames := func() []string {
		t.Helper()
		held, err := s.Held(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range held {
			out = append(out, h.Server+"/"+h.Tool+": "+h.Reason)
		}
		return out
	}

	replace(defined("read_note", "reads"), defined("list_notes", "lists"), refused("bad", "too big"))
	pins, err := s.Pins(ctx, "notes")
	if err != nil || len(pins) != 2 || pins[0].Tool != "list_notes" || string(pins[1].Definition) != "reads" || pins[1].Held {
		t.Fatalf("pins after first sight = %+v, %v; want both listed tools pinned, not held", pins, err)
	}

	// A changed definition is held; the tool's row follows the listing.
	replace(defined("read_note", "deletes"), defined("list_notes", "lists"))
	if got := heldNames(); !slices.Equal(got, []string{"notes/read_note: strict"}) {
		t.Fatalf("held = %q", got)
	}
	for tool, want := range map[string]bool{"read_note": true, "list_notes": false, "never_listed": false} {
		if held, err := s.IsHeld(ctx, "notes", tool); err != nil || held != want {
			t.Errorf("IsHeld(%s) = %v, %v; want %v", tool, held, err, want)
		}
	}
	p, err := s.Pin(ctx, "notes", "read_note")
	if err != nil || string(p.Definition) != "reads" || string(p.Listed) != "deletes" || string(p.Previous) != "reads" ||
		!slices.Equal(p.Changed, []string{"description"}) || p.ChangedAt.UnixMilli() != 1000 {
		t.Fatalf("pin = %+v, %v", p, err)
	}
	if servers, _ := s.Servers(ctx); len(servers) != 1 || servers[0].Held != 1 || servers[0].Tools != 2 {
		t.Errorf("servers = %+v, want 2 tools, 1 held", servers)
	}

	// A tool that leaves the listing keeps its pin, and comes back held.
	replace(defined("list_notes", "lists"))
	replace(defined("read_note", "deletes"), defined("list_notes", "lists"))
	if got := heldNames(); len(got) != 1 {
		t.Fatalf("held after leaving and coming back = %q", got)
	}

	// Approving makes the listed definition the pin and releases it.
	if _, err := s.Approve(ctx, "notes", "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("approving an unknown tool: %v, want ErrNotFound", err)
	}
	approved, err := s.Approve(ctx, "notes", "")
	if err != nil || len(approved) != 1 || approved[0].Tool != "read_note" || !approved[0].Held {
		t.Fatalf("Approve = %+v, %v", approved, err)
	}
	p, err = s.Pin(ctx, "notes", "read_note")
	if err != nil || string(p.Definition) != "deletes" || p.Hash != "h-deletes" || p.Listed != nil || p.Held || p.ApprovedAt.IsZero() {
		t.Fatalf("pin after approval = %+v, %v", p, err)
	}
	if got := heldNames(); len(got) != 0 {
		t.Errorf("held after approval = %q", got)
	}
	again, err := s.Approve(ctx, "notes", "read_note")
	if err != nil || len(again) != 0 {
		t.Errorf("approving the pin again = %+v, %v; want nothing to do", again, err)
	}

	// Removing the server removes its pins.
	if err := s.RemoveServer(ctx, "notes"); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM pins"); n != 0 {
		t.Errorf("%d pins left after RemoveServer", n)
	}
}

// TestReplaceCatalogLeavesPins: the unpinned replace neither reads nor
// writes pins.
func TestReplaceCatalogLeavesPins(t *testing.T) {
	s, _ := openTemp(t)
	mustReplace(t, s, "notes", defined("read_note", "reads"))
	if n := count(t, s, "SELECT count(*) FROM pins"); n != 0 {
		t.Errorf("ReplaceCatalog wrote %d pins", n)
	}
}
