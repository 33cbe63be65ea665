package config

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Defaults for bridge.http, the settings of `serve --http`.
const (
	DefaultSessionIdle = 30 * time.Minute
	DefaultMaxSessions = 1000
)

// HTTP holds bridge.http, defaults filled in. serve reads it at start.
type HTTP struct {
	// AllowedOrigins are the browser origins ("https://app.example.com")
	// let in beside the loopback ones; any other Origin header gets 403.
	AllowedOrigins []string
	SessionIdle    time.Duration // a session with no request this long is closed
	MaxSessions    int           // live sessions at most; the oldest idle one makes room
}

type httpFile struct {
	AllowedOrigins []string `json:"allowedOrigins"`
	SessionIdle    string   `json:"sessionIdle"`
	MaxSessions    int      `json:"maxSessions"`
}

func httpConfig(f *httpFile) (HTTP, error) {
	c := HTTP{SessionIdle: DefaultSessionIdle, MaxSessions: DefaultMaxSessions}
	if f == nil {
		return c, nil
	}
	var err error
	if c.SessionIdle, err = duration("bridge.http.sessionIdle", f.SessionIdle, DefaultSessionIdle); err != nil {
		return c, err
	}
	switch {
	case f.MaxSessions < 0:
		return c, fmt.Errorf("bridge.http.maxSessions: %d must be positive", f.MaxSessions)
	case f.MaxSessions > 0:
		c.MaxSessions = f.MaxSessions
	}
	for _, o := range f.AllowedOrigins {
		origin, err := CanonicalOrigin(o)
		if err != nil {
			return c, fmt.Errorf("bridge.http.allowedOrigins: %w", err)
		}
		c.AllowedOrigins = append(c.AllowedOrigins, origin)
	}
	return c, nil
}

// CanonicalOrigin returns origin as a browser sends it in an Origin header:
// scheme://host[:port], lower case, with no path.
func CanonicalOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q is not an origin (want scheme://host[:port], e.g. \"https://app.example.com\")", origin)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}
