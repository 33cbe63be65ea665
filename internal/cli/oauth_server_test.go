package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// oauthServer is a remote MCP server that signs in with OAuth, for the
// end-to-end tests: an authorization server (metadata, dynamic client
// registration, authorize with PKCE and the resource indicator, code and
// refresh token grants with rotation) and the MCP server it protects
// (protected resource metadata, 401 with a WWW-Authenticate challenge, 403
// insufficient_scope for a tool that needs more), on real loopback HTTP.
//
// Tools: read_notes needs notes:read; write_note needs notes:write too.
type oauthServer struct {
	t   testing.TB
	srv *httptest.Server
	ttl time.Duration // access token lifetime

	mu       sync.Mutex          // guards the fields below
	clients  map[string][]string // client_id -> redirect uris
	codes    map[string]grant
	access   map[string]grant // token -> grant
	refresh  map[string]grant
	refreshN int        // refresh grants answered
	lastAuth url.Values // the last authorization request's query
	seen     []string   // access tokens the MCP server accepted
}

type grant struct {
	client, challenge, redirect, resource string
	scopes                                []string
	expires                               time.Time
}

func newOAuthServer(t testing.TB, ttl time.Duration) *oauthServer {
	o := &oauthServer{t: t, ttl: ttl, clients: map[string][]string{}, codes: map[string]grant{},
		access: map[string]grant{}, refresh: map[string]grant{}}
	mcpSrv := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	mcpSrv.AddTool(&mcp.Tool{Name: "read_notes", Description: "Read the user's saved notes.",
		InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "note one; note two"}}}, nil
		})
	mcpSrv.AddTool(&mcp.Tool{Name: "write_note", Description: "Save a new note for the user.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "saved"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcpSrv }, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", o.protect(handler))
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": o.resource(), "authorization_servers": []string{o.srv.URL},
			"scopes_supported": []string{"notes:read", "notes:write"}})
	})
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": o.srv.URL, "authorization_endpoint": o.srv.URL + "/authorize",
			"token_endpoint": o.srv.URL + "/token", "registration_endpoint": o.srv.URL + "/register",
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
			"scopes_supported": []string{"notes:read", "notes:write"}})
	})
	mux.HandleFunc("POST /register", o.register)
	mux.HandleFunc("GET /authorize", o.authorize)
	mux.HandleFunc("POST /token", o.token)
	o.srv = httptest.NewServer(mux)
	t.Cleanup(o.srv.Close)
	return o
}

func (o *oauthServer) resource() string { return o.srv.URL + "/mcp" }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, code int, e string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": e})
}

func (o *oauthServer) register(w http.ResponseWriter, r *http.Request) {
	var m struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || len(m.RedirectURIs) == 0 {
		oauthError(w, 400, "invalid_client_metadata")
		return
	}
	id := "client-" + rand.Text()
	o.mu.Lock()
	o.clients[id] = m.RedirectURIs
	o.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
	writeJSON(w, map[string]any{"client_id": id, "redirect_uris": m.RedirectURIs, "token_endpoint_auth_method": "none"})
}

func (o *oauthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lastAuth = q
	redirects, ok := o.clients[q.Get("client_id")]
	switch {
	case !ok || !slices.Contains(redirects, q.Get("redirect_uri")):
		http.Error(w, "unknown client or redirect_uri", 400)
		return
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE S256 is required", 400)
		return
	case q.Get("resource") != o.resource():
		http.Error(w, "resource must be "+o.resource(), 400)
		return
	}
	code := "code-" + rand.Text()
	o.codes[code] = grant{client: q.Get("client_id"), challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"),
		resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
	back, _ := url.Parse(q.Get("redirect_uri"))
	bq := back.Query()
	bq.Set("code", code)
	bq.Set("state", q.Get("state"))
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (o *oauthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, 400, "invalid_request")
		return
	}
	f := r.PostForm
	o.mu.Lock()
	defer o.mu.Unlock()
	var g grant
	switch f.Get("grant_type") {
	case "authorization_code":
		c, ok := o.codes[f.Get("code")]
		delete(o.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || c.client != f.Get("client_id") || c.redirect != f.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || f.Get("resource") != c.resource {
			oauthError(w, 400, "invalid_grant")
			return
		}
		g = c
	case "refresh_token":
		old, ok := o.refresh[f.Get("refresh_token")]
		delete(o.refresh, f.Get("refresh_token")) // rotated
		if !ok || old.client != f.Get("client_id") || f.Get("resource") != old.resource {
			oauthError(w, 400, "invalid_grant")
			return
		}
		g = old
		o.refreshN++
	default:
		oauthError(w, 400, "unsupported_grant_type")
		return
	}
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	g.expires = time.Now().Add(o.ttl)
	o.access[access] = g
	o.refresh[refresh] = g
	writeJSON(w, map[string]any{"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(o.ttl / time.Second), "scope": strings.Join(g.scopes, " ")})
}

// revokeAll revokes every access and refresh token, as a user would at the
// provider's settings page.
func (o *oauthServer) revokeAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	clear(o.access)
	clear(o.refresh)
}

func (o *oauthServer) refreshes() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.refreshN
}

func (o *oauthServer) lastScope() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lastAuth.Get("scope")
}

func (o *oauthServer) acceptedTokens() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.seen)
}

// protect answers 401 without a valid, unexpired token for this resource,
// and 403 insufficient_scope when a tools/call needs more.
func (o *oauthServer) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		json.Unmarshal(body, &msg)
		need := []string{"notes:read"}
		if msg.Method == "tools/call" && msg.Params.Name == "write_note" {
			need = append(need, "notes:write")
		}
		meta := o.srv.URL + "/.well-known/oauth-protected-resource/mcp"
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		o.mu.Lock()
		g, ok := o.access[tok]
		if ok && time.Now().After(g.expires) {
			ok = false
		}
		if ok {
			o.seen = append(o.seen, tok)
		}
		o.mu.Unlock()
		if !ok || g.resource != o.resource() {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+meta+`", scope="notes:read"`)
			oauthError(w, http.StatusUnauthorized, "invalid_token")
			return
		}
		for _, s := range need {
			if !slices.Contains(g.scopes, s) {
				w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+strings.Join(need, " ")+`", resource_metadata="`+meta+`"`)
				oauthError(w, http.StatusForbidden, "insufficient_scope")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
