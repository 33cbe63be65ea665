package store

import (
	"context"
	"testing"
)

// TestServerWords: the tools of each server holding a token in their
// name or description are counted, not those holding it in parameters
// only, and the counts follow the catalog as it changes.
func TestServerWords(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "files", tool("read_file", "Read a file"), tool("list_dir", "List a folder"), tool("stat", "Size", "file"))
	mustReplace(t, s, "mail", tool("send", "Send a file by mail"), refused("giant", "too big"))
	sw, err := s.ServerWords(ctx, []string{"file", "mail", "nothing"})
	if err != nil {
		t.Fatal(err)
	}
	if sw.Tools["files"] != 3 || sw.Tools["mail"] != 1 {
		t.Errorf("tools %v, want files 3, mail 1 (the refused one left out)", sw.Tools)
	}
	if got := sw.Holding["file"]; got["files"] != 1 || got["mail"] != 1 {
		t.Errorf("file held by %v, want files 1 (stat holds it in a parameter only), mail 1", got)
	}
	mustReplace(t, s, "mail")
	if sw, err = s.ServerWords(ctx, []string{"file"}); err != nil || sw.Tools["mail"] != 0 || sw.Holding["file"]["mail"] != 0 {
		t.Errorf("after mail lost its tools: %+v, %v", sw, err)
	}
}
