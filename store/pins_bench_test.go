package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPinReads times the reads pinning adds to the bridge's hot
// paths, over 5,000 pinned tools of which 3 are held: Held on every
// discovery, IsHeld on every run (Pin, the whole row, when a run finds
// the definition changed).
//
//	go test -run '^$' -bench BenchmarkPinReads ./store/
func BenchmarkPinReads(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	tools := make([]Tool, 5000)
	for i := range tools {
		def := fmt.Sprintf(`{"name":"tool_%d","description":%q}`, i, strings.Repeat("words ", 200))
		tools[i] = tool(fmt.Sprintf("tool_%d", i), "does a thing")
		tools[i].Definition, tools[i].Hash = []byte(def), fmt.Sprint("h", i)
	}
	held := func(pinned *Pin, t *Tool) Pin {
		p := Pin{Hash: t.Hash, Definition: t.Definition}
		p.Held = t.Name == "tool_7" || t.Name == "tool_700" || t.Name == "tool_4000"
		return p
	}
	if err := s.ReplacePinned(ctx, Server{Name: "big"}, tools, held); err != nil {
		b.Fatal(err)
	}
	b.Run("Held", func(b *testing.B) {
		for b.Loop() {
			if h, err := s.Held(ctx); err != nil || len(h) != 3 {
				b.Fatal(h, err)
			}
		}
	})
	b.Run("IsHeld", func(b *testing.B) {
		for b.Loop() {
			if held, err := s.IsHeld(ctx, "big", "tool_700"); err != nil || !held {
				b.Fatal(held, err)
			}
		}
	})
	b.Run("Pin", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Pin(ctx, "big", "tool_2500"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
