package upstream

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// sessionAuth is the auth.OAuthHandler of a session that runs unattended
// (serve, index, call): it sends the kept access token, refreshes it, and
// when the server still refuses it answers with a [*SignInError] naming
// `capbridge login` instead of opening a browser nobody watches. A 403
// insufficient_scope keeps the scopes the server asked for, so that the
// next login asks for them too (step-up).
type sessionAuth struct {
	server config.Server
	store  *config.SecretStore
	logger *slog.Logger

	mu  sync.Mutex // guards src
	src *keptSource
	err error // loading the sign-in failed
}

var _ auth.OAuthHandler = (*sessionAuth)(nil)

func newSessionAuth(s config.Server, store *config.SecretStore, logger *slog.Logger) *sessionAuth {
	return &sessionAuth{server: s, store: store, logger: logger}
}

// source returns the kept sign-in's token source, loading it once; nil
// when there is none for this server's url.
func (a *sessionAuth) source() (*keptSource, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.src != nil || a.err != nil {
		return a.src, a.err
	}
	si, err := loadSignIn(a.store, a.server.Name)
	if err != nil {
		a.err = err
		return nil, err
	}
	if si == nil || si.URL != a.server.URL {
		return nil, nil
	}
	a.src = newKeptSource(a.store, a.server.Name, si, a.logger)
	return a.src, nil
}

func (a *sessionAuth) TokenSource(context.Context) (oauth2.TokenSource, error) {
	src, err := a.source()
	if err != nil || src == nil {
		// No header: the server answers 401 and Authorize explains.
		return nil, nil
	}
	return src, nil
}

// Authorize is called for a 401 or 403. It returns nil when a retry may
// succeed (a token refreshed after a 401; a 403 that is not about scope,
// which the transport then reports as it is).
func (a *sessionAuth) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	defer io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	name := a.server.Name
	if resp.StatusCode == http.StatusForbidden {
		if challengeParam(challenges, "error") != "insufficient_scope" {
			return nil
		}
		scopes := strings.Fields(challengeParam(challenges, "scope"))
		if err := a.want(scopes); err != nil {
			a.logger.Warn("keeping the scopes a server asked for", "server", name, "err", err)
		}
		return &SignInError{Server: name, Reason: "the server wants more permission than the sign-in grants", Scopes: scopes}
	}
	src, err := a.source()
	switch {
	case err != nil:
		return &SignInError{Server: name, Reason: "the kept sign-in could not be read", Cause: err}
	case src == nil:
		if si, _ := loadSignIn(a.store, name); si != nil {
			return &SignInError{Server: name, Reason: "signed in to " + si.URL + ", not to the server's url now"}
		}
		return &SignInError{Server: name, Reason: "not signed in"}
	}
	if src.spend() {
		if _, err := src.Token(); err == nil {
			return nil
		}
	}
	if cause := src.problem(); cause != nil {
		if se := signInFailure(cause); se != nil {
			return se
		}
		return &SignInError{Server: name, Reason: "the sign-in expired and could not be refreshed: " + refreshProblem(cause), Cause: cause}
	}
	return &SignInError{Server: name, Reason: "the server refused the sign-in's token"}
}

// want keeps scopes as wanted by the server, for the next login.
func (a *sessionAuth) want(scopes []string) error {
	if len(scopes) == 0 {
		return nil
	}
	si, err := loadSignIn(a.store, a.server.Name)
	if err != nil || si == nil {
		return err
	}
	si.Wanted = unionScopes(si.Wanted, scopes)
	return si.save(a.store, a.server.Name)
}

// challengeParam returns param of the first Bearer challenge that has it.
func challengeParam(cs []oauthex.Challenge, param string) string {
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, "bearer") && c.Params[param] != "" {
			return c.Params[param]
		}
	}
	return ""
}

// signInFailure returns the *SignInError in err's chain, if any.
func signInFailure(err error) *SignInError {
	var se *SignInError
	if errors.As(err, &se) {
		return se
	}
	return nil
}

// signIn returns the OAuth handler of a session with s: nil for a stdio or
// SSE server, for one whose config sends its own Authorization header, and
// when there is no secret store.
func (o *Options) signIn(s config.Server) auth.OAuthHandler {
	if s.Type != config.TypeHTTP || o.Secrets == nil {
		return nil
	}
	for k := range s.Headers {
		if strings.EqualFold(k, "Authorization") {
			return nil
		}
	}
	return newSessionAuth(s, o.Secrets, o.Logger)
}
