package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge"
)

func TestSoakVerdict(t *testing.T) {
	const m = 1 << 20
	// run is ten samples 30 s apart of a steady soak (64 MiB RSS, 44 MiB
	// Go-held, 30 MiB heap), each then changed by change(i, sample).
	run := func(change func(i int, s *soakSample)) []soakSample {
		var samples []soakSample
		for i := range 10 {
			s := soakSample{at: time.Duration(i+1) * 30 * time.Second, rss: 64 * m, goHeld: 44 * m, heap: 30 * m, heapGoal: 60 * m,
				goroutines: 40, fds: 35, gauges: bridge.Gauges{Actions: 1000}}
			change(i, &s)
			samples = append(samples, s)
		}
		return samples
	}
	steady := func(int, *soakSample) {}
	// rising adds per MiB a sample to RSS and Go-held from the start.
	rising := func(per int64) func(int, *soakSample) {
		return func(i int, s *soakSample) { s.rss += int64(i) * per * m; s.goHeld += int64(i) * per * m }
	}
	base := soakSample{goroutines: 3, fds: 10}
	tests := []struct {
		name    string
		samples []soakSample
		closed  soakSample
		want    string // in the verdict
		notWant string
	}{
		{"flat", run(steady), base, "verdict: flat", "GROWING"},
		{"too short", run(steady)[:2], base, "too short", "GROWING"},
		// The heap after a collection stays put while Go keeps ever more
		// memory: the growth a heap-only verdict called flat.
		{"Go-held and RSS with a flat heap", run(rising(5)), base,
			"GROWING: [RSS +20.0 MiB over 2m0s (samples 89.0 MiB -> 109.0 MiB) Go-held +20.0 MiB over 2m0s (samples 69.0 MiB -> 89.0 MiB)]", ""},
		{"RSS rising within its slack", run(rising(3)), base, "verdict: flat", "GROWING"},
		// One sample caught large results in flight; the trend is flat.
		{"one spike", run(func(i int, s *soakSample) {
			if i == 9 {
				s.heap += 45 * m
				s.rss += 40 * m
				s.goHeld += 40 * m
			}
		}), base, "verdict: flat", "GROWING"},
		{"heap", run(func(i int, s *soakSample) { s.heap += int64(i) * 3 * m }), base, "GROWING: [heap +12.0 MiB over 2m0s (samples 45.0 MiB -> 57.0 MiB)]", ""},
		{"outside Go", run(func(i int, s *soakSample) { s.rss += int64(i) * 3 * m }), base, "GROWING: [RSS - Go-held +12.0 MiB", ""},
		{"names the actions numbered meanwhile", run(func(i int, s *soakSample) { s.heap += int64(i) * 3 * m; s.gauges.Actions += i * 10000 }), base,
			"while 40000 more actions were numbered", ""},
		{"goroutines", run(func(i int, s *soakSample) { s.goroutines += 5 * i }), base, "goroutines 65 -> 85", ""},
		{"fds", run(func(i int, s *soakSample) { s.fds += 5 * i }), base, "fds 60 -> 80", ""},
		{"left behind", run(steady), soakSample{goroutines: 9, fds: 10}, "left behind after Close", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := soakVerdict(tt.samples, base, tt.closed, &soakCounts{})
			if !strings.Contains(got, tt.want) {
				t.Errorf("verdict %q\nwant it to contain %q", got, tt.want)
			}
			if tt.notWant != "" && strings.Contains(got, tt.notWant) {
				t.Errorf("verdict %q\nwant no %q", got, tt.notWant)
			}
		})
	}
}

func TestTrend(t *testing.T) {
	at := func(s int) time.Duration { return time.Duration(s) * time.Second }
	tests := []struct {
		name   string
		values []int64 // one sample every 10 s
		want   int64
	}{
		{"flat", []int64{5, 5, 5, 5}, 0},
		{"rising", []int64{0, 10, 20, 30}, 30},
		{"falling", []int64{30, 20, 10, 0}, -30},
		{"a spike does not move it", []int64{0, 10, 200, 30, 40}, 40},
		{"one sample", []int64{7}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var samples []soakSample
			for i, v := range tt.values {
				samples = append(samples, soakSample{at: at(10 * i), heap: v})
			}
			if got := trend(samples, func(s soakSample) int64 { return s.heap }); got != tt.want {
				t.Errorf("trend %v = %d, want %d", tt.values, got, tt.want)
			}
		})
	}
}
