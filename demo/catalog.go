package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// ReadCatalog reads tools in the shared catalog form: JSON objects one after
// another (one a line), each an MCP tool with a "server" key naming where it
// came from. It returns the tools of server, or of every server when server
// is "", with the "server" key removed and every other field kept as it was
// (same order, same bytes). Asking for a server the catalog does not hold is
// an error that lists the servers it does hold.
func ReadCatalog(r io.Reader, server string) ([]json.RawMessage, error) {
	dec := json.NewDecoder(r)
	var tools []json.RawMessage
	seen := map[string]bool{}
	for n := 1; ; n++ {
		var line json.RawMessage
		err := dec.Decode(&line)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		tool, from, err := stripServer(line)
		if err != nil {
			return nil, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		seen[from] = true
		if server == "" || from == server {
			tools = append(tools, tool)
		}
	}
	if server != "" && len(tools) == 0 {
		names := make([]string, 0, len(seen))
		for s := range seen {
			names = append(names, s)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("catalog has no tools of server %q (it has: %s)", server, strings.Join(names, ", "))
	}
	return tools, nil
}

// stripServer removes the top-level "server" key from one tool object and
// returns the rest, keys in their order and values byte for byte.
func stripServer(tool json.RawMessage) (json.RawMessage, string, error) {
	dec := json.NewDecoder(bytes.NewReader(tool))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, "", fmt.Errorf("a tool must be a JSON object")
	}
	var (
		out    bytes.Buffer
		server string
		keys   = json.NewEncoder(&out)
	)
	keys.SetEscapeHTML(false)
	out.WriteByte('{')
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", fmt.Errorf("reading a tool's keys: %w", err)
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, "", fmt.Errorf("reading the value of %q: %w", key, err)
		}
		if key == "server" {
			if err := json.Unmarshal(value, &server); err != nil {
				return nil, "", fmt.Errorf("the tool's \"server\" must be a string: %w", err)
			}
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		if err := keys.Encode(key); err != nil {
			return nil, "", fmt.Errorf("writing key %q: %w", key, err)
		}
		out.Truncate(out.Len() - 1) // Encode ends with a newline
		out.WriteByte(':')
		out.Write(value)
	}
	out.WriteByte('}')
	return out.Bytes(), server, nil
}

// toolHead is what the server needs to know of a raw tool to register it.
type toolHead struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// parseTools reads the head of every tool and checks that names are present
// and unique.
func parseTools(tools []json.RawMessage) ([]toolHead, error) {
	heads := make([]toolHead, len(tools))
	names := make(map[string]bool, len(tools))
	for i, raw := range tools {
		h := &heads[i]
		if err := json.Unmarshal(raw, h); err != nil {
			return nil, fmt.Errorf("reading tool %d: %w", i+1, err)
		}
		if h.Name == "" {
			return nil, fmt.Errorf("tool %d has no name", i+1)
		}
		if names[h.Name] {
			return nil, fmt.Errorf("tool %q appears twice", h.Name)
		}
		names[h.Name] = true
	}
	return heads, nil
}
