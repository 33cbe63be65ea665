package store

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestSchemaGolden pins the schema a new catalog gets. A released
// migration must never change: a diff here means either a new migration
// (update the golden file with -update) or an edited old one (undo it).
func TestSchemaGolden(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.EnsureVectors(context.Background(), 384); err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.Query(`SELECT type, name, coalesce(sql, '') FROM sqlite_schema
		WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_data' AND name NOT LIKE '%_idx'
		AND name NOT LIKE '%_docsize' AND name NOT LIKE '%_config' AND name NOT LIKE '%_content'
		AND name NOT LIKE 'tool_vectors_%'
		ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, sql string
		if err := rows.Scan(&typ, &name, &sql); err != nil {
			t.Fatal(err)
		}
		b.WriteString("-- " + typ + " " + name + "\n" + strings.TrimSpace(sql) + "\n\n")
	}
	var appID, version int
	s.db.QueryRow("PRAGMA application_id").Scan(&appID)
	s.db.QueryRow("PRAGMA user_version").Scan(&version)
	b.WriteString("-- application_id " + strconv.Itoa(appID) + ", user_version " + strconv.Itoa(version) + "\n")

	golden := filepath.Join("testdata", "schema.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("schema differs from %s (run with -update after adding a migration):\n%s", golden, got)
	}
}
