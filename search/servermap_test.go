package search

import (
	"context"
	"slices"
	"testing"
)

// TestServerMap: a server is mapped by the words its tools' names share
// and few other servers' do; the servers whose tools share the intent's
// words come first, then those with most tools.
func TestServerMap(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := New(st, nil)
	tool := func(name, desc string) string {
		return `{"name":"` + name + `","description":"` + desc + `","inputSchema":{"type":"object"}}`
	}
	for server, raws := range map[string][]string{
		"files": {tool("read_file", "Read a file"), tool("write_file", "Write a file"), tool("list_directory", "List a directory"), tool("get_info", "Get info")},
		"mail":  {tool("send_mail", "Send an email"), tool("list_mail", "List emails"), tool("get_mail", "Get an email")},
		"wiki":  {tool("get_page", "Get a wiki page"), tool("update_page", "Update a wiki page"), tool("get_block", "Get a block")},
	} {
		if _, err := Ingest(ctx, st, storeServer(server), rawTools(raws...), nil); err != nil {
			t.Fatal(err)
		}
	}
	m, err := s.ServerMap(ctx, "send a reply by email", func(server string) bool { return server != "wiki" })
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m[0].Server != "mail" || m[1].Server != "files" || m[1].Tools != 4 {
		t.Fatalf("map %+v: want mail (the intent's) then files, wiki left out", m)
	}
	if !slices.Equal(m[1].Words, []string{"file"}) {
		t.Errorf("files is about %v, want [file]: get, list, directory and info are each one tool's", m[1].Words)
	}
}
