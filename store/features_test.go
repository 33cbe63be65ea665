package store

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func feature(kind, key, def string) Feature {
	return Feature{Kind: kind, Key: key, Hash: "h-" + def, Definition: []byte(def), PinName: kind + ":" + key}
}

func TestFeaturesReplacedWholeAndPinned(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.ReplaceFeatures(ctx, "ghost", FeatureListing{}, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("features of an unstored server: %v, want ErrNotFound", err)
	}
	mustReplace(t, s, "everything", tool("echo", "echoes"))
	mustReplace(t, s, "notes", tool("read", "reads a note"))

	first := FeatureListing{Capabilities: []byte(`{"prompts":{}}`), Note: "resources refused past 2", Features: []Feature{
		feature("prompt", "greet", `{"name":"greet"}`),
		feature("resource", "demo://1", `{"uri":"demo://1"}`),
	}}
	if err := s.ReplaceFeatures(ctx, "everything", first, holdChanges); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceFeatures(ctx, "notes", FeatureListing{Features: []Feature{feature("template", "note://{id}", `{"uriTemplate":"note://{id}"}`)}}, holdChanges); err != nil {
		t.Fatal(err)
	}
	keys := func() []string {
		t.Helper()
		fs, err := s.Features(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range fs {
			out = append(out, f.Server+"/"+f.Kind+":"+f.Key+"="+string(f.Definition))
		}
		return out
	}
	want := []string{`everything/prompt:greet={"name":"greet"}`, `everything/resource:demo://1={"uri":"demo://1"}`, `notes/template:note://{id}={"uriTemplate":"note://{id}"}`}
	if got := keys(); !slices.Equal(got, want) {
		t.Fatalf("features:\n%q\nwant\n%q", got, want)
	}

	// A second listing replaces the first whole; a changed prompt is held by
	// the rule, as a changed tool is.
	second := FeatureListing{Capabilities: []byte(`{"prompts":{"listChanged":true}}`), Features: []Feature{
		feature("prompt", "greet", `{"name":"greet","description":"changed"}`),
	}}
	if err := s.ReplaceFeatures(ctx, "everything", second, holdChanges); err != nil {
		t.Fatal(err)
	}
	want = []string{`everything/prompt:greet={"name":"greet","description":"changed"}`, `notes/template:note://{id}={"uriTemplate":"note://{id}"}`}
	if got := keys(); !slices.Equal(got, want) {
		t.Fatalf("after a second listing:\n%q\nwant\n%q", got, want)
	}
	held, err := s.Held(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != 1 || held[0].Server != "everything" || held[0].Tool != "prompt:greet" {
		t.Fatalf("held after the change: %+v", held)
	}
	listings, err := s.FeatureListings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(listings) != 2 || string(listings[0].Capabilities) != `{"prompts":{"listChanged":true}}` || listings[0].Note != "" ||
		listings[1].Capabilities != nil {
		t.Fatalf("listings: %+v", listings)
	}
	peek, err := s.PeekCapabilities(ctx)
	if err != nil || len(peek) != 1 || peek[0].Server != "everything" || string(peek[0].Capabilities) != string(listings[0].Capabilities) {
		t.Fatalf("PeekCapabilities: %+v, %v", peek, err)
	}
	// Held features are not counted as held tools.
	servers, err := s.Servers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if servers[0].Held != 0 {
		t.Fatalf("a held prompt counted as a held tool: %+v", servers[0])
	}
	if _, err := s.Approve(ctx, "everything", "prompt:greet"); err != nil {
		t.Fatal(err)
	}
	if held, _ := s.Held(ctx); len(held) != 0 {
		t.Fatalf("still held after approve: %+v", held)
	}
	// Removing the server removes its features.
	if err := s.RemoveServer(ctx, "everything"); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM features WHERE server = 'everything'"); n != 0 {
		t.Fatalf("%d features left after RemoveServer", n)
	}
}
