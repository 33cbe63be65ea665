package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLearnedUses: a learned run is read back with its tool's id while the
// tool keeps the definition it was chosen for, and no longer once the
// definition changes or the tool is refused; the version follows both.
func TestLearnedUses(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "files", tool("read_file", "Read a file"), tool("write_file", "Write a file"))
	at := time.UnixMilli(1_790_000_000_000)
	if err := s.AddLearned(ctx, []Learned{
		{At: at, Words: []string{"open", "note"}, Server: "files", Tool: "read_file", Hash: "h-read_file", Weight: 1},
		{At: at, Words: []string{"save", "note"}, Server: "files", Tool: "write_file", Hash: "h-write_file", Weight: 0.5},
		{At: at, Words: []string{"gone"}, Server: "files", Tool: "delete_file", Hash: "h-delete_file", Weight: 1},
	}); err != nil {
		t.Fatal(err)
	}
	v1, uses, err := s.LearnedSince(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) != 2 || uses[0].Tool != "read_file" || uses[0].ToolID == 0 || uses[1].Weight != 0.5 ||
		!uses[0].At.Equal(at) || len(uses[1].Words) != 2 || uses[1].Words[0] != "save" {
		t.Fatalf("LearnedUses = %+v, want read_file and write_file as stored", uses)
	}
	if v, err := s.LearnedVersion(ctx); err != nil || v != v1 || v.Newest != 3 {
		t.Errorf("LearnedVersion = %+v, %v; want %+v as LearnedSince read it, newest 3", v, err, v1)
	}
	if _, later, err := s.LearnedSince(ctx, 1); err != nil || len(later) != 1 || later[0].Tool != "write_file" {
		t.Errorf("LearnedSince(1) = %+v, %v; want write_file alone", later, err)
	}
	changed := tool("read_file", "Read a file, changed")
	changed.Hash = "h-read_file-2"
	mustReplace(t, s, "files", changed, tool("write_file", "Write a file"))
	v2, uses, err := s.LearnedSince(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v2.Base == v1.Base || len(uses) != 1 || uses[0].Tool != "write_file" {
		t.Errorf("after read_file changed: version %+v (was %+v), uses %+v; want a new base and write_file alone", v2, v1, uses)
	}
	mustReplace(t, s, "files", changed, refused("write_file", "hostile"))
	if _, uses, _ := s.LearnedSince(ctx, 0); len(uses) != 0 {
		t.Errorf("after write_file was refused: uses %+v, want none", uses)
	}
}

// TestLearnedBounded: past MaxLearned runs the oldest are dropped, down
// to three quarters of it, and the version's base says so.
func TestLearnedBounded(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "files", tool("read_file", "Read a file"))
	batch := make([]Learned, MaxLearned/4)
	v0, _ := s.LearnedVersion(ctx)
	for round := range 4 {
		for i := range batch {
			batch[i] = Learned{Words: []string{"w", string(rune('a' + round))}, Server: "files", Tool: "read_file", Hash: "h-read_file", Weight: 1}
		}
		if err := s.AddLearned(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := s.LearnedVersion(ctx); v.Base != v0.Base || count(t, s, "SELECT count(*) FROM learned") != MaxLearned {
		t.Fatalf("at MaxLearned runs: base %q (was %q); want nothing dropped yet", v.Base, v0.Base)
	}
	if err := s.AddLearned(ctx, batch[:1]); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM learned"); n != MaxLearned*3/4 {
		t.Errorf("%d runs kept, want three quarters of MaxLearned (%d)", n, MaxLearned*3/4)
	}
	if n := count(t, s, "SELECT count(*) FROM learned WHERE words = 'w a'"); n != 0 {
		t.Errorf("%d runs of the first round kept, want the oldest dropped", n)
	}
	if v, _ := s.LearnedVersion(ctx); v.Base == v0.Base {
		t.Errorf("base %q unchanged by dropping runs", v.Base)
	}
}

func TestLearnedRefusesBadRuns(t *testing.T) {
	s, _ := openTemp(t)
	for _, l := range []Learned{
		{Server: "files", Tool: "read_file", Weight: 1},
		{Words: []string{"w"}, Tool: "read_file", Weight: 1},
		{Words: []string{"w"}, Server: "files", Tool: "read_file", Weight: 0},
		{Words: []string{"w"}, Server: "files", Tool: "read_file", Weight: 1.5},
	} {
		if err := s.AddLearned(context.Background(), []Learned{l}); !errors.Is(err, ErrBadLearned) {
			t.Errorf("AddLearned(%+v) = %v, want ErrBadLearned", l, err)
		}
	}
}

func TestForgetLearned(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "files", tool("read_file", "Read a file"))
	mustReplace(t, s, "mail", tool("send", "Send mail"))
	runs := []Learned{
		{Words: []string{"open"}, Server: "files", Tool: "read_file", Hash: "h-read_file", Weight: 1},
		{Words: []string{"mail"}, Server: "mail", Tool: "send", Hash: "h-send", Weight: 1},
	}
	if err := s.AddLearned(ctx, runs); err != nil {
		t.Fatal(err)
	}
	v1, _ := s.LearnedVersion(ctx)
	if n, err := s.ForgetLearned(ctx, "mail"); err != nil || n != 1 {
		t.Fatalf("ForgetLearned(mail) = %d, %v; want 1", n, err)
	}
	if _, uses, _ := s.LearnedSince(ctx, 0); len(uses) != 1 || uses[0].Server != "files" {
		t.Errorf("after forgetting mail: %+v, want files' run alone", uses)
	}
	if v2, _ := s.LearnedVersion(ctx); v2.Base == v1.Base {
		t.Errorf("base %q unchanged by forgetting", v2.Base)
	}
	if n, err := s.ForgetLearned(ctx, ""); err != nil || n != 1 {
		t.Errorf("ForgetLearned(all) = %d, %v; want 1", n, err)
	}
}
