package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkRunOverhead calls one demo tool through a `capbridge serve`
// process (client -stdio-> bridge -stdio-> demo server) and directly
// (client -stdio-> demo server), and reports the p50 of each and their
// difference: what the bridge adds to a call.
func BenchmarkRunOverhead(b *testing.B) {
	ctx := context.Background()
	args := map[string]any{"ticket_id": "TCK-001042"}
	cfg := writeConfig(b, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}, nil)
	db := filepath.Join(b.TempDir(), "catalog.db")
	runCapbridge(b, "index", "--config", cfg, "--db", db)

	bridged := startServe(b, cfg, db)
	card := discoverAction(b, bridged, "get a ticket by id", "helpdesk", "get_ticket")
	id := card["actionId"].(string)
	runAction(b, bridged, id, args) // starts the upstream

	direct, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: capbridgeCmd("demo-server", "--server", "helpdesk")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()

	viaBridge := func() error {
		res, err := bridged.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": id, "params": args}})
		if err == nil && res.IsError {
			err = fmt.Errorf("bridge answered an error: %s", resultText(res))
		}
		return err
	}
	viaDirect := func() error {
		res, err := direct.CallTool(ctx, &mcp.CallToolParams{Name: "get_ticket", Arguments: args})
		if err == nil && res.IsError {
			err = fmt.Errorf("demo answered an error: %s", resultText(res))
		}
		return err
	}
	var bridgeTimes, directTimes []time.Duration
	b.ResetTimer()
	for range b.N {
		// Interleaved, so that machine noise falls on both alike.
		for _, c := range []struct {
			call  func() error
			times *[]time.Duration
		}{{viaBridge, &bridgeTimes}, {viaDirect, &directTimes}} {
			start := time.Now()
			if err := c.call(); err != nil {
				b.Fatal(err)
			}
			*c.times = append(*c.times, time.Since(start))
		}
	}
	b.StopTimer()
	pb, pd := p50(bridgeTimes), p50(directTimes)
	b.ReportMetric(float64(pb.Microseconds()), "bridge-p50-µs")
	b.ReportMetric(float64(pd.Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64((pb - pd).Microseconds()), "added-p50-µs")
}

func p50(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkServeStart measures `capbridge serve` from process start to the
// first tools/list answer, with 20 configured servers whose catalogs are
// stored: none of them is started.
func BenchmarkServeStart(b *testing.B) {
	ctx := context.Background()
	servers := map[string]serverEntry{}
	for i := range 20 {
		servers[fmt.Sprintf("server%02d", i+1)] = demoUpstream("--server", []string{"helpdesk", "calendar", "crm", "files"}[i%4])
	}
	cfg := writeConfig(b, servers, nil)
	db := filepath.Join(b.TempDir(), "catalog.db")
	runCapbridge(b, "index", "--config", cfg, "--db", db)

	var times []time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "error")
		cmd.Stderr = os.Stderr
		start := time.Now()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		b.StopTimer()
		cs.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(p50(times).Microseconds())/1000, "p50-ms-to-tools/list")
}
