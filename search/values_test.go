package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestReadValues(t *testing.T) {
	tests := []struct {
		intent string
		words  []string // queryWords
		weak   []string
	}{
		{"list the files in ~/Music/albums", []string{"list", "files", "directory"}, []string{"music", "albums"}},
		{"save the summary to reports/q3.md", []string{"save", "summary", "file", "markdown", "write"}, []string{"reports", "q3"}},
		// A space splits a path: two values.
		{"export it as /home/me/Budget 2024.xlsx", []string{"export", "directory", "write", "file", "excel", "spreadsheet"},
			[]string{"home", "me", "budget", "2024"}},
		{"export it as ~/budget.xlsx", []string{"export", "file", "excel", "spreadsheet", "write"}, []string{"budget"}},
		{"read 'C:\\data\\cars.csv'", []string{"read", "file", "csv", "spreadsheet"}, []string{"data", "cars"}},
		{"summarize report.pdf", []string{"summarize", "file", "pdf"}, []string{"report"}},
		{"scrape https://www.example.com/pricing?plan=pro.", []string{"scrape", "url", "web"}, []string{"example"}},
		{"is shop.example.org down", []string{"down", "domain", "web"}, []string{"shop", "example"}},
		// A domain to open is a page's address.
		{"open google.com in the browser", []string{"open", "browser", "domain", "web", "url", "navigate"}, []string{"google"}},
		{"visit https://example.org/docs", []string{"visit", "url", "web", "navigate"}, []string{"example"}},
		// "go to": the verb is no topic (Go the language).
		{"go to example.org", []string{"domain", "web", "url", "navigate"}, []string{"example"}},
		{"go to the docs", []string{"go", "docs"}, nil},
		{"open a ticket about example.org", []string{"open", "ticket", "domain", "web"}, []string{"example"}},
		{"who is jane@acme.com", []string{"email"}, nil},
		{"describe iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
			[]string{"describe"}, nil},
		{"revert commit 9fceb02d0ae598e95dc970b74767f19372d61af8", []string{"revert", "commit"}, nil},
		{"get ticket 123e4567-e89b-12d3-a456-426614174000", []string{"get", "ticket"}, nil},
		// A file and nothing to do to it: read it.
		{"what's in ~/projects/api/README.md?", []string{"file", "markdown", "read"}, []string{"projects", "api", "readme"}},
		{"~/notes/todo.txt", []string{"file", "read"}, []string{"notes", "todo"}},
		// A file a project names without an extension.
		{"read the README", []string{"read", "file"}, []string{"readme"}},
		{"what's in the Dockerfile", []string{"file", "read"}, []string{"dockerfile"}},
		{"update the LICENSE", []string{"update", "file"}, []string{"license"}},
		{"check my license expiry", []string{"check", "license", "expiry"}, nil},
		// Source files: their folders and stem are no topic, and their
		// language is a weak word.
		{"who committed to src/main.go recently", []string{"committed", "recently", "file"}, []string{"src", "main"}},
		{"lint app/index.ts", []string{"lint", "file"}, []string{"app", "index", "typescript"}},
		{"fix the bug in server.py", []string{"fix", "bug", "file"}, []string{"server", "python"}},
		{"open https://example.com/app.js", []string{"open", "url", "web", "navigate"}, []string{"example", "javascript"}},
		// A name given or meant is no topic: the word after a naming verb,
		// or the quoted words.
		{"make a directory called build", []string{"make", "directory"}, []string{"build"}},
		{"create a page titled 'Q3 planning notes' in notion", []string{"create", "page", "notion"}, []string{"q3", "planning", "notes"}},
		{"checkout the branch named release/2.0", []string{"checkout", "branch"}, []string{"release", "2", "0"}},
		{"list functions called by main", []string{"list", "functions", "called", "main"}, nil},
		// An SQL statement is SQL to run; its names are weak.
		{"Run SELECT count(*) FROM users on the production project", []string{"run", "production", "project", "sql"}, []string{"count", "users"}},
		{"run this: SELECT name, email FROM customers WHERE age > 30 ORDER BY name; then chart it",
			[]string{"run", "chart", "sql"}, []string{"name", "email", "customers", "age", "30", "name"}},
		{"select * from orders limit 5", []string{"sql"}, []string{"orders", "5"}},
		{"UPDATE accounts SET plan = 'pro' WHERE id = 7", []string{"sql"}, []string{"accounts", "plan", "pro", "id", "7"}},
		// English that reads like SQL is not.
		{"select a file from the list", []string{"select", "file", "list"}, nil},
		{"DELETE the old rows", []string{"delete", "old", "rows"}, nil},
		// Not values: tool names, command switches, words with slashes,
		// a product's name.
		{"deploy a Next.js app", []string{"deploy", "next", "js", "app"}, nil},
		{"the distance from Boston to Washington, D.C.", []string{"distance", "boston", "washington", "c"}, nil},
		{"call weather.get and AclApi.add_mapping", []string{"call", "weather", "get", "acl", "api", "add", "mapping"}, nil},
		{"use files/delete_file", []string{"files", "delete", "file"}, nil},
		{"dir /s and/or grep", []string{"dir", "directory", "grep"}, nil}, // dir spelled out (see abbreviations)
		{"AbstractTransportSearchableSnapshotsAction.shardOperation", []string{"abstract", "transport", "searchable", "snapshots", "action", "shard", "operation"}, nil},
	}
	for _, tt := range tests {
		r := readValues(tt.intent)
		if got := queryWords(tt.intent); !slices.Equal(got, tt.words) {
			t.Errorf("queryWords(%q) = %q, want %q", tt.intent, got, tt.words)
		}
		if !slices.Equal(r.weak, tt.weak) {
			t.Errorf("readValues(%q).weak = %q, want %q", tt.intent, r.weak, tt.weak)
		}
	}
}

// TestNamedTokensSkipValues: a path or URL in a sentence is looked up as
// no tool name.
func TestNamedTokensSkipValues(t *testing.T) {
	got := namedTokens("copy ~/a/b_c.txt to https://x.io/d_e and call send_email")
	if !slices.Equal(got, []string{"send_email"}) {
		t.Errorf("namedTokens = %q, want [send_email]", got)
	}
	for _, n := range namings("list the files in ~/Music/albums") {
		if strings.Contains(strings.ToLower(n.written), "music") {
			t.Errorf("namings hold %q: a folder names no tool", n.written)
		}
	}
}

// TestValuesOnRealCatalog runs intents carrying values over the tools of
// 21 real MCP servers: the values' names must not pull their own topic in
// (a music folder, audio tools), and what the values imply (a file to
// write, a web page) must find the tools that do it.
func TestValuesOnRealCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 1,011-tool catalog")
	}
	st := openStore(t)
	f, err := OpenFile("../testdata/catalogs/laptop.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := LoadCatalog(context.Background(), st, f, nil); err != nil {
		t.Fatal(err)
	}
	s := New(st, nil)
	tests := []struct {
		intent string
		top3   string   // a tool name holding this is among the first three
		absent []string // no tool name among the first three holds these
	}{
		{"list the files in ~/Music/albums", "list_directory", []string{"audio", "music", "media"}},
		{"save the summary to reports/q3.md", "write_file", []string{"summary"}},
		{"write the notes to ~/notes/today.md", "write_file", []string{"today"}},
		{"export the table to out/sales.xlsx", "write_file", []string{"table"}},
		{"create the folder ~/projects/new-app/", "create_directory", []string{"project"}},
		{"take a screenshot of https://example.com/pricing", "screenshot", nil},
	}
	for _, tt := range tests {
		rs, err := s.Search(context.Background(), tt.intent, Query{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		got := names(rs)
		if !slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, tt.top3) }) {
			t.Errorf("Search(%q) = %v, want a %s tool among the first three", tt.intent, got, tt.top3)
		}
		for _, a := range tt.absent {
			if slices.ContainsFunc(got, func(n string) bool { return strings.Contains(strings.ToLower(n), a) }) {
				t.Errorf("Search(%q) = %v: a value's name pulled in a %q tool", tt.intent, got, a)
			}
		}
	}
}
