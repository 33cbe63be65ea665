package schema

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// dataPath names a gzipped data file the repository carries under its
// top-level testdata/ (see testdata/README.md for sources and licenses).
func dataPath(parts ...string) string {
	return filepath.Join(append([]string{"..", "testdata"}, parts...)...) + ".gz"
}

// readLines returns the non-empty lines of a gzipped JSONL file.
func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			lines = append(lines, bytes.Clone(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return lines
}

// catalogTool splits one catalog line into its server and the tool object
// as the server sent it (every field but "server").
func catalogTool(t testing.TB, line []byte) (string, json.RawMessage) {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		t.Fatalf("decoding catalog line: %v", err)
	}
	var server string
	if err := json.Unmarshal(fields["server"], &server); err != nil {
		t.Fatalf("decoding server of catalog line: %v", err)
	}
	delete(fields, "server")
	raw, err := json.Marshal(fields)
	if err != nil {
		t.Fatalf("encoding tool: %v", err)
	}
	return server, raw
}

// decodeExact decodes JSON with exact numbers, for semantic comparison.
func decodeExact(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %.80s: %v", data, err)
	}
	return v
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	return b
}

// listedByServer reads a real catalog file of testdata/catalogs (one tool
// a line with its server) and returns its lines, its servers in
// first-listed order, and each server's tools as it would list them.
func listedByServer(t testing.TB, name string) (lines [][]byte, servers []string, listed map[string][]json.RawMessage) {
	t.Helper()
	lines = readLines(t, dataPath("catalogs", name))
	listed = map[string][]json.RawMessage{}
	for _, line := range lines {
		server, raw := catalogTool(t, line)
		if _, ok := listed[server]; !ok {
			servers = append(servers, server)
		}
		listed[server] = append(listed[server], raw)
	}
	return lines, servers, listed
}

// normalizeAll is NormalizeCatalog keeping every tool it makes.
func normalizeAll(server string, raws []json.RawMessage) (tools []*Tool, refused []Refusal) {
	refused = NormalizeCatalog(server, raws, nil, func(_ int, t *Tool) { tools = append(tools, t) })
	return tools, refused
}

// Normalize normalizes one tool alone, as [NormalizeCatalog] does each tool
// of a catalog: the form most tests of one tool want.
func Normalize(server string, raw json.RawMessage) (*Tool, error) {
	return normalize(server, raw, nil, nil, nil)
}
