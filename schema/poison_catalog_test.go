package schema

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// scanGz scans one gzipped catalog of the repository's testdata.
func scanGz(t *testing.T, path string) Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ScanCatalog(zr)
	if err != nil {
		t.Fatalf("scanning %s: %v", path, err)
	}
	return rep
}

// logFlagged prints every flagged tool with its flags, for the closing note.
func logFlagged(t *testing.T, label string, rep Report) {
	t.Helper()
	t.Logf("%s: %d tools, %d flagged (%.2f%%), %d refused", label, rep.Tools, len(rep.Flagged), 100*rep.Share(), len(rep.Refused))
	for _, ft := range rep.Flagged {
		for _, f := range ft.Flags {
			t.Logf("  %s/%s: %s in %s: %q", ft.Server, ft.Name, f.Rule, f.Field, f.Span)
		}
	}
}

// TestRealCatalogFalsePositives: at most 1% of the real laptop catalog's
// tools are flagged. Every flagged real tool is printed with why.
func TestRealCatalogFalsePositives(t *testing.T) {
	for _, tc := range []struct {
		label, path string
		maxShare    float64 // 0: report only
	}{
		{"laptop", dataPath("catalogs", "laptop.jsonl"), 0.01},
		{"twilio-all", dataPath("catalogs", "twilio-all.jsonl"), 0},
		{"bfcl", dataPath("bench", "retrieval_bfcl", "catalog.jsonl"), 0},
		{"metatool", dataPath("bench", "retrieval_metatool", "catalog.jsonl"), 0},
	} {
		t.Run(tc.label, func(t *testing.T) {
			rep := scanGz(t, tc.path)
			logFlagged(t, tc.label, rep)
			if tc.maxShare > 0 && rep.Share() > tc.maxShare {
				t.Errorf("%s: %d of %d tools flagged (%.2f%%), over %.0f%%", tc.label, len(rep.Flagged), rep.Tools, 100*rep.Share(), 100*tc.maxShare)
			}
		})
	}
}

// TestDemoCatalogNotFlagged: the built-in demo's 64 ordinary tools ("Delete
// an event without notifying anyone") are not flagged, so the demo runs
// without approvals; the stress tool's lure is (TestStressToolLureFlagged).
func TestDemoCatalogNotFlagged(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "demo", "catalog", "tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := ScanCatalog(f)
	if err != nil {
		t.Fatal(err)
	}
	logFlagged(t, "demo", rep)
	if len(rep.Flagged) > 0 || rep.Tools == 0 {
		t.Errorf("demo catalog: %d of %d tools flagged, want none", len(rep.Flagged), rep.Tools)
	}
}
