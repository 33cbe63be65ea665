package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// Features are the prompts, resources and resource templates a demo server
// offers beside its tools ([Options.Features]), as their list methods send
// them. Their answers are deterministic:
//
//   - prompts/get answers the prompt's Messages, or else one user message:
//     "PROMPT NAME with ARGS", ARGS being the arguments as compact JSON
//     with sorted keys;
//   - resources/read of a resource, or of a URI a template matches,
//     answers the Contents of that URI or template, or else one text
//     content: "contents of URI";
//   - completion/complete of an argument answers the values of the
//     prompt's argument (or template variable) named in Completions that
//     start with the value typed;
//   - resources/subscribe is accepted, and every change a reload brings
//     (see [Options.FeaturesReload]) sends notifications/resources/updated
//     for each subscribed resource that is listed, beside the list_changed
//     notifications.
type Features struct {
	Prompts   []*mcp.Prompt           `json:"prompts,omitempty"`
	Resources []*mcp.Resource         `json:"resources,omitempty"`
	Templates []*mcp.ResourceTemplate `json:"templates,omitempty"`
	// Completions maps "PROMPT/ARGUMENT" or "TEMPLATE/VARIABLE" to the
	// values completion/complete offers.
	Completions map[string][]string `json:"completions,omitempty"`
	// Messages maps a prompt's name to the messages prompts/get answers,
	// "{{ARG}}" in them standing for the value of the argument ARG.
	Messages map[string]json.RawMessage `json:"messages,omitempty"`
	// Contents maps a resource's URI, or a template's URI template, to the
	// contents resources/read answers, "{{VAR}}" in them standing for the
	// value of the template's variable VAR in the URI read.
	Contents map[string]json.RawMessage `json:"contents,omitempty"`
}

// ReadFeatures decodes a features file: a JSON object with "prompts",
// "resources", "templates" and "completions".
func ReadFeatures(data []byte) (*Features, error) {
	var f Features
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("reading features: %w", err)
	}
	for name, raw := range f.Messages {
		if _, err := fill[[]*mcp.PromptMessage](raw, nil); err != nil {
			return nil, fmt.Errorf("reading features: messages of %q: %w", name, err)
		}
	}
	for uri, raw := range f.Contents {
		if _, err := fill[[]*mcp.ResourceContents](raw, nil); err != nil {
			return nil, fmt.Errorf("reading features: contents of %q: %w", uri, err)
		}
	}
	return &f, nil
}

// fill decodes raw once each "{{KEY}}" in it is replaced by values[KEY],
// escaped as a JSON string's contents.
func fill[T any](raw json.RawMessage, values map[string]string) (T, error) {
	var out T
	pairs := make([]string, 0, 2*len(values))
	for k, v := range values {
		quoted, _ := json.Marshal(v) // a string always encodes
		pairs = append(pairs, "{{"+k+"}}", string(quoted[1:len(quoted)-1]))
	}
	err := json.Unmarshal([]byte(strings.NewReplacer(pairs...).Replace(string(raw))), &out)
	return out, err
}

// features serves Features on one demo server, and follows reloads.
type features struct {
	s *server

	current *Features // guarded by s.mu
	subs    map[string]bool
}

// follow serves each Features that arrives on reload in place of the
// current one, until reload is closed.
func (f *features) follow(reload <-chan *Features) {
	for next := range reload {
		f.apply(next)
		f.s.opts.Logger.Warn("features reloaded", "prompts", len(next.Prompts), "resources", len(next.Resources))
	}
}

// apply serves next in place of what is served: go-sdk sends list_changed
// for what it adds or removes, and the server sends resources/updated for
// subscribed resources it still lists.
func (f *features) apply(next *Features) {
	f.s.mu.Lock()
	prev := f.current
	f.current = next
	subs := slices.Collect(maps.Keys(f.subs))
	f.s.mu.Unlock()
	m := f.s.mcp
	if prev != nil {
		var gone []string
		for _, p := range prev.Prompts {
			gone = append(gone, p.Name)
		}
		m.RemovePrompts(gone...)
		gone = gone[:0]
		for _, r := range prev.Resources {
			gone = append(gone, r.URI)
		}
		m.RemoveResources(gone...)
		gone = gone[:0]
		for _, t := range prev.Templates {
			gone = append(gone, t.URITemplate)
		}
		m.RemoveResourceTemplates(gone...)
	}
	for _, p := range next.Prompts {
		name, messages := p.Name, next.Messages[p.Name]
		m.AddPrompt(p, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if messages != nil {
				msgs, err := fill[[]*mcp.PromptMessage](messages, req.Params.Arguments)
				if err != nil {
					return nil, fmt.Errorf("messages of prompt %q: %w", name, err)
				}
				return &mcp.GetPromptResult{Messages: msgs}, nil
			}
			args, _ := json.Marshal(req.Params.Arguments) // a map[string]string always encodes, keys sorted
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user",
				Content: &mcp.TextContent{Text: fmt.Sprintf("PROMPT %s with %s", name, args)}}}}, nil
		})
	}
	for _, r := range next.Resources {
		m.AddResource(r, readDemoResource(next.Contents[r.URI], nil))
	}
	for _, t := range next.Templates {
		tmpl, _ := uritemplate.New(t.URITemplate) // nil when it does not parse: no variables
		m.AddResourceTemplate(t, readDemoResource(next.Contents[t.URITemplate], tmpl))
	}
	if prev == nil {
		return
	}
	for _, uri := range subs {
		if slices.ContainsFunc(next.Resources, func(r *mcp.Resource) bool { return r.URI == uri }) {
			_ = m.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
		}
	}
}

// readDemoResource answers resources/read with contents, the values of
// template's variables in the URI read filled in, or with the default
// contents when contents is nil.
func readDemoResource(contents json.RawMessage, template *uritemplate.Template) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		if contents == nil {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "contents of " + uri}}}, nil
		}
		vars := map[string]string{}
		if template != nil {
			for name, v := range template.Match(uri) {
				vars[name] = v.String()
			}
		}
		out, err := fill[[]*mcp.ResourceContents](contents, vars)
		if err != nil {
			return nil, fmt.Errorf("contents of %q: %w", uri, err)
		}
		return &mcp.ReadResourceResult{Contents: out}, nil
	}
}

func (f *features) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref := req.Params.Ref
	key := ref.Name
	if ref.Type == "ref/resource" {
		key = ref.URI
	}
	f.s.mu.Lock()
	values := f.current.Completions[key+"/"+req.Params.Argument.Name]
	f.s.mu.Unlock()
	out := []string{}
	for _, v := range values {
		if strings.HasPrefix(v, req.Params.Argument.Value) {
			out = append(out, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: out, Total: len(out)}}, nil
}

func (f *features) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	f.subs[req.Params.URI] = true
	return nil
}

func (f *features) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	delete(f.subs, req.Params.URI)
	return nil
}
