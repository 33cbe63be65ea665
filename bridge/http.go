package bridge

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPTokenEnv names the environment variable that holds the bearer token
// `serve --http` requires of every request when it is set.
const HTTPTokenEnv = "CAPBRIDGE_HTTP_TOKEN"

// Defaults of [HTTPOptions]' timeouts.
const (
	DefaultHTTPHeaderTimeout = 10 * time.Second // to read a request's headers
	DefaultHTTPBodyTimeout   = 30 * time.Second // to read a request's body, once its headers are in
	DefaultHTTPIdleTimeout   = 2 * time.Minute  // a kept-alive connection waits this long for its next request
)

// ErrHTTPNeedsToken is returned by [CheckHTTPAddr] for an address beyond
// loopback when no token is set.
var ErrHTTPNeedsToken = errors.New("a non-loopback address needs " + HTTPTokenEnv)

// HTTPOptions configure [NewHTTPHandler] and [NewHTTPServer]. A nil
// *HTTPOptions, or a zero field, means the default.
type HTTPOptions struct {
	// Token, when set, is required of every request as "Authorization:
	// Bearer <Token>"; a request without it gets 401.
	Token string
	// AllowedOrigins are browser origins let in beside the loopback ones
	// (http or https on localhost, 127.0.0.1 or [::1], any port). A
	// request with any other Origin header gets 403; one without Origin
	// (not a browser) is let in.
	AllowedOrigins []string
	// SessionIdle closes a session that got no request this long. Default
	// [config.DefaultSessionIdle].
	SessionIdle time.Duration
	// MaxSessions bounds the live sessions. A new session past it closes
	// the one idle longest; when every session is busy it gets 503 with
	// Retry-After. Default [config.DefaultMaxSessions].
	MaxSessions int
	// HeaderTimeout, BodyTimeout and IdleTimeout bound a slow or silent
	// client's hold on a connection. Defaults [DefaultHTTPHeaderTimeout],
	// [DefaultHTTPBodyTimeout] and [DefaultHTTPIdleTimeout].
	HeaderTimeout time.Duration
	BodyTimeout   time.Duration
	IdleTimeout   time.Duration
	// Logger gets the transport's messages; nil discards them. The token
	// never reaches it.
	Logger *slog.Logger
}

func (o *HTTPOptions) withDefaults() HTTPOptions {
	var c HTTPOptions
	if o != nil {
		c = *o
	}
	if c.SessionIdle <= 0 {
		c.SessionIdle = config.DefaultSessionIdle
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = config.DefaultMaxSessions
	}
	if c.HeaderTimeout <= 0 {
		c.HeaderTimeout = DefaultHTTPHeaderTimeout
	}
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = DefaultHTTPBodyTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultHTTPIdleTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// CheckHTTPAddr refuses to serve on addr, an address for net.Listen, when
// it reaches beyond this machine and token is empty: anyone who reached
// the port could run every upstream tool. The error says how to set one.
func CheckHTTPAddr(addr, token string) error {
	if token != "" || isLoopbackAddr(addr) {
		return nil
	}
	return fmt.Errorf("serving on %s: %w: it is reachable beyond this machine, and whoever reaches it runs your tools. "+
		"Set a long random token, e.g. `export %s=$(openssl rand -hex 32)`, and have clients send "+
		"\"Authorization: Bearer <token>\"; or listen on 127.0.0.1", addr, ErrHTTPNeedsToken, HTTPTokenEnv)
}

// isLoopbackAddr reports whether addr names a loopback host: localhost or
// a loopback IP. An empty host (every interface) or any other name is not.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// NewHTTPHandler serves srv over Streamable HTTP behind the checks the MCP
// transport spec asks of a server: the Origin header, the bearer token when
// one is set, a bounded time to read a body, and a bounded number of
// sessions that close when idle. go-sdk's own checks (the Host of loopback
// requests, the 4 MiB body limit) stay on.
func NewHTTPHandler(srv *mcp.Server, opts *HTTPOptions) http.Handler {
	o := opts.withDefaults()
	h := &httpHandler{
		bodyTimeout: o.BodyTimeout,
		origins:     map[string]bool{},
		sessions:    newSessionCap(srv, o.MaxSessions, o.Logger),
		next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Logger: o.Logger, SessionTimeout: o.SessionIdle}),
	}
	if o.Token != "" {
		h.token = sha256.Sum256([]byte(o.Token))
		h.hasToken = true
	}
	for _, origin := range o.AllowedOrigins {
		if c, err := config.CanonicalOrigin(origin); err == nil {
			h.origins[c] = true
		}
	}
	return h
}

// NewHTTPServer returns an http.Server for h with the header and idle
// timeouts of opts (the body timeout is h's: a server-wide read deadline
// would also cut the long-lived event streams).
func NewHTTPServer(h http.Handler, opts *HTTPOptions) *http.Server {
	o := opts.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.HeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(o.Logger.Handler(), slog.LevelDebug),
	}
}

type httpHandler struct {
	token       [sha256.Size]byte // SHA-256 of the token: compared in constant time, whatever its length
	hasToken    bool
	origins     map[string]bool // allowed beside loopback, canonical
	bodyTimeout time.Duration
	sessions    *sessionCap
	next        http.Handler // go-sdk's
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !hostAllowed(r) {
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host), http.StatusForbidden)
		return
	}
	for _, origin := range r.Header.Values("Origin") {
		if !h.originAllowed(origin) {
			http.Error(w, "Forbidden: this Origin may not use this server (see bridge.http.allowedOrigins)", http.StatusForbidden)
			return
		}
	}
	if h.hasToken && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="capbridge"`)
		http.Error(w, "Unauthorized: send \"Authorization: Bearer <token>\" with the token in "+HTTPTokenEnv, http.StatusUnauthorized)
		return
	}
	if r.Method == http.MethodPost && !h.readBody(w, r) {
		return
	}
	h.sessions.serve(w, r, h.next)
}

// hostAllowed reports whether r's Host header names this server as it may
// be reached: a host and an optional numeric port, and on a connection to
// a loopback address, a loopback host (localhost, 127.0.0.0/8, ::1) and
// nothing more. go-sdk's own check splits "127.0.0.1:8930.evil.com" into a
// loopback host and a port it does not look at, which a DNS-rebinding page
// can send. The port is not compared with the listening one, so that a
// forwarded port (ssh -L) still reaches the server.
func hostAllowed(r *http.Request) bool {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, ""
		if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
			host = host[1 : len(host)-1]
		}
	}
	if host == "" || !validPort(port) {
		return false
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil || !isLoopbackAddr(local.String()) {
		return validHostName(host)
	}
	if host == "localhost" { // as go-sdk spells it: "LOCALHOST" is refused there
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validPort reports whether port is empty or a port number.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.Atoi(port)
	return err == nil && n > 0 && n <= 65535 && strconv.Itoa(n) == port
}

// validHostName reports whether host is an IP address or a DNS name of
// letters, digits, hyphens and dots.
func validHostName(host string) bool {
	if net.ParseIP(host) != nil {
		return true
	}
	for _, c := range host {
		if !(c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return len(host) <= 253
}

// originAllowed reports whether a browser page from origin may call: a
// loopback origin, or one the config lists.
func (h *httpHandler) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return true
		}
	}
	c, err := config.CanonicalOrigin(origin)
	return err == nil && h.origins[c]
}

// authorized reports whether r carries the bearer token.
func (h *httpHandler) authorized(r *http.Request) bool {
	const scheme = "bearer "
	auth := r.Header.Get("Authorization")
	if len(auth) <= len(scheme) || !equalFoldASCII(auth[:len(scheme)], scheme) {
		return false
	}
	sum := sha256.Sum256([]byte(auth[len(scheme):]))
	return subtle.ConstantTimeCompare(sum[:], h.token[:]) == 1
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// readBody reads r's body within h.bodyTimeout and go-sdk's size limit, and
// sets it back on r for go-sdk. A body that does not arrive in time or is
// too large gets its error answer and readBody reports false. Past the body
// the connection has no read deadline, so that a long tool call or event
// stream is not cut.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) bool {
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(h.bodyTimeout)) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, mcp.DefaultMaxRequestBodyBytes))
	if err == nil {
		if deadline {
			rc.SetReadDeadline(time.Time{})
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		return true
	}
	// Closed unread, the body makes net/http close the connection after
	// the answer rather than read the rest of it (the deadline stays).
	r.Body.Close()
	var tooLarge *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("request body exceeds %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
	case errors.As(err, &netErr) && netErr.Timeout():
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("request body not received within %s", h.bodyTimeout), http.StatusRequestTimeout)
	default:
		http.Error(w, "reading the request body failed", http.StatusBadRequest)
	}
	return false
}
