package search

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/capbridge/capbridge/internal/cputime"
	"github.com/capbridge/capbridge/store"
)

// benchCatalogFiles are mixed into the benchmark catalogs, in this order;
// the BFCL set is added a second time, under other server names, to reach
// 5,000 tools.
var benchCatalogFiles = []string{
	filepath.Join("..", "testdata", "catalogs", "laptop.jsonl.gz"),
	filepath.Join("..", "testdata", "catalogs", "twilio-all.jsonl.gz"),
	filepath.Join(benchDir("retrieval_metatool"), "catalog.jsonl.gz"),
	filepath.Join(benchDir("retrieval_bfcl"), "catalog.jsonl.gz"),
}

// benchRaws returns the first n tools of the mixed catalogs, grouped by
// server in first-seen order.
func benchRaws(b testing.TB, n int) (servers []string, raws map[string][]json.RawMessage) {
	raws = make(map[string][]json.RawMessage)
	count := 0
	for round := 0; count < n; round++ {
		for _, path := range benchCatalogFiles {
			f, err := OpenFile(path)
			if err != nil {
				b.Fatalf("bench catalog missing: %v", err)
			}
			err = eachLine(f, func(_ int, line []byte) error {
				if count == n {
					return nil
				}
				var obj map[string]json.RawMessage
				if err := json.Unmarshal(line, &obj); err != nil {
					return err
				}
				var server string
				json.Unmarshal(obj["server"], &server)
				if round > 0 {
					server = fmt.Sprintf("%s-%d", server, round)
				}
				delete(obj, "server")
				raw, _ := json.Marshal(obj)
				if _, ok := raws[server]; !ok {
					servers = append(servers, server)
				}
				raws[server] = append(raws[server], raw)
				count++
				return nil
			})
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	return servers, raws
}

// benchQueries mixes BFCL and MetaTool queries.
func benchQueries(b testing.TB) []string {
	var out []string
	for _, set := range []string{"retrieval_bfcl", "retrieval_metatool"} {
		f, err := OpenFile(filepath.Join(benchDir(set), "queries.jsonl.gz"))
		if err != nil {
			b.Fatalf("bench queries missing: %v", err)
		}
		qs, err := ReadQueries(f)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range qs[:250] {
			out = append(out, q.Query)
		}
	}
	return out
}

// BenchmarkSearch measures one discovery search (limit 5) over catalogs of
// 100, 1,000 and 5,000 real tools, without and with 384-dimension vectors
// (a toy embedding served over HTTP by an in-process endpoint). Besides
// ns/op it reports p50-ms and p95-ms over the timed searches, and
// cpu-ms/op, the process's CPU time per search (with the embeddings
// endpoint's), which a busy machine does not inflate as it does wall time.
func BenchmarkSearch(b *testing.B) {
	queries := benchQueries(b)
	for _, n := range []int{100, 1000, 5000} {
		for _, vectors := range []bool{false, true} {
			b.Run(fmt.Sprintf("tools=%d/vectors=%v", n, vectors), func(b *testing.B) {
				ctx := context.Background()
				st := openStore(b)
				var emb *Embedder
				if vectors {
					srv := toyEmbeddings(b, 384, nil)
					var err error
					if emb, err = NewEmbedder(EmbedderOptions{URL: srv.URL + "/v1", Model: "toy"}); err != nil {
						b.Fatal(err)
					}
				}
				servers, raws := benchRaws(b, n)
				for _, server := range servers {
					rep, err := Ingest(ctx, st, store.Server{Name: server}, raws[server], &IngestOptions{Embedder: emb})
					if err != nil {
						b.Fatal(err)
					}
					if rep.EmbedErr != nil {
						b.Fatal(rep.EmbedErr)
					}
				}
				s := New(st, &Options{Embedder: emb})
				took := make([]time.Duration, 0, b.N)
				cpu := cputime.Process()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					start := time.Now()
					if _, err := s.Search(ctx, queries[i%len(queries)], Query{Limit: 5}); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(start))
				}
				b.StopTimer()
				b.ReportMetric(float64(cputime.Process()-cpu)/float64(time.Millisecond)/float64(len(took)), "cpu-ms/op")
				slices.Sort(took)
				b.ReportMetric(percentileMS(took, 50), "p50-ms")
				b.ReportMetric(percentileMS(took, 95), "p95-ms")
			})
		}
	}
}

// BenchmarkSearchLearned is BenchmarkSearch over 5,000 tools, words and
// trigrams, with store.MaxLearned runs learned (the first queries, each
// tied to its first result) and Query.Learning off and on: what learning
// adds to a search while nothing new is learned.
func BenchmarkSearchLearned(b *testing.B) {
	queries := benchQueries(b)
	ctx := context.Background()
	st := openStore(b)
	servers, raws := benchRaws(b, 5000)
	for _, server := range servers {
		if _, err := Ingest(ctx, st, store.Server{Name: server}, raws[server], nil); err != nil {
			b.Fatal(err)
		}
	}
	s := New(st, nil)
	var runs []Run
	for i := 0; len(runs) < store.MaxLearned; i++ {
		q := queries[i%len(queries)]
		rs, err := s.Search(ctx, q, Query{Limit: 1})
		if err != nil {
			b.Fatal(err)
		}
		if len(rs) > 0 {
			runs = append(runs, Run{Intent: q, Server: rs[0].Server, Tool: rs[0].Name, Hash: rs[0].Tool.Hash, Weight: 1})
		}
	}
	if err := s.Learn(ctx, runs); err != nil {
		b.Fatal(err)
	}
	for _, learning := range []bool{false, true} {
		b.Run(fmt.Sprintf("learning=%v", learning), func(b *testing.B) {
			took := make([]time.Duration, 0, b.N)
			cpu := cputime.Process()
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				if _, err := s.Search(ctx, queries[i%len(queries)], Query{Limit: 5, Learning: learning}); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(time.Millisecond)/float64(len(took)), "cpu-ms/op")
			slices.Sort(took)
			b.ReportMetric(percentileMS(took, 50), "p50-ms")
			b.ReportMetric(percentileMS(took, 95), "p95-ms")
		})
	}
}
