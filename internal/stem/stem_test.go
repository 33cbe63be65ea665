package stem

import (
	"bufio"
	"compress/gzip"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	_ "modernc.org/sqlite"
)

// fts5 tokenizes texts with SQLite FTS5's own tokenizer, the reference
// Words must match: each text is a row, and the table's vocabulary lists
// every token with its row and position.
type fts5 struct {
	db *sql.DB
}

func openFTS5(t testing.TB) *fts5 {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return &fts5{db: db}
}

// words returns FTS5's tokens of each text.
func (f *fts5) words(t testing.TB, texts []string) [][]string {
	t.Helper()
	if _, err := f.db.Exec("DELETE FROM t"); err != nil {
		t.Fatal(err)
	}
	tx, err := f.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if _, err := tx.Exec("INSERT INTO t (rowid, x) VALUES (?, ?)", i+1, text); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := f.db.Query("SELECT term, doc, offset FROM v ORDER BY doc, offset")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := make([][]string, len(texts))
	for rows.Next() {
		var term string
		var doc, off int
		if err := rows.Scan(&term, &doc, &off); err != nil {
			t.Fatal(err)
		}
		out[doc-1] = append(out[doc-1], term)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// catalogWords returns the distinct words of the test catalogs' JSON text.
func catalogWords(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "catalogs", "*.jsonl*"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "bench", "*", "catalog.jsonl.gz"))
	paths = append(paths, more...)
	if len(paths) < 3 {
		t.Fatalf("test catalogs missing: %v", paths)
	}
	seen := make(map[string]bool)
	var out []string
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		var r *bufio.Scanner
		if strings.HasSuffix(p, ".gz") {
			z, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			r = bufio.NewScanner(z)
		} else {
			r = bufio.NewScanner(f)
		}
		r.Buffer(nil, 1<<24)
		for r.Scan() {
			for _, w := range strings.FieldsFunc(r.Text(), func(r rune) bool {
				return unicode.IsSpace(r) || r == '"' || r == '\\'
			}) {
				if !seen[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
		f.Close()
	}
	return out
}

// TestWordsMatchFTS5 tokenizes every word of the test catalogs (split
// only at spaces, so punctuation, underscores and camelCase stay in) with
// Words and with FTS5: every ASCII one must agree. The others are
// counted.
func TestWordsMatchFTS5(t *testing.T) {
	words := catalogWords(t)
	got := openFTS5(t).words(t, words)
	exact, other, otherOff := 0, 0, 0
	for i, w := range words {
		mine := Words(w)
		if !Exact(w) {
			other++
			if !slices.Equal(mine, got[i]) {
				otherOff++
				if otherOff <= 25 {
					t.Logf("outside ASCII: %q: Words %q, FTS5 %q", w, mine, got[i])
				}
			}
			continue
		}
		exact++
		if !slices.Equal(mine, got[i]) {
			t.Errorf("%q: Words %q, FTS5 %q", w, mine, got[i])
		}
	}
	t.Logf("%d ASCII texts agree; outside ASCII %d of %d differ", exact, otherOff, other)
	if exact < 10000 {
		t.Errorf("only %d ASCII texts compared", exact)
	}
}

// TestPorterCases holds the algorithm's classic cases.
func TestPorterCases(t *testing.T) {
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed",
		"agreed": "agre", "plastered": "plaster", "motoring": "motor",
		"hopping": "hop", "filing": "file", "happy": "happi",
		"relational": "relat", "generalization": "gener", "hopeful": "hope",
		"goodness": "good", "revival": "reviv", "adjustment": "adjust",
		"controlling": "control", "roll": "roll", "files": "file", "repositories": "repositori",
		"it": "it", "weather": "weather",
	} {
		if got := Porter(in); got != want {
			t.Errorf("Porter(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzWords checks Words against FTS5's tokenizer on ASCII text.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"Get the weather", "listFiles in a_dir", "agreed, hopping: feed", "aed eing yy", "x"} {
		f.Add(s)
	}
	ref := openFTS5(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !Exact(s) || strings.ContainsRune(s, 0) {
			return
		}
		got := ref.words(t, []string{s})[0]
		if mine := Words(s); !slices.Equal(mine, got) {
			t.Errorf("%q: Words %q, FTS5 %q", s, mine, got)
		}
	})
}
