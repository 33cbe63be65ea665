package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPromptsAndResourcesLikeDirect lists, gets, reads and completes every
// prompt, resource and template of the pinned server-everything through
// `capbridge serve` (stdio and HTTP) and directly, with the same real
// go-sdk client, and compares the answers.
func TestPromptsAndResourcesLikeDirect(t *testing.T) {
	everything := npmUpstream(t, "everything")
	direct := connectDirect(t, everything, nil)
	want := readFeatures(t, direct)
	if len(want.prompts) < 4 || len(want.resources) < 7 || len(want.templates) < 2 {
		t.Fatalf("server-everything offers %d prompts, %d resources, %d templates: fewer than the issue counted",
			len(want.prompts), len(want.resources), len(want.templates))
	}

	cfg := writeConfig(t, map[string]serverEntry{"everything": everything}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	for _, tr := range bridgeTransports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.connect(t, cfg, db, nil)
			caps := cs.InitializeResult().Capabilities
			if caps.Prompts == nil || caps.Resources == nil || caps.Completions == nil {
				t.Errorf("capabilities %+v: prompts, resources and completions should be declared for server-everything", caps)
			}
			got := readFeatures(t, cs)
			compareFeatures(t, got, want)
		})
	}
}

// TestFeaturesDeclaredOnlyWhenOffered: a bridge over servers without
// prompts or resources declares neither, nor completions.
func TestFeaturesDeclaredOnlyWhenOffered(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	cs := startServe(t, cfg, db)
	caps := cs.InitializeResult().Capabilities
	if caps.Prompts != nil || caps.Resources != nil || caps.Completions != nil {
		t.Fatalf("capabilities %+v: nothing configured offers prompts, resources or completions", caps)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools/list: %v, %v", tools, err)
	}
}

// TestCollidingFeaturesPrefixed configures server-everything twice: every
// name and URI collides, so each is offered under its server's prefix,
// says where it comes from, and reads and gets exactly what the server's
// own does.
func TestCollidingFeaturesPrefixed(t *testing.T) {
	everything := npmUpstream(t, "everything")
	direct := connectDirect(t, everything, nil)
	want := readFeatures(t, direct)

	cfg := writeConfig(t, map[string]serverEntry{"one": everything, "two": everything}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	cs := startServe(t, cfg, db)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var names []string
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
		if !strings.HasSuffix(p.Title, "(from one)") && !strings.HasSuffix(p.Title, "(from two)") {
			t.Errorf("prompt %q: title %q does not say which server it comes from", p.Name, p.Title)
		}
	}
	for name := range want.prompts {
		for _, server := range []string{"one", "two"} {
			if !slices.Contains(names, server+"__"+name) {
				t.Errorf("prompt %q of %s not offered as %q: %q", name, server, server+"__"+name, names)
			}
		}
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "two__simple-prompt"})
	if err != nil {
		t.Fatal(err)
	}
	if got, w := jsonOf(t, res.Messages), jsonOf(t, want.messages["simple-prompt"]); got != w {
		t.Errorf("two__simple-prompt:\n%s\nwant the server's own\n%s", got, w)
	}
	var uris []string
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, r.URI)
	}
	for uri := range want.resources {
		if !slices.Contains(uris, "capbridge://one/"+uri) || !slices.Contains(uris, "capbridge://two/"+uri) {
			t.Errorf("resource %q not offered under both prefixes: %q", uri, uris)
		}
	}
	for uri, contents := range want.contents {
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "capbridge://one/" + uri})
		if err != nil {
			t.Fatalf("read %s through the prefix: %v", uri, err)
		}
		for _, c := range read.Contents {
			if c.URI != "capbridge://one/"+uri {
				t.Errorf("read %s: contents name %q, not the URI read", uri, c.URI)
			}
			c.URI = uri
		}
		if got, w := jsonOf(t, read.Contents), jsonOf(t, contents); got != w {
			t.Errorf("read %s through the prefix:\n%s\nwant\n%s", uri, got, w)
		}
		break // one is enough here: TestPromptsAndResourcesLikeDirect reads them all
	}
	// A template read through its prefix reaches the server's template.
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "capbridge://two/demo://resource/dynamic/text/3"})
	if err != nil {
		t.Fatalf("read through a prefixed template: %v", err)
	}
	if len(read.Contents) != 1 || read.Contents[0].URI != "capbridge://two/demo://resource/dynamic/text/3" || read.Contents[0].Text == "" {
		t.Fatalf("read through a prefixed template: %s", jsonOf(t, read.Contents))
	}
}

// features is what a client reads of a server's prompts and resources.
type features struct {
	prompts     map[string]string // name -> the prompt as listed, JSON
	messages    map[string][]*mcp.PromptMessage
	resources   map[string]string // uri -> as listed
	contents    map[string][]*mcp.ResourceContents
	templates   map[string]string // uriTemplate -> as listed
	completions map[string][]string
}

// promptArgs are arguments each server-everything prompt accepts.
var promptArgs = map[string]map[string]string{
	"args-prompt":        {"city": "Paris", "state": "Texas"},
	"completable-prompt": {"department": "Engineering", "name": "Alice"},
	"resource-prompt":    {"resourceType": "Text", "resourceId": "2"},
}

func readFeatures(t *testing.T, cs *mcp.ClientSession) features {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f := features{prompts: map[string]string{}, messages: map[string][]*mcp.PromptMessage{}, resources: map[string]string{},
		contents: map[string][]*mcp.ResourceContents{}, templates: map[string]string{}, completions: map[string][]string{}}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatalf("prompts/list: %v", err)
		}
		f.prompts[p.Name] = jsonOf(t, p)
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: promptArgs[p.Name]})
		if err != nil {
			t.Fatalf("prompts/get %s: %v", p.Name, err)
		}
		f.messages[p.Name] = res.Messages
		for _, a := range p.Arguments {
			c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: p.Name},
				Argument: mcp.CompleteParamsArgument{Name: a.Name, Value: ""}})
			if err != nil {
				t.Fatalf("completion/complete %s/%s: %v", p.Name, a.Name, err)
			}
			f.completions[p.Name+"/"+a.Name] = c.Completion.Values
		}
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatalf("resources/list: %v", err)
		}
		f.resources[r.URI] = jsonOf(t, r)
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatalf("resources/read %s: %v", r.URI, err)
		}
		f.contents[r.URI] = res.Contents
	}
	for rt, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatalf("resources/templates/list: %v", err)
		}
		f.templates[rt.URITemplate] = jsonOf(t, rt)
		c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: rt.URITemplate},
			Argument: mcp.CompleteParamsArgument{Name: "resourceId", Value: "1"}})
		if err != nil {
			t.Fatalf("completion/complete %s: %v", rt.URITemplate, err)
		}
		f.completions[rt.URITemplate] = c.Completion.Values
		// One expansion of each template, read.
		uri := strings.Replace(rt.URITemplate, "{resourceId}", "1", 1)
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("resources/read %s: %v", uri, err)
		}
		f.contents[uri] = res.Contents
	}
	return f
}

func compareFeatures(t *testing.T, got, want features) {
	t.Helper()
	compareMaps(t, "prompt", got.prompts, want.prompts)
	compareMaps(t, "resource", got.resources, want.resources)
	compareMaps(t, "template", got.templates, want.templates)
	for name, msgs := range want.messages {
		if g, w := clockless(jsonOf(t, got.messages[name])), clockless(jsonOf(t, msgs)); g != w {
			t.Errorf("prompts/get %s:\n%s\nwant\n%s", name, g, w)
		}
	}
	for uri, contents := range want.contents {
		if g, w := jsonOf(t, clocklessContents(got.contents[uri])), jsonOf(t, clocklessContents(contents)); g != w {
			t.Errorf("resources/read %s:\n%.300s\nwant\n%.300s", uri, g, w)
		}
	}
	for key, values := range want.completions {
		if g, w := jsonOf(t, got.completions[key]), jsonOf(t, values); g != w {
			t.Errorf("completion/complete %s: %s, want %s", key, g, w)
		}
	}
	if len(want.completions) == 0 || len(slices.Collect(func(yield func(string) bool) {
		for _, v := range want.completions {
			for _, s := range v {
				if !yield(s) {
					return
				}
			}
		}
	})) == 0 {
		t.Errorf("the direct connection completed nothing: the comparison of completions proves nothing")
	}
}

// clock matches the time of day server-everything writes into its dynamic
// resources ("created at 4:48:05 PM"): a read a few seconds later differs
// only there.
var clock = regexp.MustCompile(`\b\d{1,2}:\d{2}:\d{2}\s?[AP]M\b`)

func clockless(s string) string { return clock.ReplaceAllString(s, "H:MM:SS") }

// clocklessContents is contents with the time of day left out of texts and
// blobs.
func clocklessContents(contents []*mcp.ResourceContents) []*mcp.ResourceContents {
	out := make([]*mcp.ResourceContents, len(contents))
	for i, c := range contents {
		cc := *c
		cc.Text = clockless(cc.Text)
		if cc.Blob != nil {
			cc.Blob = []byte(clockless(string(cc.Blob)))
		}
		out[i] = &cc
	}
	return out
}

func compareMaps(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("%s %q: listed directly, missing through the bridge", what, k)
		} else if g != w {
			t.Errorf("%s %q:\n%s\nwant\n%s", what, k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %q: listed through the bridge, not directly", what, k)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
