package search

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenFileReadsGzip(t *testing.T) {
	dir := t.TempDir()
	want := "{\"query\":\"q\",\"relevant\":[]}\n"
	plain := filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(plain, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	zipped := filepath.Join(dir, "q.jsonl.gz")
	f, err := os.Create(zipped)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := io.WriteString(zw, want); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, path := range []string{plain, zipped} {
		r, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != want {
			t.Errorf("%s: got %q, %v", path, got, err)
		}
	}
	if _, err := OpenFile(plain + ".missing.gz"); err == nil {
		t.Error("a missing file opened")
	}
	if err := os.WriteFile(plain+".bad.gz", []byte("not gzip"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(plain + ".bad.gz"); err == nil {
		t.Error("a file that is not gzip opened as one")
	}
}
