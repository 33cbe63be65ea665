package schema

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestGoldenCards normalizes each tool in testdata/cards/*.json and compares
// what a model would read (the card) and the alias map with its .golden file.
func TestGoldenCards(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "cards", "*.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, input := range inputs {
		t.Run(filepath.Base(input), func(t *testing.T) {
			raw, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			server, _, _ := strings.Cut(filepath.Base(input), "__")
			tool, err := Normalize(server, raw)
			if err != nil {
				t.Fatalf("Normalize = %v", err)
			}
			got, err := json.MarshalIndent(struct {
				Card    Card              `json:"card"`
				Aliases map[string]string `json:"aliases,omitempty"`
				Hash    string            `json:"hash"`
			}{tool.Card, tool.Record.Aliases, tool.Record.Hash}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(input, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("card differs from %s (run go test -update after checking):\n%s", golden, got)
			}
		})
	}
}
