package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/schema"
)

// TestScanCommand: scan prints the detector's figures for the poisoned
// corpus and the real laptop catalog, as text and as JSON.
func TestScanCommand(t *testing.T) {
	corpus := filepath.Join("..", "..", "testdata", "poison", "corpus.jsonl")
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), []string{"scan", "--catalog", corpus, "--json"}, nil, &out, &errOut); err != nil {
		t.Fatalf("scan: %v (stderr %s)", err, errOut.String())
	}
	var rep schema.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("scan --json printed %.200q: %v", out.String(), err)
	}
	if rep.Tools < 150 || rep.Share() < 0.9 {
		t.Errorf("corpus: %d of %d tools flagged, want at least 90%% of at least 150", len(rep.Flagged), rep.Tools)
	}
	for _, ft := range rep.Flagged {
		for _, f := range ft.Flags {
			if f.Rule == "" || f.Field == "" || f.Span == "" || len([]rune(f.Span)) > schema.MaxFlagSpan {
				t.Errorf("%s: flag %+v lacks a rule, field or span, or its span is over %d characters", ft.Name, f, schema.MaxFlagSpan)
			}
		}
	}

	out.Reset()
	laptop := filepath.Join("..", "..", "testdata", "catalogs", "laptop.jsonl.gz")
	if err := Run(context.Background(), []string{"scan", "--catalog", laptop}, nil, &out, &errOut); err != nil {
		t.Fatalf("scan: %v (stderr %s)", err, errOut.String())
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(first, "1011 tools, ") {
		t.Errorf("scan of the laptop catalog begins %q, want the summary line", first)
	}
	t.Logf("laptop: %s", strings.TrimSpace(out.String()))

	// No --catalog, and no stored catalog: the error says how to begin.
	empty := t.TempDir()
	err := Run(context.Background(), []string{"scan", "--config", filepath.Join(empty, "none.json"), "--db", filepath.Join(empty, "none.db")}, nil, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "capbridge") {
		t.Errorf("scan with nothing stored: %v", err)
	}
}

// TestScanLabelled: scan prints the labelled figures of issue 31's frozen
// held-out set, read with its benign part as one catalog.
func TestScanLabelled(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "poison")
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), []string{"scan", "--catalog", filepath.Join(dir, "holdout2.jsonl"), "--catalog", filepath.Join(dir, "holdout2_benign.jsonl"), "--json"}, nil, &out, &errOut); err != nil {
		t.Fatalf("scan: %v (stderr %s)", err, errOut.String())
	}
	var rep schema.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	f := rep.Labelled
	if f == nil || f.Poisoned < 150 || f.Benign < 60 || f.ByTechnique["rot13"] == nil {
		t.Fatalf("labelled figures %+v", f)
	}
	out.Reset()
	if err := Run(context.Background(), []string{"scan", "--catalog", filepath.Join(dir, "holdout2.jsonl"), "--catalog", filepath.Join(dir, "holdout2_benign.jsonl")}, nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\nlabelled: 173 poisoned, ") {
		t.Errorf("text report lacks the labelled line:\n%.600s", out.String())
	}
}
