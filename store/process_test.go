package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a second capbridge process: with helperEnv
// set, TestMain runs that role on the database named by helperDBEnv.
const (
	helperEnv   = "CAPBRIDGE_STORE_TEST_HELPER"
	helperDBEnv = "CAPBRIDGE_STORE_TEST_DB"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(helperEnv); role != "" {
		if err := runHelper(role, os.Getenv(helperDBEnv)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runHelper(role, path string) error {
	ctx := context.Background()
	switch role {
	case "writer":
		return churn(ctx, path, "child")
	case "locker":
		return holdWriteLock(ctx, path)
	}
	return fmt.Errorf("unknown helper role %q", role)
}

// helper starts the test binary as a second process in role.
func helper(t *testing.T, role, path string) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, helperDBEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, stdin, bufio.NewReader(stdout)
}

// Each churn process rewrites churnServers catalogs churnRounds times,
// reading between writes.
const (
	churnRounds  = 12
	churnServers = 3
	churnTools   = 40
)

// churn opens path and repeatedly replaces the catalogs of its own
// servers, records calls and reads, as a running bridge would.
func churn(ctx context.Context, path, prefix string) error {
	s, err := Open(ctx, path, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	for round := range churnRounds {
		server := fmt.Sprintf("%s-%d", prefix, round%churnServers)
		tools := make([]Tool, churnTools)
		for i := range tools {
			tools[i] = tool(fmt.Sprintf("tool_%02d", i),
				fmt.Sprintf("%s round %d tool %d word%d", prefix, round, i, (round+i)%7))
		}
		if err := s.ReplaceCatalog(ctx, Server{Name: server}, toolSeq(tools...)); err != nil {
			return err
		}
		if err := s.RecordCalls(ctx, []Call{{Server: server, Tool: "tool_00", Outcome: OutcomeOK}}); err != nil {
			return err
		}
		if _, err := s.MatchWords(ctx, prefix, [5]float64{1, 1, 1, 1, 1}, 10); err != nil {
			return err
		}
		if _, err := s.Servers(ctx); err != nil {
			return err
		}
	}
	return nil
}

func TestTwoProcessesShareOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.db")
	cmd, stdin, _ := helper(t, "writer", path)
	stdin.Close()
	errc := make(chan error, 1)
	go func() { errc <- churn(context.Background(), path, "parent") }()
	if err := cmd.Wait(); err != nil {
		t.Errorf("child process: %v", err)
	}
	if err := <-errc; err != nil {
		t.Errorf("this process: %v", err)
	}

	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	servers, err := s.Servers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2*churnServers {
		t.Errorf("%d servers, want %d", len(servers), 2*churnServers)
	}
	for _, srv := range servers {
		if srv.Tools != churnTools {
			t.Errorf("%s: %d tools, want %d", srv.Name, srv.Tools, churnTools)
		}
	}
	if n := count(t, s, "SELECT count(*) FROM calls"); n != 2*churnRounds {
		t.Errorf("%d calls recorded, want %d", n, 2*churnRounds)
	}
	// The last round of each process wrote its final text.
	last := fmt.Sprintf("round %d", churnRounds-1)
	for _, prefix := range []string{"parent", "child"} {
		server := fmt.Sprintf("%s-%d", prefix, (churnRounds-1)%churnServers)
		tl, err := s.Tool(context.Background(), server, "tool_00")
		if err != nil || !strings.Contains(tl.Doc.Desc, last) {
			t.Errorf("%s/tool_00 = %+v, %v; want the text of %s", server, tl, err, last)
		}
	}
	checkIndex(t, s)
	checkIntegrity(t, s)
}

// holdWriteLock takes the write lock of path, says "locked" on stdout and
// keeps the lock until stdin closes.
func holdWriteLock(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", dsn(path, time.Second, false, pageMemoryOf(Options{})))
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE through the DSN
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO calls (at, server, tool, bytes_in, bytes_out, tokens_in, tokens_out, pages, latency_ms, outcome) VALUES (0, 'x', 'y', 0, 0, 0, 0, 0, 0, 'ok')"); err != nil {
		return err
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	return nil
}

func TestLockedDatabase(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustReplace(t, s, "mail", tool("send_message", "Send an email"))

	cmd, stdin, stdout := helper(t, "locker", path)
	if line, err := stdout.ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("locker said %q, %v", line, err)
	}
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	locked, err := Open(ctx, path, &Options{BusyTimeout: 150 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatalf("Open while another process writes: %v", err)
	}
	defer locked.Close()
	writes := []struct {
		name string
		do   func() error
	}{
		{"ReplaceCatalog", func() error {
			return locked.ReplaceCatalog(ctx, Server{Name: "mail"}, toolSeq(tool("other", "Other")))
		}},
		{"RecordCalls", func() error { return locked.RecordCalls(ctx, []Call{{Server: "mail", Tool: "send_message"}}) }},
		{"EnsureVectors", func() error { return locked.EnsureVectors(ctx, 4) }},
	}
	for _, w := range writes {
		err := w.do()
		if !errors.Is(err, ErrLocked) {
			t.Errorf("%s while locked: %v, want ErrLocked", w.name, err)
		} else if !strings.Contains(err.Error(), "try again") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: message %q should name the file and say to try again", w.name, err)
		}
	}
	if n := strings.Count(logs.String(), "catalog locked"); n != len(writes) {
		t.Errorf("logged %d lock give-ups, want %d:\n%s", n, len(writes), logs.String())
	}
	// Readers are not blocked by the writer.
	if _, err := locked.Tool(ctx, "mail", "send_message"); err != nil {
		t.Errorf("read while locked: %v", err)
	}

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("locker: %v", err)
	}
	if err := locked.ReplaceCatalog(ctx, Server{Name: "mail"}, toolSeq(tool("other", "Other"))); err != nil {
		t.Errorf("ReplaceCatalog after the lock went: %v", err)
	}
	if n := count(t, locked, "SELECT count(*) FROM calls"); n != 0 {
		t.Errorf("the locker's rolled-back row is visible: %d calls", n)
	}
	checkIndex(t, locked)
	checkIntegrity(t, locked)
}

// checkIntegrity runs SQLite's own consistency checks, FTS5's included.
func checkIntegrity(t *testing.T, s *Store) {
	t.Helper()
	var res string
	if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Errorf("integrity_check = %q, %v", res, err)
	}
	for _, table := range []string{"tool_words", "tool_trigrams"} {
		if _, err := s.db.Exec(fmt.Sprintf("INSERT INTO %s(%s) VALUES ('integrity-check')", table, table)); err != nil {
			t.Errorf("%s integrity-check: %v", table, err)
		}
	}
}

// checkIndex recomputes the search tables' expected contents from the
// tools table: one word and one trigram row per searchable tool, and the
// vocabulary with its counts.
func checkIndex(t *testing.T, s *Store) {
	t.Helper()
	tools, err := s.Tools(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]int)
	searchable := 0
	for _, tl := range tools {
		if tl.Refusal != "" {
			continue
		}
		searchable++
		for w := range vocabulary(tl.Doc) {
			want[w]++
		}
	}
	// The word table keeps no row lengths and cannot be scanned; every
	// row holds the pad column's word.
	for table, rows := range map[string]string{"tool_words": "tool_words('pad : capbridgepad')", "tool_trigrams": "tool_trigrams"} {
		if n := count(t, s, "SELECT count(*) FROM "+rows+" WHERE rowid IN (SELECT id FROM tools WHERE refusal = '')"); n != searchable {
			t.Errorf("%s holds %d searchable tools, want %d", table, n, searchable)
		}
		if n := count(t, s, "SELECT count(*) FROM "+rows); n != searchable {
			t.Errorf("%s has %d rows, want %d", table, n, searchable)
		}
	}
	rows, err := s.db.Query("SELECT term, docs FROM terms")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := make(map[string]int)
	for rows.Next() {
		var term string
		var docs int
		rows.Scan(&term, &docs)
		got[term] = docs
	}
	if !mapsEqual(got, want) {
		t.Errorf("terms table holds %d words, want %d; it is out of step with the tools", len(got), len(want))
	}
	checkPostings(t, s)
}

// checkPostings compares word_postings with what FTS5 itself holds: every
// token of the word table's five searched columns, each tool holding it
// and how many times in each column, read through an fts5vocab table.
func checkPostings(t *testing.T, s *Store) {
	t.Helper()
	if _, err := s.db.Exec("CREATE VIRTUAL TABLE temp.word_instances USING fts5vocab(main, tool_words, 'instance')"); err != nil {
		t.Fatal(err)
	}
	defer s.db.Exec("DROP TABLE temp.word_instances")
	columns := map[string]int{"name": 0, "desc": 1, "params": 2, "param_descs": 3, "enums": 4}
	rows, err := s.db.Query("SELECT term, doc, col FROM temp.word_instances WHERE col <> 'pad'")
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]map[int64]*[wordColumnCount]uint32)
	for rows.Next() {
		var term, col string
		var doc int64
		if err := rows.Scan(&term, &doc, &col); err != nil {
			t.Fatal(err)
		}
		if want[term] == nil {
			want[term] = make(map[int64]*[wordColumnCount]uint32)
		}
		if want[term][doc] == nil {
			want[term][doc] = new([wordColumnCount]uint32)
		}
		want[term][doc][columns[col]]++
	}
	rows.Close()
	got := make(map[string][]posting)
	rows, err = s.db.Query("SELECT term, postings FROM word_postings")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var blob []byte
		if err := rows.Scan(&term, &blob); err != nil {
			t.Fatal(err)
		}
		ps, err := decodePostings(nil, blob)
		if err != nil {
			t.Fatalf("postings of %q: %v", term, err)
		}
		got[term] = ps
	}
	for term := range got {
		if _, ok := want[term]; !ok {
			t.Errorf("word_postings holds %q, FTS5 does not", term)
		}
	}
	for term, docs := range want {
		ps := got[term]
		if len(ps) != len(docs) {
			t.Errorf("token %q: %d tools in word_postings, %d in FTS5", term, len(ps), len(docs))
			continue
		}
		for _, p := range ps {
			if c := docs[p.id]; c == nil || *c != p.counts {
				t.Errorf("token %q, tool %d: counts %v in word_postings, FTS5 %v", term, p.id, p.counts, c)
			}
		}
	}
}
