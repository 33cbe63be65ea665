package search

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// toyEmbeddings serves [ToyEmbeddings] of dim dimensions, with handle able
// to answer a request first.
func toyEmbeddings(t testing.TB, dim int, handle func(w http.ResponseWriter, r *http.Request) bool) *httptest.Server {
	t.Helper()
	toy := ToyEmbeddings(dim)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if handle != nil && handle(w, r) {
			return
		}
		toy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}
