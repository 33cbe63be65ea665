package upstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// ErrNoSignIn means a server never asked capbridge to sign in: it answered
// without a token.
var ErrNoSignIn = errors.New("the server did not ask to sign in")

// LoginOptions configure [Login].
type LoginOptions struct {
	Secrets *config.SecretStore // where the sign-in is kept; required
	// Open shows the user the authorization page: opens a browser, prints
	// the URL. It returns at once; Login then waits for the redirect.
	Open   func(ctx context.Context, authURL string) error
	Logger *slog.Logger // default: discard
	// MaxMessageBytes bounds one message from the server; default 17 MiB.
	MaxMessageBytes int
}

// LoginResult is a finished sign-in.
type LoginResult struct {
	Scopes     []string  // asked for
	Expiry     time.Time // the access token's; zero: none given
	Refreshing bool      // a refresh token was given
	Rounds     int       // authorizations the user went through (2: a step-up)
}

// Login signs in to the remote server s with OAuth 2.1 as the MCP
// authorization spec (2025-11-25) describes, and keeps the sign-in in
// o.Secrets for serve, index and call to use. The protocol is the go-sdk's
// auth.AuthorizationCodeHandler: protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414, OpenID discovery), a Client ID
// Metadata Document, a pre-registered client or dynamic registration (RFC
// 7591), PKCE, the resource indicator (RFC 8707), scopes from the challenge
// and step-up on 403 insufficient_scope. The browser comes back to a
// listener on a loopback address (RFC 8252).
//
// Login ignores any kept token, so that it always asks anew: for scopes a
// server wanted since, or after a refresh token was revoked.
func Login(ctx context.Context, s config.Server, o LoginOptions) (*LoginResult, error) {
	switch {
	case s.Type == config.TypeStdio:
		return nil, fmt.Errorf("server %q is a local (stdio) server: only remote servers sign in", s.Name)
	case s.Type == config.TypeSSE:
		return nil, fmt.Errorf("server %q uses the old SSE transport, which capbridge cannot sign in to; use its Streamable HTTP url", s.Name)
	case o.Secrets == nil || o.Open == nil:
		panic("upstream.Login: Secrets and Open are required")
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var oc config.OAuth
	if s.OAuth != nil {
		oc = *s.OAuth
	}
	lb, err := listenLoopback(oc.RedirectURL)
	if err != nil {
		return nil, err
	}
	defer lb.close()

	prev, err := loadSignIn(o.Secrets, s.Name)
	if err != nil {
		logger.Warn("the kept sign-in is unreadable; signing in anew", "server", s.Name, "err", err)
		prev = nil
	}
	l := &login{server: s, store: o.Secrets, logger: logger}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: lb.redirect,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			l.noteResource(args.URL)
			if err := o.Open(ctx, args.URL); err != nil {
				return nil, err
			}
			return lb.wait(ctx)
		},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				ClientName:    "capbridge",
				RedirectURIs:  []string{lb.redirect},
				GrantTypes:    []string{"authorization_code", "refresh_token"},
				ResponseTypes: []string{"code"},
			},
		},
		ScopeFilter: func(discovered []string) []string {
			if prev == nil {
				return discovered
			}
			// Keep what was granted and add what a server wanted since:
			// a new login must not lose permissions.
			return unionScopes(unionScopes(prev.Scopes, discovered), prev.Wanted)
		},
		RequestRefreshToken: true,
		Client:              &http.Client{Timeout: oauthHTTPTimeout},
		NewTokenSource:      l.keep,
	}
	if oc.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: oc.ClientMetadataURL}
	}
	if oc.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: oc.ClientID}
		if oc.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: oc.ClientSecret}
		}
	}
	handler, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, fmt.Errorf("signing in to %q: %w", s.Name, err)
	}

	max := o.MaxMessageBytes
	if max <= 0 {
		max = 17 << 20
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge", Version: buildVersion()}, &mcp.ClientOptions{
		Logger:       logger,
		Capabilities: &mcp.ClientCapabilities{},
	})
	cs, err := connectHTTP(ctx, client, s, &listTap{}, &ownRequests{max: max}, handler)
	if err != nil {
		return nil, l.failed(fmt.Errorf("signing in to %q: %w", s.Name, err))
	}
	defer cs.Close()
	// A server may let initialize through and ask for a sign-in at the
	// first real request.
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return nil, l.failed(fmt.Errorf("signing in to %q: listing its tools: %w", s.Name, err))
	}
	return l.result()
}

// login collects what one Login's authorizations gave.
type login struct {
	server config.Server
	store  *config.SecretStore
	logger *slog.Logger

	mu       sync.Mutex // guards the fields below
	resource string     // the resource indicator of the last authorization
	kept     *signIn    // the sign-in kept, after the first token
	rounds   int
	err      error // keeping the sign-in failed
}

func (l *login) noteResource(authURL string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rounds++
	if u, err := url.Parse(authURL); err == nil {
		l.resource = u.Query().Get("resource")
	}
}

// keep is the handler's NewTokenSource: it keeps the token and what
// refreshes it, and hands the handler a source that refreshes and keeps.
func (l *login) keep(_ context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	si := &signIn{
		URL:          l.server.URL,
		Resource:     l.resource,
		ClientID:     cfg.ClientID,
		clientSecret: cfg.ClientSecret,
		AuthURL:      cfg.Endpoint.AuthURL,
		TokenURL:     cfg.Endpoint.TokenURL,
		AuthStyle:    int(cfg.Endpoint.AuthStyle),
		Scopes:       slices.Clone(cfg.Scopes),
		SignedIn:     time.Now().UTC(),
	}
	si.setToken(tok)
	if err := si.save(l.store, l.server.Name); err != nil {
		l.err = err
		return nil, err
	}
	l.kept = si
	return newKeptSource(l.store, l.server.Name, si, l.logger), nil
}

// failed prefers the reason the sign-in could not be kept.
func (l *login) failed(err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	return err
}

func (l *login) result() (*LoginResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.kept == nil {
		return nil, fmt.Errorf("server %q: %w; it needs no login", l.server.Name, ErrNoSignIn)
	}
	return &LoginResult{Scopes: l.kept.Scopes, Expiry: l.kept.Expiry, Refreshing: l.kept.refresh != "", Rounds: l.rounds}, nil
}
