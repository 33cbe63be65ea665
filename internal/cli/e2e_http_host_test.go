package cli

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestServeHTTPHost: serve --http on loopback answers only requests whose
// Host header is a loopback host with a numeric port or none. A
// DNS-rebinding page's Host ("127.0.0.1:PORT.evil.com", "evil.com") gets 403.
func TestServeHTTPHost(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{}, nil)
	s := startHTTPServe(t, cfg, nil)
	u, err := url.Parse(s.url)
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()
	for _, tt := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"127.0.0.1", http.StatusOK},
		{"127.0.0.1:2222", http.StatusOK}, // a forwarded port (ssh -L)
		{"127.0.0.1:" + port + ".evil.com", http.StatusForbidden},
		{"localhost:" + port + ".evil.com", http.StatusForbidden},
		{"127.0.0.1:" + port + "@evil.com", http.StatusForbidden},
		{"127.0.0.1:0" + port, http.StatusForbidden},
		{"127.0.0.1:99999", http.StatusForbidden},
		{"evil.com:" + port, http.StatusForbidden},
		{"localhost.evil.com:" + port, http.StatusForbidden},
		{"127.0.0.1.evil.com:" + port, http.StatusForbidden},
		{"[::1]:" + port, http.StatusOK},
	} {
		t.Run(tt.host, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(initializeBody))
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tt.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			resp, err := http.DefaultClient.Do(req.WithContext(ctx))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("Host %q: %s %q, want %d", tt.host, resp.Status, body, tt.want)
			}
		})
	}
}
