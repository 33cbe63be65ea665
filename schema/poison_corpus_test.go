package schema

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// corpusEntry is one labelled line of testdata/poison.
type corpusEntry struct {
	server, name, technique, field string
	raw                            json.RawMessage
}

// readCorpus reads a labelled JSONL file of testdata/poison, the labels and
// "server" kept out of the tool object.
func readCorpus(t *testing.T, file string) []corpusEntry {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "poison", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &fields); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var e corpusEntry
		for key, dst := range map[string]*string{"server": &e.server, "technique": &e.technique, "field": &e.field} {
			if err := json.Unmarshal(fields[key], dst); err != nil {
				t.Fatalf("%s: label %s: %v", file, key, err)
			}
			delete(fields, key)
		}
		json.Unmarshal(fields["name"], &e.name)
		e.raw, _ = json.Marshal(fields)
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPoisonCorpus: at least 90% of the hand-written poisoned definitions
// are flagged; the rate per technique and per field is printed, and every
// miss.
func TestPoisonCorpus(t *testing.T) {
	entries := readCorpus(t, "corpus.jsonl")
	if len(entries) < 150 {
		t.Fatalf("corpus holds %d definitions, want at least 150", len(entries))
	}
	type tally struct{ n, hit int }
	byTech, byField := map[string]*tally{}, map[string]*tally{}
	hits := 0
	for _, e := range entries {
		flagged := false
		tool, err := Normalize(e.server, e.raw)
		var re *RefusalError
		switch {
		case err == nil:
			flagged = len(tool.Record.Flags) > 0
		case errors.As(err, &re):
			flagged = true // refused outright (a name with invisible characters)
		default:
			t.Fatalf("%s: %v", e.name, err)
		}
		for key, m := range map[string]map[string]*tally{e.technique: byTech, e.field: byField} {
			if m[key] == nil {
				m[key] = &tally{}
			}
			m[key].n++
			if flagged {
				m[key].hit++
			}
		}
		if flagged {
			hits++
		} else {
			t.Logf("missed %s (%s, %s): %.200s", e.name, e.technique, e.field, e.raw)
		}
	}
	for _, m := range []map[string]*tally{byTech, byField} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.Logf("  %-18s %3d/%3d", k, m[k].hit, m[k].n)
		}
	}
	share := float64(hits) / float64(len(entries))
	t.Logf("corpus: %d of %d flagged (%.1f%%)", hits, len(entries), 100*share)
	if share < 0.9 {
		t.Errorf("%d of %d poisoned definitions flagged (%.1f%%), want at least 90%%", hits, len(entries), 100*share)
	}
}

// TestPoisonBenign: definitions that only look risky (a tool that reads
// .env files, an API key parameter, docs that say IMPORTANT) are mostly
// left alone; each flag is printed.
func TestPoisonBenign(t *testing.T) {
	entries := readCorpus(t, "benign.jsonl")
	flagged := 0
	for _, e := range entries {
		tool, err := Normalize(e.server, e.raw)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if len(tool.Record.Flags) > 0 {
			flagged++
			for _, f := range tool.Record.Flags {
				t.Logf("flagged %s: %s in %s: %q", e.name, f.Rule, f.Field, f.Span)
			}
		}
	}
	t.Logf("benign: %d of %d flagged", flagged, len(entries))
	if flagged*10 > len(entries) {
		t.Errorf("%d of %d benign definitions flagged, over 10%%", flagged, len(entries))
	}
}

// holdoutFirstRun is how many of holdout.jsonl's definitions the detector
// flagged when each round was first run (2026-12-02), before anyone could
// tune a rule to it: 3 of round 6's 30, 14 of round 7's, 16 of round 8's.
const holdoutFirstRun = 3 + 14 + 16

// TestPoisonHoldout measures the detector on a round of poisoned
// definitions no rule was widened for: its recall on attacks it has not
// seen, far below the corpus's. Each miss is printed. It fails only if
// the detector flags fewer than it did on the first run. Widen rules by
// class from the corpus, never for a holdout line; a session that widens
// rules writes a new holdout round and records its first run here.
func TestPoisonHoldout(t *testing.T) {
	entries := readCorpus(t, "holdout.jsonl")
	hits := 0
	for _, e := range entries {
		tool, err := Normalize(e.server, e.raw)
		var re *RefusalError
		switch {
		case err == nil && len(tool.Record.Flags) > 0, errors.As(err, &re):
			hits++
		case err != nil:
			t.Fatalf("%s: %v", e.name, err)
		default:
			t.Logf("missed %s: %.160s", e.name, e.raw)
		}
	}
	t.Logf("holdout: %d of %d flagged", hits, len(entries))
	if hits < holdoutFirstRun {
		t.Errorf("holdout: %d of %d flagged, fewer than the %d of its first run", hits, len(entries), holdoutFirstRun)
	}
}
