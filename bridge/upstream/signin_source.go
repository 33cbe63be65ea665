package upstream

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"golang.org/x/oauth2"
)

// oauthHTTPTimeout bounds one request to an authorization server.
const oauthHTTPTimeout = 30 * time.Second

// keptSource is the oauth2.TokenSource of a kept sign-in: it hands out
// the access token until [EarlyRefresh] before it expires, then refreshes
// it with golang.org/x/oauth2 and keeps the new one (and a rotated refresh
// token) in the store before using it.
type keptSource struct {
	store  *config.SecretStore
	server string
	client *http.Client // to the token endpoint, adding the resource
	logger *slog.Logger

	mu        sync.Mutex // guards the fields below
	si        *signIn
	spent     string    // an access token the server refused
	refreshed time.Time // of the last refresh
	lastErr   error     // of the last refresh
}

func newKeptSource(store *config.SecretStore, server string, si *signIn, logger *slog.Logger) *keptSource {
	return &keptSource{
		store:  store,
		server: server,
		si:     si,
		logger: logger,
		client: &http.Client{Timeout: oauthHTTPTimeout, Transport: &resourceParam{base: http.DefaultTransport, resource: cmp.Or(si.Resource, si.URL)}},
	}
}

func (k *keptSource) usable() bool {
	si := k.si
	return si.access != "" && si.access != k.spent && (si.Expiry.IsZero() || time.Until(si.Expiry) > EarlyRefresh)
}

// Token returns a usable access token, refreshing it when it is about to
// expire or was refused.
func (k *keptSource) Token() (*oauth2.Token, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.usable() {
		return k.si.token(), nil
	}
	// Another capbridge (index beside serve) may have refreshed it already;
	// with a rotating refresh token, refreshing again would fail.
	if fresh, err := loadSignIn(k.store, k.server); err == nil && fresh != nil && fresh.access != k.si.access {
		k.si = fresh
		if k.usable() {
			return k.si.token(), nil
		}
	}
	if k.si.refresh == "" {
		k.lastErr = errors.New("the access token expired or was refused, and the server gave no refresh token")
		return nil, &SignInError{Server: k.server, Reason: "the sign-in expired", Cause: k.lastErr}
	}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), oauth2.HTTPClient, k.client), oauthHTTPTimeout)
	defer cancel()
	t, err := k.si.oauthConfig().TokenSource(ctx, &oauth2.Token{RefreshToken: k.si.refresh}).Token()
	k.refreshed = time.Now()
	if err != nil {
		k.lastErr = err
		k.si.Problem = refreshProblem(err)
		if serr := k.si.save(k.store, k.server); serr != nil {
			k.logger.Warn("keeping a sign-in's state", "server", k.server, "err", serr)
		}
		k.logger.Warn("refreshing an access token failed", "server", k.server, "err", k.si.Problem)
		// The SDK's transport sends a request without a token when the
		// cause is invalid_grant (found through Unwrap): the server's 401
		// then reaches sessionAuth.Authorize, which reports it.
		return nil, &SignInError{Server: k.server, Reason: "the sign-in expired and could not be refreshed: " + k.si.Problem, Cause: err}
	}
	k.si.setToken(t)
	k.lastErr = nil
	if err := k.si.save(k.store, k.server); err != nil {
		return nil, err
	}
	k.logger.Info("refreshed an access token", "server", k.server, "expires", k.si.Expiry)
	return k.si.token(), nil
}

// spend marks the current access token as refused by the server, and
// reports whether a refresh is worth trying: there is a refresh token, and
// the token refused is not one refreshed a moment ago.
func (k *keptSource) spend() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.spent = k.si.access
	return k.si.refresh != "" && time.Since(k.refreshed) > 10*time.Second
}

// problem is why the last refresh failed, or nil.
func (k *keptSource) problem() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.lastErr
}

// refreshProblem says why a refresh failed in one line, with the
// authorization server's error code (invalid_grant: the refresh token was
// revoked or expired) and never a token.
func refreshProblem(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		msg := "the authorization server refused the refresh"
		if re.ErrorCode != "" {
			msg += " (" + re.ErrorCode + ")"
		} else if re.Response != nil {
			msg += " (HTTP " + strconv.Itoa(re.Response.StatusCode) + ")"
		}
		return msg
	}
	return "the refresh failed: " + err.Error()
}

// resourceParam adds the resource indicator (RFC 8707) to token requests
// that lack one: golang.org/x/oauth2 sends it on the code exchange when
// asked, but has no option for it on a refresh, which the MCP
// authorization spec also wants it on.
type resourceParam struct {
	base     http.RoundTripper
	resource string
}

func (t *resourceParam) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil || t.resource == "" ||
		!strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return t.base.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading a token request: %w", err)
	}
	form, err := url.ParseQuery(string(body))
	if err == nil && form.Get("resource") == "" {
		form.Set("resource", t.resource)
		body = []byte(form.Encode())
	}
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return t.base.RoundTrip(req)
}
