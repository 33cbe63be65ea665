package upstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"golang.org/x/oauth2"
)

// ErrSignIn means a remote server wants a sign-in capbridge does not have:
// never signed in, a token that could not be refreshed, or a step-up to
// more scopes. The [*SignInError] carrying it says which, and the command
// that fixes it.
var ErrSignIn = errors.New("sign-in needed")

// SignInError is a remote server's refusal for want of a sign-in. Its text
// is short and ends with the command to run: it is what discoveries and
// upstream_error show.
type SignInError struct {
	Server string
	Reason string   // "not signed in", "the sign-in expired and could not be refreshed", ...
	Scopes []string // for a step-up: the scopes the server asked for
	Cause  error    // what the authorization server said, for the log; may be nil
}

func (e *SignInError) Error() string {
	if len(e.Scopes) > 0 {
		return fmt.Sprintf("%s (scope %q): run capbridge login %s", e.Reason, strings.Join(e.Scopes, " "), e.Server)
	}
	return fmt.Sprintf("%s: run capbridge login %s", e.Reason, e.Server)
}

func (e *SignInError) Unwrap() error { return e.Cause }

func (e *SignInError) Is(target error) bool { return target == ErrSignIn }

// EarlyRefresh is how long before its expiry an access token is refreshed.
const EarlyRefresh = time.Minute

// signIn is one server's sign-in as kept in the [config.SecretStore]: the
// record (no secrets) under "signin:NAME", and the access token, refresh
// token and client secret each under a name of its own, so that no single
// keychain item grows past what Windows' Credential Manager holds.
type signIn struct {
	URL       string    `json:"url"`      // the server signed in to: a changed url needs a new sign-in
	Resource  string    `json:"resource"` // the resource indicator (RFC 8707) the token is for
	ClientID  string    `json:"clientId"`
	AuthURL   string    `json:"authUrl"`
	TokenURL  string    `json:"tokenUrl"`
	AuthStyle int       `json:"authStyle"`
	Scopes    []string  `json:"scopes,omitempty"` // asked for at the last login
	Wanted    []string  `json:"wanted,omitempty"` // asked for since by a 403 insufficient_scope
	TokenType string    `json:"tokenType,omitempty"`
	Expiry    time.Time `json:"expiry,omitzero"`
	SignedIn  time.Time `json:"signedIn"`
	// Problem is why the token last failed to refresh, for `servers`;
	// cleared by a refresh or a login.
	Problem string `json:"problem,omitempty"`

	access, refresh, clientSecret string // the secrets, kept apart
}

func signInKey(server string) string { return config.SignInPrefix + server }

func (si *signIn) oauthConfig() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     si.ClientID,
		ClientSecret: si.clientSecret,
		Endpoint:     oauth2.Endpoint{AuthURL: si.AuthURL, TokenURL: si.TokenURL, AuthStyle: oauth2.AuthStyle(si.AuthStyle)},
		Scopes:       si.Scopes,
	}
}

func (si *signIn) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: si.access, TokenType: si.TokenType, RefreshToken: si.refresh, Expiry: si.Expiry}
}

// loadSignIn reads server's sign-in; nil without error when there is none.
func loadSignIn(store *config.SecretStore, server string) (*signIn, error) {
	raw, err := store.Get(signInKey(server))
	if errors.Is(err, config.ErrNoSecret) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var si signIn
	if err := json.Unmarshal([]byte(raw), &si); err != nil {
		return nil, fmt.Errorf("the sign-in kept for %q is damaged (%v): run capbridge logout %s, then login", server, err, server)
	}
	for _, s := range []struct {
		suffix string
		v      *string
	}{{":access", &si.access}, {":refresh", &si.refresh}, {":client-secret", &si.clientSecret}} {
		v, err := store.Get(signInKey(server) + s.suffix)
		if err != nil && !errors.Is(err, config.ErrNoSecret) {
			return nil, err
		}
		*s.v = v
	}
	return &si, nil
}

// save writes the record and its secrets; an empty secret is deleted.
func (si *signIn) save(store *config.SecretStore, server string) error {
	for _, s := range []struct{ suffix, v string }{{":access", si.access}, {":refresh", si.refresh}, {":client-secret", si.clientSecret}} {
		var err error
		if s.v == "" {
			err = store.Delete(signInKey(server) + s.suffix)
		} else {
			err = store.Set(signInKey(server)+s.suffix, s.v)
		}
		if err != nil {
			return fmt.Errorf("keeping the sign-in of %q: %w", server, err)
		}
	}
	raw, err := json.Marshal(si)
	if err != nil {
		return err
	}
	if err := store.Set(signInKey(server), string(raw)); err != nil {
		return fmt.Errorf("keeping the sign-in of %q: %w", server, err)
	}
	return nil
}

// setToken takes a token the authorization server issued. A refresh
// answer without a refresh token keeps the old one (RFC 6749 6).
func (si *signIn) setToken(t *oauth2.Token) {
	si.access, si.TokenType, si.Expiry = t.AccessToken, t.TokenType, t.Expiry
	if t.RefreshToken != "" {
		si.refresh = t.RefreshToken
	}
	si.Problem = ""
}

// Logout forgets server's sign-in: its tokens, client secret and record.
// It reports whether there was one.
func Logout(store *config.SecretStore, server string) (bool, error) {
	si, err := loadSignIn(store, server)
	if err != nil {
		// Damaged or not, a logout clears it.
		si = &signIn{}
	}
	had := si != nil
	for _, suffix := range []string{":access", ":refresh", ":client-secret", ""} {
		if err := store.Delete(signInKey(server) + suffix); err != nil {
			return had, fmt.Errorf("logging out of %q: %w", server, err)
		}
	}
	return had, nil
}

// SignInState is a server's sign-in as `capbridge servers` shows it.
type SignInState struct {
	SignedIn   bool
	Scopes     []string  // asked for at the last login
	Expiry     time.Time // the access token's; zero: none given
	Refreshing bool      // a refresh token is kept: expiry is renewed on use
	Problem    string    // why the last refresh failed, if it did
	Wanted     []string  // scopes a step-up asked for since the last login
	Stale      bool      // signed in to another url than the server's now
}

// SignInStatus reads server's sign-in without using the network.
func SignInStatus(store *config.SecretStore, s config.Server) (SignInState, error) {
	si, err := loadSignIn(store, s.Name)
	if err != nil || si == nil {
		return SignInState{}, err
	}
	return SignInState{
		SignedIn:   si.access != "",
		Scopes:     si.Scopes,
		Expiry:     si.Expiry,
		Refreshing: si.refresh != "",
		Problem:    si.Problem,
		Wanted:     si.Wanted,
		Stale:      si.URL != s.URL,
	}, nil
}

// unionScopes returns a's scopes followed by those of b not in a.
func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
