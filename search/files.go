package search

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// OpenFile opens a catalog or query file (JSON Lines) for reading. A name
// ending in ".gz" is decompressed as it is read, so the data sets the
// repository ships gzipped are read as they are.
func OpenFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return gzipFile{zr, f}, nil
}

// gzipFile closes both the decompressor and the file under it.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error {
	zerr := g.Reader.Close()
	if err := g.f.Close(); err != nil {
		return err
	}
	return zerr
}
