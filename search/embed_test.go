package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// logBuffer is a concurrency-safe slog sink for counting warnings.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

func TestEmbedderVectorLeg(t *testing.T) {
	srv := toyEmbeddings(t, 64, nil)
	emb, err := NewEmbedder(EmbedderOptions{URL: srv.URL + "/v1", Model: "toy", BatchSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	s, st := fixtureSearcher(t, &Options{Embedder: emb})
	ctx := context.Background()
	rs, err := s.Search(ctx, "weather forecast for a city", Query{Limit: 3, Legs: []Leg{LegVectors}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || rs[0].Name != "get_forecast" {
		t.Fatalf("vector leg = %v, want weather/get_forecast first", names(rs))
	}
	if len(rs[0].Legs) != 1 || rs[0].Legs[0].Leg != LegVectors {
		t.Errorf("legs of the first result = %+v, want the vector leg only", rs[0].Legs)
	}
	// A refresh of an unchanged catalog embeds nothing again.
	rep, err := Ingest(ctx, st, storeServer("weather"), fixtureRaws(t, "weather"), &IngestOptions{Embedder: emb})
	if err != nil || rep.EmbedErr != nil {
		t.Fatalf("re-ingest: %v, %v", err, rep.EmbedErr)
	}
	if rep.Embedded != 0 {
		t.Errorf("re-ingest of an unchanged catalog embedded %d tools, want 0", rep.Embedded)
	}
	// A changed tool alone is embedded again.
	raws := fixtureRaws(t, "calendar")
	raws[1] = json.RawMessage(strings.Replace(string(raws[1]), "upcoming", "future", 1))
	rep, err = Ingest(ctx, st, storeServer("calendar"), raws, &IngestOptions{Embedder: emb})
	if err != nil || rep.EmbedErr != nil {
		t.Fatalf("re-ingest: %v, %v", err, rep.EmbedErr)
	}
	if rep.Embedded != 1 {
		t.Errorf("re-ingest with one changed tool embedded %d tools, want 1", rep.Embedded)
	}
}

func TestEmbedderFailures(t *testing.T) {
	const timeout = 200 * time.Millisecond
	tests := []struct {
		name    string
		handle  func(w http.ResponseWriter, r *http.Request) bool
		down    bool // the server is closed before use
		dim     int  // dimension the embedder expects
		wantErr error
	}{
		{name: "down", down: true, dim: 64, wantErr: ErrEmbedder},
		{name: "slow", dim: 64, wantErr: ErrEmbedder, handle: func(w http.ResponseWriter, r *http.Request) bool {
			select {
			case <-time.After(10 * timeout):
			case <-r.Context().Done():
			}
			return true
		}},
		{name: "HTTP 500", dim: 64, wantErr: ErrEmbedder, handle: func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, "model not loaded", http.StatusInternalServerError)
			return true
		}},
		{name: "wrong dimension", dim: 32, wantErr: ErrWrongDimension},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := toyEmbeddings(t, 64, tt.handle)
			if tt.down {
				srv.Close()
			}
			var logs logBuffer
			emb, err := NewEmbedder(EmbedderOptions{URL: srv.URL, Model: "toy", Dim: tt.dim, Timeout: timeout, BatchTimeout: timeout,
				Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			// Ingest stores the catalog whatever the endpoint does.
			s, st := fixtureSearcher(t, &Options{Embedder: emb})
			ctx := context.Background()
			rep, err := Ingest(ctx, st, storeServer("weather"), fixtureRaws(t, "weather"), &IngestOptions{Embedder: emb})
			if err != nil || rep.Stored != 1 || rep.EmbedErr == nil {
				t.Errorf("Ingest with a failing endpoint = %+v, %v; want stored, EmbedErr set, no error", rep, err)
			}
			if _, err := emb.Embed(ctx, []string{"x"}); !errors.Is(err, ErrEmbedderDown) {
				t.Errorf("Embed right after a failure = %v, want ErrEmbedderDown (resting)", err)
			}
			for range 3 {
				start := time.Now()
				rs, err := s.Search(ctx, "weather forecast", Query{Limit: 3})
				if err != nil {
					t.Fatal(err)
				}
				if took := time.Since(start); took > 2*timeout {
					t.Errorf("search took %v with a failing endpoint, want under %v", took, 2*timeout)
				}
				if len(rs) == 0 || rs[0].Name != "get_forecast" {
					t.Errorf("search = %v, want the other legs' answer", names(rs))
				}
			}
			if n := logs.count("level=WARN"); n != 1 {
				t.Errorf("%d warnings logged, want 1:\n%s", n, logs.buf.String())
			}
			// A fresh embedder sees the failure itself.
			fresh, _ := NewEmbedder(EmbedderOptions{URL: srv.URL, Model: "toy", Dim: tt.dim, Timeout: timeout})
			if _, err := fresh.Embed(ctx, []string{"weather"}); !errors.Is(err, tt.wantErr) {
				t.Errorf("Embed = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestEndpointURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://h:11434/v1", "http://h:11434/v1/embeddings"},
		{"http://h:11434/v1/", "http://h:11434/v1/embeddings"},
		{"http://h:11434", "http://h:11434/v1/embeddings"},
		{"https://api.example/v1/embeddings", "https://api.example/v1/embeddings"},
	}
	for _, tt := range tests {
		if got := endpointURL(tt.in); got != tt.want {
			t.Errorf("endpointURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
