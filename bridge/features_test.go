package bridge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

func stored(server, kind, key, def string) store.Feature {
	return store.Feature{Server: server, Kind: kind, Key: key, Hash: "h-" + server + key, Definition: []byte(def)}
}

func TestOfferingKeepsUniqueKeysAndPrefixesCollisions(t *testing.T) {
	fs := []store.Feature{
		stored("a", schema.KindPrompt, "greet", `{"name":"greet","title":"Greeting"}`),
		stored("b", schema.KindPrompt, "greet", `{"name":"greet"}`),
		stored("b", schema.KindPrompt, "solo", `{"name":"solo"}`),
		stored("a", schema.KindResource, "file:///x", `{"uri":"file:///x","name":"x"}`),
		stored("b", schema.KindResource, "file:///x", `{"uri":"file:///x","name":"x"}`),
		stored("a", schema.KindTemplate, "notes://{id}", `{"uriTemplate":"notes://{id}","name":"note"}`),
		stored("off", schema.KindPrompt, "greet", `{"name":"greet"}`), // out of scope
		stored("b", schema.KindPrompt, "held", `{"name":"held"}`),
		stored("a", schema.KindTemplate, "bad://{", `{"uriTemplate":"bad://{"}`),
	}
	inScope := func(s string) bool { return s != "off" }
	o := newOffering(fs, inScope, map[heldKey]bool{{"b", "prompt:held"}: true})

	var prompts []string
	for k := range o.byKey[schema.KindPrompt] {
		prompts = append(prompts, k)
	}
	slices.Sort(prompts)
	if want := []string{"a__greet", "b__greet", "solo"}; !slices.Equal(prompts, want) {
		t.Fatalf("prompts %q, want %q", prompts, want)
	}
	of := o.get(schema.KindPrompt, "a__greet")
	var def struct{ Name, Title string }
	if err := json.Unmarshal(of.def, &def); err != nil {
		t.Fatal(err)
	}
	if of.server != "a" || of.orig != "greet" || def.Name != "a__greet" || def.Title != "Greeting (from a)" {
		t.Fatalf("a__greet: %+v %s", of, of.def)
	}
	if of := o.get(schema.KindPrompt, "b__greet"); !strings.Contains(string(of.def), `"title":"greet (from b)"`) {
		t.Fatalf("b__greet: a prompt without a title is titled by its name and server: %s", of.def)
	}
	if of := o.get(schema.KindResource, "capbridge://b/file:///x"); of == nil || of.orig != "file:///x" || !of.prefixed() {
		t.Fatalf("colliding resource of b: %+v", of)
	}
	if of := o.get(schema.KindResource, "capbridge://a/file:///x"); of == nil || of.server != "a" {
		t.Fatalf("colliding resource of a: %+v", of)
	}
	if of := o.get(schema.KindTemplate, "notes://{id}"); of == nil || of.prefixed() || !of.matches("notes://42") || of.matches("other://42") {
		t.Fatalf("unique template: %+v", of)
	}
	if o.get(schema.KindTemplate, "bad://{") != nil || len(o.left) != 1 {
		t.Fatalf("a template go-sdk cannot serve: offered, or not said (%q)", o.left)
	}
	if server, uri := "we ird", "demo://1"; !strings.HasPrefix(prefixKey(schema.KindResource, server, uri), "capbridge://we%20ird/") {
		t.Fatalf("a server name is escaped in a prefix: %s", prefixKey(schema.KindResource, server, uri))
	} else if orig, ok := unprefixURI(server, prefixKey(schema.KindResource, server, uri)); !ok || orig != uri {
		t.Fatalf("unprefix(prefix(%q)) = %q, %v", uri, orig, ok)
	}
}

// A prefixed name equal to another server's own name is not offered twice.
func TestOfferingPrefixedKeyTaken(t *testing.T) {
	fs := []store.Feature{
		stored("a", schema.KindPrompt, "x", `{"name":"x"}`),
		stored("b", schema.KindPrompt, "x", `{"name":"x"}`),
		stored("c", schema.KindPrompt, "a__x", `{"name":"a__x"}`),
	}
	o := newOffering(fs, func(string) bool { return true }, nil)
	if of := o.get(schema.KindPrompt, "a__x"); of == nil || of.server != "c" {
		t.Fatalf("a__x should stay c's own prompt: %+v", of)
	}
	if o.get(schema.KindPrompt, "b__x") == nil || len(o.left) != 1 {
		t.Fatalf("b__x offered and a's x left out, said once: %q", o.left)
	}
}
