package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Errors an Embedder returns; callers branch with errors.Is.
var (
	// ErrEmbedder wraps every failure of the embeddings endpoint: refused
	// connection, timeout, HTTP error status, malformed answer.
	ErrEmbedder = errors.New("embeddings endpoint failed")
	// ErrEmbedderDown is returned without calling the endpoint while it is
	// resting after a failure (EmbedderOptions.Retry).
	ErrEmbedderDown = errors.New("embeddings endpoint is down; retrying later")
	// ErrWrongDimension means the endpoint answered vectors of another
	// length than expected.
	ErrWrongDimension = errors.New("embeddings have the wrong dimension")
)

// EmbedderOptions configure NewEmbedder.
type EmbedderOptions struct {
	// URL is the endpoint's base URL ("http://127.0.0.1:11434/v1"); requests
	// go to URL/embeddings. A URL without /v1 gets /v1/embeddings, one that
	// already ends in /embeddings is used as is.
	URL string
	// Model is the model name sent with each request.
	Model string
	// APIKey, if set, is sent as a Bearer token. The config names the
	// environment variable holding it; the caller reads it.
	APIKey string
	// Dim is the expected dimension; 0 learns it from the first answer.
	Dim int
	// Timeout bounds a request for one text: a search's intent. Default 5s.
	Timeout time.Duration
	// BatchTimeout bounds a request for several texts: indexing, where a
	// local model may take seconds per batch. Default the larger of
	// Timeout and 60s.
	BatchTimeout time.Duration
	// BatchSize is the most texts per request. Default 64.
	BatchSize int
	// Retry is how long calls fail fast with ErrEmbedderDown after a
	// failure, so a down endpoint costs one timeout, not one per search.
	// Default 1 minute.
	Retry time.Duration
	// HTTPClient is the client to use; default a new one.
	HTTPClient *http.Client
	// Logger receives one warning when the endpoint goes down and one
	// notice when it is back. Default discard.
	Logger *slog.Logger
}

// Embedder is a client of an OpenAI-compatible /v1/embeddings endpoint
// (Ollama, llama.cpp server, LM Studio, OpenAI). It is safe for concurrent use.
type Embedder struct {
	url, model, apiKey string
	timeout            time.Duration
	batchTimeout       time.Duration
	batch              int
	retry              time.Duration
	client             *http.Client
	logger             *slog.Logger

	mu        sync.Mutex // guards the fields below
	dim       int        // expected dimension; 0 until known
	downUntil time.Time  // calls fail fast before this
	down      bool       // last call failed (for logging transitions once)
}

// NewEmbedder returns an Embedder; URL and Model are required.
func NewEmbedder(opts EmbedderOptions) (*Embedder, error) {
	if opts.URL == "" || opts.Model == "" {
		return nil, errors.New("creating embedder: URL and model are required")
	}
	e := &Embedder{
		url:     endpointURL(opts.URL),
		model:   opts.Model,
		apiKey:  opts.APIKey,
		timeout: cmpOr(opts.Timeout, 5*time.Second),
		batch:   cmpOr(opts.BatchSize, 64),
		retry:   cmpOr(opts.Retry, time.Minute),
		client:  opts.HTTPClient,
		logger:  opts.Logger,
		dim:     opts.Dim,
	}
	e.batchTimeout = cmpOr(opts.BatchTimeout, max(e.timeout, time.Minute))
	if e.client == nil {
		e.client = &http.Client{}
	}
	if e.logger == nil {
		e.logger = slog.New(slog.DiscardHandler)
	}
	return e, nil
}

func cmpOr[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// endpointURL turns a base URL into the embeddings endpoint.
func endpointURL(base string) string {
	u := strings.TrimRight(base, "/")
	switch {
	case strings.HasSuffix(u, "/embeddings"):
		return u
	case strings.HasSuffix(u, "/v1"):
		return u + "/embeddings"
	}
	return u + "/v1/embeddings"
}

// Model returns the model name, the key of the embedding cache.
func (e *Embedder) Model() string { return e.model }

// Dim returns the dimension of the vectors, 0 until the first answer.
func (e *Embedder) Dim() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

// Embed returns one vector per text, in batches of BatchSize, each request
// bounded by Timeout (one text) or BatchTimeout (several). Any failure marks the endpoint down for Retry.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := e.ready(); err != nil {
		return nil, err
	}
	out := make([][]float32, 0, len(texts))
	for batch := range slices.Chunk(texts, e.batch) {
		vs, err := e.request(ctx, batch)
		if err != nil {
			if ctx.Err() == nil { // the caller giving up is not the endpoint's fault
				e.fail(err)
			}
			return nil, err
		}
		out = append(out, vs...)
	}
	e.succeed()
	return out, nil
}

// ready fails fast while the endpoint rests after a failure.
func (e *Embedder) ready() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if time.Now().Before(e.downUntil) {
		return ErrEmbedderDown
	}
	return nil
}

// fail marks the endpoint down and logs the first failure of a run of them.
func (e *Embedder) fail(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.downUntil = time.Now().Add(e.retry)
	if !e.down {
		e.down = true
		e.logger.Warn("embeddings unavailable; searching without vectors", "url", e.url, "retry", e.retry, "err", err)
	}
}

func (e *Embedder) succeed() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.down {
		e.down = false
		e.logger.Info("embeddings available again", "url", e.url)
	}
}

// embeddingsRequest and embeddingsResponse are the OpenAI wire shapes.
type embeddingsRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// maxResponseBytes bounds an endpoint's answer.
const maxResponseBytes = 64 << 20

// request embeds one batch.
func (e *Embedder) request(ctx context.Context, texts []string) ([][]float32, error) {
	timeout := e.timeout
	if len(texts) > 1 {
		timeout = e.batchTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, err := json.Marshal(embeddingsRequest{Model: e.model, Input: texts, EncodingFormat: "float"})
	if err != nil {
		return nil, fmt.Errorf("encoding embeddings request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embedding %d texts: %w: %w", len(texts), ErrEmbedder, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.apiKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embedding %d texts: %w: %w", len(texts), ErrEmbedder, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, fmt.Errorf("reading embeddings answer: %w: %w", ErrEmbedder, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embedding %d texts: %w: HTTP %d: %.200s", len(texts), ErrEmbedder, resp.StatusCode, data)
	}
	var r embeddingsResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decoding embeddings answer: %w: %w", ErrEmbedder, err)
	}
	if len(r.Data) != len(texts) {
		return nil, fmt.Errorf("embedding %d texts: %w: got %d vectors", len(texts), ErrEmbedder, len(r.Data))
	}
	out := make([][]float32, len(texts))
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= len(out) || out[d.Index] != nil {
			return nil, fmt.Errorf("embedding %d texts: %w: bad index %d", len(texts), ErrEmbedder, d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, e.checkDim(out)
}

// checkDim learns the dimension from the first answer and holds every
// later vector to it.
func (e *Embedder) checkDim(vs [][]float32) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, v := range vs {
		if e.dim == 0 && len(v) > 0 {
			e.dim = len(v)
		}
		if len(v) != e.dim {
			return fmt.Errorf("checking embeddings: %w: got %d, want %d", ErrWrongDimension, len(v), e.dim)
		}
	}
	return nil
}
