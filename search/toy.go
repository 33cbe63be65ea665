package search

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
)

// toyVector is a fixed toy embedding: the words of text hashed into dim
// buckets, L2-normalized. Texts sharing words point the same way.
func toyVector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for _, w := range words(text) {
		if stopWords[w] {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%uint32(dim)]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n == 0 {
		v[0], n = 1, 1
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// ToyEmbeddings is an OpenAI-compatible /v1/embeddings handler answering
// deterministic dim-dimension vectors: the words of each input hashed into
// buckets, L2-normalized, so texts sharing words point the same way. It
// stands in for a model where one cannot run (benchmarks, tests): the
// vector leg's real path (HTTP client, vec0 KNN) is exercised, a model's
// latency and meaning are not.
func ToyEmbeddings(dim int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		var req embeddingsRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string `json:"object"`
			Data   []item `json:"data"`
			Model  string `json:"model"`
		}{Object: "list", Model: req.Model}
		for i, in := range req.Input {
			resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: toyVector(in, dim)})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	})
}
