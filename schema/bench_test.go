package schema

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkNormalize normalizes the real laptop catalog, reporting ns/tool.
// A tool the normalizer refuses is timed as the others are: refusing is its
// normal answer.
func BenchmarkNormalize(b *testing.B) {
	lines := readLines(b, dataPath("catalogs", "laptop.jsonl"))
	servers := make([]string, len(lines))
	raws := make([]json.RawMessage, len(lines))
	bytes := 0
	for i, line := range lines {
		servers[i], raws[i] = catalogTool(b, line)
		bytes += len(raws[i])
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, raw := range raws {
			var refused *RefusalError
			if _, err := Normalize(servers[i], raw); err != nil && !errors.As(err, &refused) {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(raws)), "ns/tool")
}

// BenchmarkValidatorStress compiles the stress fixture's schema and checks
// one call against it.
func BenchmarkValidatorStress(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "demo", "catalog", "stress.json"))
	if err != nil {
		b.Fatal(err)
	}
	tool, err := Normalize("stress", raw)
	if err != nil {
		b.Fatal(err)
	}
	args := stressArgs(b, tool)
	b.ReportAllocs()
	for b.Loop() {
		v, err := NewValidator(&tool.Record)
		if err != nil {
			b.Fatal(err)
		}
		checked, err := v.Check(args)
		if err != nil || !checked.Valid() {
			b.Fatalf("Check = %+v, %v", checked, err)
		}
	}
}
