package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHTTPConfig: bridge.http's keys, their defaults, and the values
// refused with a message naming the key.
func TestHTTPConfig(t *testing.T) {
	tests := []struct {
		name, http string // the bridge.http object, "" for none
		want       HTTP
		err        string
	}{
		{name: "defaults", want: HTTP{SessionIdle: 30 * time.Minute, MaxSessions: 1000}},
		{name: "set", http: `{"allowedOrigins":["https://App.example.com/","http://localhost:3000"],"sessionIdle":"5m","maxSessions":50}`,
			want: HTTP{AllowedOrigins: []string{"https://app.example.com", "http://localhost:3000"}, SessionIdle: 5 * time.Minute, MaxSessions: 50}},
		{name: "negative maxSessions", http: `{"maxSessions":-1}`, err: "bridge.http.maxSessions"},
		{name: "bad sessionIdle", http: `{"sessionIdle":"soon"}`, err: "bridge.http.sessionIdle"},
		{name: "zero sessionIdle", http: `{"sessionIdle":"0s"}`, err: "bridge.http.sessionIdle"},
		{name: "origin with a path", http: `{"allowedOrigins":["https://app.example.com/x"]}`, err: "bridge.http.allowedOrigins"},
		{name: "origin without a scheme", http: `{"allowedOrigins":["app.example.com"]}`, err: "bridge.http.allowedOrigins"},
		{name: "wildcard origin", http: `{"allowedOrigins":["*"]}`, err: "bridge.http.allowedOrigins"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := `{"mcpServers":{}}`
			if tt.http != "" {
				data = `{"mcpServers":{},"bridge":{"http":` + tt.http + `}}`
			}
			cfg, err := Parse([]byte(data), "config.json")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := cfg.Bridge.HTTP
			if !slices.Equal(got.AllowedOrigins, tt.want.AllowedOrigins) || got.SessionIdle != tt.want.SessionIdle || got.MaxSessions != tt.want.MaxSessions {
				t.Errorf("bridge.http = %+v, want %+v", got, tt.want)
			}
		})
	}
}
