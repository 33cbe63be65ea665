package bridge

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/internal/cputime"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// BenchmarkIndexLaptop indexes the laptop catalog (21 servers, 1,011 real
// tools) into a new store, server by server as Index does (normalizing
// and storing), once without pins and once pinning every tool, and
// reports the CPU time of each and what pinning adds to an index from
// scratch:
//
//	go test -run '^$' -bench BenchmarkIndexLaptop -benchtime 10x ./bridge/
func BenchmarkIndexLaptop(b *testing.B) {
	servers, byServer := laptopByServer(b)
	ctx := context.Background()
	// index indexes the whole catalog into a new store and returns the
	// process CPU time it took: the machines are shared, and wall time
	// measures the neighbours too.
	index := func(pinned bool) time.Duration {
		b.StopTimer()
		st, err := store.Open(ctx, filepath.Join(b.TempDir(), "catalog.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		b.StartTimer()
		began := cputime.Process()
		for _, s := range servers {
			opts := &search.IngestOptions{}
			if pinned {
				opts.Pin = pinRule(config.Bridge{Pinning: config.PinningRisk}, s, false, slog.New(slog.DiscardHandler), time.Now)
			}
			if _, err := search.Ingest(ctx, st, store.Server{Name: s}, byServer[s], opts); err != nil {
				b.Fatal(err)
			}
		}
		return cputime.Process() - began
	}
	// Both ways in every round, in alternating order, so that a change in
	// the machine's load falls on both.
	var cpu [2]time.Duration
	n := 0
	for b.Loop() {
		first := n%2 == 1
		cpu[btoi(first)] += index(first)
		cpu[btoi(!first)] += index(!first)
		n++
	}
	b.ReportMetric(float64(cpu[0].Milliseconds())/float64(n), "cpu-ms-unpinned/op")
	b.ReportMetric(float64(cpu[1].Milliseconds())/float64(n), "cpu-ms-pinned/op")
	b.ReportMetric(100*(float64(cpu[1])/float64(cpu[0])-1), "%pinning")
}

func btoi(v bool) int {
	if v {
		return 1
	}
	return 0
}

// BenchmarkStoreLaptopPins stores the normalized laptop catalog into a new
// store, once without pins and once with them, and reports the CPU time of
// each: the store's share of an index, where pinning writes, without the
// normalization both share.
//
//	go test -run '^$' -bench BenchmarkStoreLaptopPins -benchtime 20x ./bridge/
func BenchmarkStoreLaptopPins(b *testing.B) {
	servers, byServer := laptopByServer(b)
	rows := map[string][]store.Tool{}
	for _, s := range servers {
		schema.NormalizeCatalog(s, byServer[s], nil, func(_ int, t *schema.Tool) {
			rec, _ := json.Marshal(t.Record)
			card, _ := json.Marshal(t.Card)
			rows[s] = append(rows[s], store.Tool{Name: t.Record.Name, Hash: t.Record.Hash, Record: rec, Card: card,
				Doc: search.Document(t), Definition: t.Definition})
		})
	}
	ctx := context.Background()
	write := func(pinned bool) time.Duration {
		b.StopTimer()
		st, err := store.Open(ctx, filepath.Join(b.TempDir(), "catalog.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		b.StartTimer()
		began := cputime.Process()
		for _, s := range servers {
			var rule store.PinRule
			if pinned {
				rule = pinRule(config.Bridge{Pinning: config.PinningRisk}, s, false, slog.New(slog.DiscardHandler), time.Now)
			}
			if err := st.ReplacePinned(ctx, store.Server{Name: s}, toolRows(rows[s]), rule); err != nil {
				b.Fatal(err)
			}
		}
		return cputime.Process() - began
	}
	var cpu [2]time.Duration
	n := 0
	for b.Loop() {
		first := n%2 == 1
		cpu[btoi(first)] += write(first)
		cpu[btoi(!first)] += write(!first)
		n++
	}
	b.ReportMetric(float64(cpu[0].Microseconds())/1e3/float64(n), "cpu-ms-unpinned/op")
	b.ReportMetric(float64(cpu[1].Microseconds())/1e3/float64(n), "cpu-ms-pinned/op")
}

// toolRows is tools as store.ReplacePinned reads them.
func toolRows(tools []store.Tool) iter.Seq2[store.Tool, error] {
	return func(yield func(store.Tool, error) bool) {
		for _, t := range tools {
			if !yield(t, nil) {
				return
			}
		}
	}
}

// laptopByServer reads the laptop catalog, grouped by server in first-seen
// order.
func laptopByServer(b *testing.B) ([]string, map[string][]json.RawMessage) {
	b.Helper()
	f, err := search.OpenFile(filepath.Join("..", "testdata", "catalogs", "laptop.jsonl.gz"))
	if err != nil {
		b.Fatal(err)
	}
	all, err := demo.ReadCatalog(f, "")
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	// ReadCatalog drops the server key; read it again to group the tools.
	f, _ = search.OpenFile(filepath.Join("..", "testdata", "catalogs", "laptop.jsonl.gz"))
	dec := json.NewDecoder(f)
	byServer := map[string][]json.RawMessage{}
	var servers []string
	for i := 0; dec.More(); i++ {
		var line struct{ Server string }
		if err := dec.Decode(&line); err != nil {
			b.Fatal(err)
		}
		if _, ok := byServer[line.Server]; !ok {
			servers = append(servers, line.Server)
		}
		byServer[line.Server] = append(byServer[line.Server], all[i])
	}
	f.Close()
	return servers, byServer
}
