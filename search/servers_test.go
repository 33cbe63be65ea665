package search

import (
	"context"
	"testing"
)

// TestServerContext: over the laptop catalog, a request whose words a
// server's tools share belongs to that server: reading two project files
// is the file servers' work, not Firecrawl's parser of documents, whose
// single tool holds the words as well. A server of one tool has no
// context of its own.
func TestServerContext(t *testing.T) {
	ctx := context.Background()
	s := laptopSearcher(t)
	const intent = "read package.json and tsconfig.json together"
	rs, err := s.Search(ctx, intent, Query{Limit: 3})
	if err != nil || len(rs) == 0 {
		t.Fatalf("Search = %v, %v", rs, err)
	}
	if first := rs[0].Server; first != "filesystem" && first != "desktop-commander" {
		t.Errorf("%q finds %s/%s first, want a tool of the file servers", intent, first, rs[0].Name)
	}
	p := s.plan(ctx, intent)
	p.awaitFixes()
	contexts, err := s.serverContexts(ctx, p, s.rarity(ctx, p))
	if err != nil {
		t.Fatal(err)
	}
	if contexts["filesystem"] <= contexts["firecrawl"] {
		t.Errorf("contexts: filesystem %.3f, firecrawl %.3f; want filesystem's higher", contexts["filesystem"], contexts["firecrawl"])
	}
}

// TestServerContextCountsSiblings: a server's context comes from the
// tools beside the one ranked, so a server of one tool has none, and
// the shares count the other tools holding a word, synonyms at half.
func TestServerContextCountsSiblings(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := New(st, nil)
	ingest := func(server string, raws ...string) {
		t.Helper()
		if _, err := Ingest(ctx, st, storeServer(server), rawTools(raws...), nil); err != nil {
			t.Fatal(err)
		}
	}
	ingest("one", `{"name":"read_folder","description":"Read a folder","inputSchema":{"type":"object"}}`)
	ingest("files",
		`{"name":"list_directory","description":"List a directory","inputSchema":{"type":"object"}}`,
		`{"name":"make_directory","description":"Make a directory","inputSchema":{"type":"object"}}`,
		`{"name":"read_text","description":"Read a text","inputSchema":{"type":"object"}}`)
	ingest("other",
		`{"name":"send_mail","description":"Send a mail","inputSchema":{"type":"object"}}`,
		`{"name":"list_mail","description":"List mail","inputSchema":{"type":"object"}}`)
	p := s.plan(ctx, "read the folder")
	p.awaitFixes()
	contexts, err := s.serverContexts(ctx, p, s.rarity(ctx, p))
	if err != nil {
		t.Fatal(err)
	}
	if contexts["one"] != 0 || contexts["other"] != 0 || contexts["files"] <= 0 {
		t.Errorf("contexts %v: want files' alone (folder: its directories, read: none beside read_text)", contexts)
	}
}
