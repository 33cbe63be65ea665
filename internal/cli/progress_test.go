package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestProgressPlainWhenNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 2, "indexing servers:")
	p.Write([]byte("crm  21 tools stored\n"))
	p.Write([]byte("files  15 tools"))
	p.Write([]byte(" stored\n"))
	if got, want := buf.String(), "crm  21 tools stored\nfiles  15 tools stored\n"; got != want {
		t.Errorf("progress to a buffer wrote %q, want the lines unchanged %q", got, want)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file counts as a terminal")
	}
}

func TestProgressNumbersLinesOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, total: 2, tty: true}
	p.Write([]byte("crm  21 tools stored\nfiles  15 "))
	p.Write([]byte("tools stored\n"))
	if got, want := buf.String(), "[1/2] crm  21 tools stored\n[2/2] files  15 tools stored\n"; got != want {
		t.Errorf("progress on a terminal wrote %q, want %q", got, want)
	}
}
