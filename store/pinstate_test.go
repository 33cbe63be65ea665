package store

import (
	"context"
	"testing"
	"time"
)

// TestPinnedAt: the pins of a server's first listing share one time, a
// tool listed later gets a later one, a change keeps the time its pin was
// first written, and FirstPinned answers the earliest.
func TestPinnedAt(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	srv := Server{Name: "notes"}
	if _, pinned, err := s.FirstPinned(ctx, "notes"); err != nil || pinned {
		t.Fatalf("FirstPinned of a server never listed: %v, %v", pinned, err)
	}
	replace := func(tools ...Tool) {
		t.Helper()
		if err := s.ReplacePinned(ctx, srv, toolSeq(tools...), holdChanges); err != nil {
			t.Fatal(err)
		}
	}
	at := func(name string) time.Time {
		t.Helper()
		p, err := s.Pin(ctx, "notes", name)
		if err != nil {
			t.Fatal(err)
		}
		return p.PinnedAt
	}
	replace(defined("a", "a1"), defined("b", "b1"))
	first := at("a")
	if first.IsZero() || !at("b").Equal(first) {
		t.Fatalf("first listing: a %v, b %v; want one non-zero time", first, at("b"))
	}
	time.Sleep(5 * time.Millisecond)
	replace(defined("a", "a2"), defined("b", "b1"), defined("c", "c1"))
	if !at("a").Equal(first) {
		t.Errorf("a changed: pinned at %v, want its first %v", at("a"), first)
	}
	if !at("c").After(first) {
		t.Errorf("c, listed later, pinned at %v, not after %v", at("c"), first)
	}
	got, pinned, err := s.FirstPinned(ctx, "notes")
	if err != nil || !pinned || !got.Equal(first) {
		t.Errorf("FirstPinned = %v, %v, %v; want %v", got, pinned, err, first)
	}
}

// TestPinState reads a pin's state without its definitions.
func TestPinState(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.ReplacePinned(ctx, Server{Name: "notes"}, toolSeq(defined("a", "a1")), holdChanges); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplacePinned(ctx, Server{Name: "notes"}, toolSeq(defined("a", "a2")), holdChanges); err != nil {
		t.Fatal(err)
	}
	p, err := s.PinState(ctx, "notes", "a")
	if err != nil || !p.Found || !p.Held || p.Hash != "h-a1" || p.ListedHash != "h-a2" || p.Reason != "strict" || p.Approved {
		t.Errorf("PinState = %+v, %v", p, err)
	}
	if p, err := s.PinState(ctx, "notes", "none"); err != nil || p.Found {
		t.Errorf("PinState of no pin = %+v, %v", p, err)
	}
}

// TestCardSum: the store keeps the sum of each card it writes, and a card
// changed outside it reads back with a sum that does not match.
func TestCardSum(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.ReplaceCatalog(ctx, Server{Name: "notes"}, toolSeq(tool("a", "reads a note"))); err != nil {
		t.Fatal(err)
	}
	got, err := s.Tool(ctx, "notes", "a")
	if err != nil {
		t.Fatal(err)
	}
	if got.CardSum == "" || got.CardSum != CardSum(got.Card) {
		t.Fatalf("card sum %q, want the sum of %s", got.CardSum, got.Card)
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE tools SET card = ? WHERE name = 'a'", []byte(`{"summary":"edited"}`)); err != nil {
		t.Fatal(err)
	}
	if got, err = s.Tool(ctx, "notes", "a"); err != nil || got.CardSum == CardSum(got.Card) {
		t.Errorf("an edited card still matches its sum (%v)", err)
	}
}
