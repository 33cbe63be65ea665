//lint:file-ignore SA1019 roots, sampling and logging, deprecated by MCP 2026-07-28 (SEP-2577), are what this file passes through for the servers and clients that still use them

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitingAsker answers elicitations with its name.
func elicitingAsker(name string) *Asker {
	return &Asker{
		Client: name,
		Elicit: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"by": name}}, nil
		},
		ListRoots: func(context.Context) ([]*mcp.Root, error) {
			return []*mcp.Root{{URI: "file:///" + name}}, nil
		},
	}
}

// TestAskRouterRoutesToTheOneCaller: a server's request goes to the client
// of the calls in flight only when they are all of one client; otherwise,
// and with none in flight, it is answered as by a client without the
// capability (roots: none).
func TestAskRouterRoutesToTheOneCaller(t *testing.T) {
	alice, alice2, bob := elicitingAsker("alice"), elicitingAsker("alice"), elicitingAsker("bob")
	tests := []struct {
		name    string
		calls   []*Asker
		wantBy  string // "" for refused
		wantURI string
	}{
		{"no call in flight", nil, "", ""},
		{"one call", []*Asker{alice}, "alice", "file:///alice"},
		{"two calls of one client", []*Asker{alice, alice2}, "alice", "file:///alice"},
		{"calls of two clients", []*Asker{alice, bob}, "", ""},
		{"a call of no client beside one", []*Asker{alice, nil}, "", ""},
		{"a client without elicitation", []*Asker{{Client: "carol"}}, "", ""},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &askRouter{}
			for _, a := range tt.calls {
				_, end := r.begin(a)
				defer end()
			}
			res, err := r.elicit(ctx, &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: "name?"}})
			var rpcErr *jsonrpc.Error
			switch {
			case tt.wantBy == "" && (!errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound):
				t.Errorf("elicit = %v, %v; want refused with method not found", res, err)
			case tt.wantBy != "" && (err != nil || res.Content["by"] != tt.wantBy):
				t.Errorf("elicit = %v, %v; want answered by %s", res, err, tt.wantBy)
			}
			roots, err := r.listRoots(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(roots.Roots) > 0 {
				got = roots.Roots[0].URI
			}
			if got != tt.wantURI || roots.Roots == nil {
				t.Errorf("roots %v, want %q", roots.Roots, tt.wantURI)
			}
		})
	}
}

// TestAskRouterBounds: an elicitation or sampling request over its bound is
// refused before it reaches the client.
func TestAskRouterBounds(t *testing.T) {
	r := &askRouter{}
	asked := false
	a := &Asker{Client: "alice",
		Elicit: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			asked = true
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		CreateMessage: func(context.Context, *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
			asked = true
			return &mcp.CreateMessageWithToolsResult{}, nil
		},
	}
	_, end := r.begin(a)
	defer end()
	ctx := context.Background()
	if _, err := r.elicit(ctx, &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: strings.Repeat("x", MaxElicitBytes)}}); err == nil || asked {
		t.Errorf("an elicitation over %d bytes: %v (asked %t), want refused", MaxElicitBytes, err, asked)
	}
	big := &mcp.CreateMessageWithToolsParams{Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", MaxSamplingBytes)}}}}}
	if _, err := r.createMessage(ctx, &mcp.CreateMessageWithToolsRequest{Params: big}); err == nil || asked {
		t.Errorf("a sampling request over %d bytes: %v (asked %t), want refused", MaxSamplingBytes, err, asked)
	}
	if _, err := r.elicit(ctx, &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: "ok?"}}); err != nil || !asked {
		t.Errorf("a small elicitation: %v (asked %t), want asked", err, asked)
	}
}

// TestAskRouterProgress: progress reaches the call its token names only,
// under that call's Asker, spaced out but never dropping the last.
func TestAskRouterProgress(t *testing.T) {
	r := &askRouter{}
	var got []float64
	a := &Asker{Client: "alice", Progress: func(_ context.Context, p *mcp.ProgressNotificationParams) { got = append(got, p.Progress) }}
	b := &Asker{Client: "bob", Progress: func(context.Context, *mcp.ProgressNotificationParams) { t.Error("bob got alice's progress") }}
	tokA, endA := r.begin(a)
	defer endA()
	tokB, endB := r.begin(b)
	defer endB()
	noProgress, endC := r.begin(&Asker{Client: "carol"})
	defer endC()
	if tokA == "" || tokA == tokB || noProgress != "" {
		t.Fatalf("tokens %q %q %q: want two distinct, none for a client that asked for no progress", tokA, tokB, noProgress)
	}
	ctx := context.Background()
	for i := 1; i <= 100; i++ {
		r.progress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tokA, Progress: float64(i), Total: 100})
	}
	r.progress(ctx, &mcp.ProgressNotificationParams{ProgressToken: "capbridge-unknown", Progress: 1})
	if len(got) < 2 || len(got) > 10 || got[0] != 1 || got[len(got)-1] != 100 {
		t.Errorf("forwarded %v of 100 sent at once: want the first, the last, few between", got)
	}
	time.Sleep(progressEvery)
	r.progress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tokA, Progress: 101})
	if got[len(got)-1] != 101 {
		t.Errorf("progress after a pause was dropped: %v", got)
	}
}

// TestURLElicited: a URLElicitationRequired error is passed to a client
// that takes URL elicitations, and the call is made again only when the
// user accepted every URL.
func TestURLElicited(t *testing.T) {
	required := func(data string) error {
		return fmt.Errorf("tools/call: %w", &jsonrpc.Error{Code: mcp.CodeURLElicitationRequired, Message: "visit", Data: json.RawMessage(data)})
	}
	one := `{"elicitations":[{"mode":"url","url":"https://example.com/a","elicitationId":"a","message":"go"}]}`
	tests := []struct {
		name   string
		err    error
		action string // the user's answer; "" for a client without elicitation
		want   bool
	}{
		{"accepted", required(one), "accept", true},
		{"declined", required(one), "decline", false},
		{"a client without elicitation", required(one), "", false},
		{"another error", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "no"}, "accept", false},
		{"a form elicitation in the error", required(`{"elicitations":[{"mode":"form","message":"go"}]}`), "accept", false},
		{"no elicitations", required(`{"elicitations":[]}`), "accept", false},
		{"too many", required(`{"elicitations":[` + strings.Repeat(`{"mode":"url","url":"https://e.example/","elicitationId":"x","message":"m"},`, maxURLElicitations) + `{"mode":"url","url":"https://e.example/","elicitationId":"y","message":"m"}]}`), "accept", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Asker{Client: "alice"}
			if tt.action != "" {
				a.Elicit = func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: tt.action}, nil
				}
			}
			if got := (&askRouter{}).urlElicited(context.Background(), a, tt.err); got != tt.want {
				t.Errorf("urlElicited = %t, want %t", got, tt.want)
			}
		})
	}
}

// TestRootsAfterAChange: after a client's roots changed, the server's next
// roots/list gets that client's roots, unless a call of another client is
// in flight; and only the next one.
func TestRootsAfterAChange(t *testing.T) {
	ctx := context.Background()
	alice, bob := elicitingAsker("alice"), elicitingAsker("bob")
	tests := []struct {
		name  string
		calls []*Asker
		want  []string // the URIs of two roots/list in turn
	}{
		{"no call in flight", nil, []string{"file:///alice", ""}},
		{"a call of the same client", []*Asker{alice}, []string{"file:///alice", "file:///alice"}},
		{"a call of another client", []*Asker{bob}, []string{"", "file:///bob"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &askRouter{}
			for _, a := range tt.calls {
				_, end := r.begin(a)
				defer end()
			}
			r.changed, r.changedBy, r.changedUntil = alice.ListRoots, alice.Client, time.Now().Add(rootsWindow)
			for i, want := range tt.want {
				res, err := r.listRoots(ctx)
				if err != nil {
					t.Fatal(err)
				}
				got := ""
				if len(res.Roots) > 0 {
					got = res.Roots[0].URI
				}
				if got != want {
					t.Errorf("roots/list %d: %q, want %q", i+1, got, want)
				}
			}
		})
	}
}
