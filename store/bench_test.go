package store

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/capbridge/capbridge/internal/cputime"
)

// benchCatalogs are the real catalogs the benchmarks store, relative to
// the repository's testdata/ (gzipped; sources in testdata/README.md).
var benchCatalogs = []string{
	"bench/retrieval_bfcl/catalog.jsonl.gz",
	"bench/retrieval_metatool/catalog.jsonl.gz",
	"catalogs/laptop.jsonl.gz",
}

// benchTools builds n tools from the shared catalogs, cycling through them
// (later rounds get a #round suffix) until there are n. Record is the raw
// tools/list line; Doc is plain text taken from it.
func benchTools(tb testing.TB, n int) []Tool {
	tb.Helper()
	var base []Tool
	for _, rel := range benchCatalogs {
		path := filepath.Join("..", "testdata", filepath.FromSlash(rel))
		f, err := os.Open(path)
		if err != nil {
			tb.Fatalf("bench catalogs missing: %v", err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			tb.Fatalf("%s: %v", rel, err)
		}
		sc := bufio.NewScanner(zr)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			t, err := benchTool(sc.Bytes())
			if err != nil {
				f.Close()
				tb.Fatalf("%s: %v", rel, err)
			}
			base = append(base, t)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			tb.Fatalf("%s: %v", rel, err)
		}
	}
	tools := make([]Tool, 0, n)
	seen := make(map[string]bool, n)
	for round := 0; len(tools) < n; round++ {
		for _, t := range base {
			if len(tools) == n {
				break
			}
			if round > 0 {
				t.Name = fmt.Sprintf("%s#%d", t.Name, round)
			}
			if seen[t.Name] {
				continue
			}
			seen[t.Name] = true
			tools = append(tools, t)
		}
	}
	return tools
}

type rawTool struct {
	Server      string          `json:"server"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type rawSchema struct {
	Properties map[string]struct {
		Description string `json:"description"`
		Enum        []any  `json:"enum"`
	} `json:"properties"`
}

func benchTool(line []byte) (Tool, error) {
	var rt rawTool
	if err := json.Unmarshal(line, &rt); err != nil {
		return Tool{}, err
	}
	var sch rawSchema
	_ = json.Unmarshal(rt.InputSchema, &sch) // a schema without properties is fine
	var params, descs, enums []string
	for name, p := range sch.Properties {
		params = append(params, splitName(name))
		descs = append(descs, p.Description)
		for _, e := range p.Enum {
			enums = append(enums, fmt.Sprint(e))
		}
	}
	sum := sha256.Sum256(rt.InputSchema)
	name := rt.Server + "." + rt.Name
	card, _ := json.Marshal(map[string]string{"name": rt.Name, "summary": rt.Description, "provider": rt.Server})
	return Tool{
		Name:   name,
		Hash:   hex.EncodeToString(sum[:]),
		Record: append([]byte(nil), line...),
		Card:   card,
		Doc: Doc{
			Name:       splitName(rt.Name) + " " + rt.Name,
			Desc:       rt.Description,
			Params:     strings.Join(params, " "),
			ParamDescs: strings.Join(descs, " "),
			Enums:      strings.Join(enums, " "),
		},
	}, nil
}

// splitName splits camelCase, snake_case, kebab-case and dotted names.
func splitName(name string) string {
	var b strings.Builder
	prev := ' '
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return strings.ToLower(b.String())
}

const benchSize = 5000

// loop runs f b.N times and reports, beside wall time, the process CPU
// time per call: the machines these run on are shared, and wall time there
// measures the neighbours too.
func loop(b *testing.B, f func() error) {
	b.Helper()
	start := cputime.Process()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-start).Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkReplaceCatalog5000 stores 5,000 real tools as one server's
// catalog: into an empty database (first index), again unchanged (a
// refresh), and with every description changed.
func BenchmarkReplaceCatalog5000(b *testing.B) {
	tools := benchTools(b, benchSize)
	changed := make([]Tool, len(tools))
	for i, t := range tools {
		t.Doc.Desc += " (revised)"
		changed[i] = t
	}
	ctx := context.Background()
	srv := Server{Name: "bench"}
	// cpu sums the process CPU time of the timed parts only.
	var cpu time.Duration
	timed := func(b *testing.B, f func() error) {
		start := cputime.Process()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - start
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.N*len(tools))/b.Elapsed().Seconds(), "tools/s")
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		cpu = 0
	}

	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s, err := Open(ctx, filepath.Join(b.TempDir(), "catalog.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			timed(b, func() error { return s.ReplaceCatalog(ctx, srv, toolSeq(tools...)) })
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
		report(b)
	})
	for _, tc := range []struct {
		name string
		next []Tool
	}{{"unchanged", tools}, {"changed", changed}} {
		b.Run(tc.name, func(b *testing.B) {
			s, _ := openTemp(b)
			if err := s.ReplaceCatalog(ctx, srv, toolSeq(tools...)); err != nil {
				b.Fatal(err)
			}
			versions := [2][]Tool{tc.next, tools}
			i := 0
			for b.Loop() {
				timed(b, func() error { return s.ReplaceCatalog(ctx, srv, toolSeq(versions[i%2]...)) })
				i++
			}
			report(b)
		})
	}
}

// BenchmarkOpen5000 opens an existing 5,000-tool catalog and answers a
// first query; checked, it also runs the whole-file check serve and index
// run at start (OpenChecked): the start-up cost serve pays.
func BenchmarkOpen5000(b *testing.B) {
	b.Run("unchecked", func(b *testing.B) {
		benchOpen(b, func(ctx context.Context, path string) (*Store, error) { return Open(ctx, path, nil) })
	})
	b.Run("checked", func(b *testing.B) {
		benchOpen(b, func(ctx context.Context, path string) (*Store, error) {
			s, _, err := OpenChecked(ctx, path, nil)
			return s, err
		})
	})
}

func benchOpen(b *testing.B, open func(context.Context, string) (*Store, error)) {
	ctx := context.Background()
	s, path := openTemp(b)
	if err := s.ReplaceCatalog(ctx, Server{Name: "bench"}, toolSeq(benchTools(b, benchSize)...)); err != nil {
		b.Fatal(err)
	}
	s.Close()
	loop(b, func() error {
		s, err := open(ctx, path)
		if err != nil {
			return err
		}
		defer s.Close()
		hits, err := s.MatchWords(ctx, `"send" OR "message"`, [5]float64{4, 1, 2, 1, 1}, 5)
		if err != nil || len(hits) == 0 {
			return fmt.Errorf("first query: %v, %w", hits, err)
		}
		_, err = s.ToolsByID(ctx, ids(hits))
		return err
	})
}

// BenchmarkSearchTables5000 times one query of each search table over a
// 5,000-tool catalog, for search's latency budget. MatchWords and
// RankWords answer the same words query, by FTS5's bm25 and from the
// posting lists.
func BenchmarkSearchTables5000(b *testing.B) {
	ctx := context.Background()
	s, _ := openTemp(b)
	if err := s.ReplaceCatalog(ctx, Server{Name: "bench"}, toolSeq(benchTools(b, benchSize)...)); err != nil {
		b.Fatal(err)
	}
	weights := [5]float64{4, 1, 2, 1, 1}
	legs := []struct {
		name string
		run  func() (int, error)
	}{
		{"MatchWords", func() (int, error) {
			h, err := s.MatchWords(ctx, `"create" OR "calendar" OR "event"`, weights, 50)
			return len(h), err
		}},
		{"RankWords", func() (int, error) {
			h, err := s.RankWords(ctx, []WordTerm{{Text: "create"}, {Text: "calendar"}, {Text: "event"}}, weights, 50)
			return len(h), err
		}},
		{"MatchTrigrams", func() (int, error) {
			h, err := s.MatchTrigrams(ctx, `"cal" OR "ale" OR "len" OR "end" OR "nde" OR "der"`, 50)
			return len(h), err
		}},
		{"VocabularyMark", func() (int, error) {
			m, err := s.VocabularyMark(ctx)
			return int(m.ID), err
		}},
		{"Terms", func() (int, error) {
			h, err := s.Terms(ctx, []string{"create", "calender", "event"})
			return len(h), err
		}},
		{"ToolsByID5", func() (int, error) {
			h, err := s.ToolsByID(ctx, []int64{1, 500, 1000, 2500, 4999})
			return len(h), err
		}},
	}
	for _, leg := range legs {
		b.Run(leg.name, func(b *testing.B) {
			loop(b, func() error {
				if n, err := leg.run(); err != nil || n == 0 {
					return fmt.Errorf("%d results, %w", n, err)
				}
				return nil
			})
		})
	}
}

// BenchmarkVectors5000 stores 384-dimension vectors for 5,000 tools and
// times one KNN query over them.
func BenchmarkVectors5000(b *testing.B) {
	ctx := context.Background()
	s, _ := openTemp(b)
	if err := s.ReplaceCatalog(ctx, Server{Name: "bench"}, toolSeq(benchTools(b, benchSize)...)); err != nil {
		b.Fatal(err)
	}
	const dim = 384
	if err := s.EnsureVectors(ctx, dim); err != nil {
		b.Fatal(err)
	}
	tools, err := s.ToolsWithoutVectors(ctx)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	vs := make([]Vector, len(tools))
	for i, t := range tools {
		v := make([]float32, dim)
		for j := range v {
			v[j] = r.Float32() - 0.5
		}
		vs[i] = Vector{ToolID: t.ID, ContentHash: t.ContentHash, Vec: v}
	}
	b.Run("PutVectors", func(b *testing.B) {
		loop(b, func() error { return s.PutVectors(ctx, "bench", vs) })
	})
	b.Run("NearestVectors", func(b *testing.B) {
		loop(b, func() error {
			hits, err := s.NearestVectors(ctx, vs[42].Vec, 20)
			if err != nil || len(hits) != 20 || hits[0].ID != vs[42].ToolID {
				return fmt.Errorf("hits %v, %w; want 20 led by tool %d", hits, err, vs[42].ToolID)
			}
			return nil
		})
	})
}
