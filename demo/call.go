package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of a list answer.
const (
	defaultListCount = 10
	maxListCount     = 100_000
)

// call answers one tools/call, after whatever the fault asks for.
func (s *server) call(ctx context.Context, tool string, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := bytes.TrimSpace(req.Params.Arguments)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	n := s.count(tool)
	log := s.opts.Logger.With("tool", tool, "call_number", n)
	log.Debug("tools/call")
	switch f := s.opts.Fault; f.Mode {
	case FaultCrashOnCall:
		if n == f.N {
			log.Warn("crashing in the middle of a call, as the fault asks")
			s.opts.Exit(ExitCrash)
			return nil, errors.New("demo: crash-on-call")
		}
	case FaultHang:
		log.Warn("never answering, as the fault asks")
		<-ctx.Done()
		return nil, ctx.Err()
	case FaultSlow:
		log.Warn("answering late, as the fault asks", "delay", f.Delay)
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case FaultHuge:
		return hugeAnswer(f.N, n), nil
	case FaultSchemaChange:
		defer s.changeSchema(tool)
	case FaultFlood:
		defer s.floodOnce(f.N)
	}
	switch tool {
	case statsToolName:
		return s.stats(n)
	case envToolName:
		return s.env(args, n)
	}
	res, err := answer(tool, args, n)
	if err != nil {
		return nil, fmt.Errorf("answering %s: %w", tool, err)
	}
	if f := s.opts.Fault; f.Mode == FaultInject {
		return inject(f.Inject, res), nil
	}
	return res, nil
}

// count records one call and returns its number in the process.
func (s *server) count(tool string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total++
	s.calls[tool]++
	return s.total
}

// answer builds the deterministic answer of a healthy server.
func answer(tool string, args json.RawMessage, n int) (*mcp.CallToolResult, error) {
	var fields map[string]any
	if err := json.Unmarshal(args, &fields); err != nil {
		return errorResult(fmt.Sprintf("arguments must be a JSON object: %v", err)), nil
	}
	e := entityFor(tool)
	switch kindOf(tool) {
	case kindList:
		count := listCount(fields)
		items := make([]record, count)
		for i := range items {
			items[i] = e.make(i)
		}
		text, err := marshal(items)
		if err != nil {
			return nil, err
		}
		structured, err := marshal(record{{"items", items}, {"count", count}, {"call_number", n}})
		if err != nil {
			return nil, err
		}
		return textResult(text, structured), nil
	case kindGet:
		key, id := idArg(fields)
		if strings.Contains(strings.ToLower(id), "missing") {
			return errorResult(fmt.Sprintf("%s %q not found", e.kind, id)), nil
		}
		r := e.make(index(id))
		if key != "" {
			r = r.set(idField(r, key), id)
		}
		return objectResult(append(r, field{"call_number", n}))
	}
	return objectResult(record{
		{"ok", true},
		{"tool", tool},
		{"call_number", n},
		{"id", fmt.Sprintf("%s_%06d", e.kind, n)},
		{"received", args},
		{"status", "done"},
		{"_id", fmt.Sprintf("%024x", n)},
		{"__v", 0},
		{"created_at", baseTime.Add(time.Duration(n) * time.Minute).Format(time.RFC3339)},
		{"updated_at", baseTime.Add(time.Duration(n) * time.Minute).Format(time.RFC3339)},
	})
}

type toolKind int

const (
	kindEcho toolKind = iota
	kindList
	kindGet
)

// kindOf tells list, get and echo tools apart by the verb their name starts
// with.
func kindOf(tool string) toolKind {
	verb, _, _ := strings.Cut(strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(tool)), "_")
	switch verb {
	case "list", "search", "find", "query":
		return kindList
	case "get", "read", "lookup", "fetch", "describe", "show":
		return kindGet
	}
	return kindEcho
}

// listCount reads the number of records a list call asks for.
func listCount(fields map[string]any) int {
	for _, k := range []string{"count", "limit", "max_results", "maxResults", "page_size", "per_page"} {
		var n int
		switch v := fields[k].(type) {
		case float64:
			n = int(v)
		case string:
			n, _ = strconv.Atoi(v)
		default:
			continue
		}
		return max(0, min(n, maxListCount))
	}
	return defaultListCount
}

// idArg finds the argument that names the thing a get call wants: the first
// string argument (in name order) called id or ending in id, path or email.
func idArg(fields map[string]any) (key, value string) {
	best := ""
	for k, v := range fields {
		s, ok := v.(string)
		lk := strings.ToLower(k)
		if !ok || !(strings.HasSuffix(lk, "id") || strings.HasSuffix(lk, "path") || strings.HasSuffix(lk, "email")) {
			continue
		}
		if best == "" || k < best {
			best, value = k, s
		}
	}
	return best, value
}

// idField is the record field an argument named key fills: "id" for ids,
// else the field of the same kind (path, email).
func idField(r record, key string) string {
	lk := strings.ToLower(key)
	for _, suffix := range []string{"path", "email"} {
		if strings.HasSuffix(lk, suffix) {
			for _, f := range r {
				if f.key == suffix {
					return suffix
				}
			}
		}
	}
	return "id"
}

// index maps an id to a stable record index.
func index(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % 10_000)
}

func objectResult(r record) (*mcp.CallToolResult, error) {
	text, err := marshal(r)
	if err != nil {
		return nil, err
	}
	return textResult(text, text), nil
}

func textResult(text, structured []byte) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: json.RawMessage(structured),
	}
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// hugeAnswer is a text answer of size bytes: numbered lines of filler.
func hugeAnswer(size, n int) *mcp.CallToolResult {
	filler := strings.Repeat("x", 64)
	b := make([]byte, 0, size+128)
	for line := 1; len(b) < size; line++ {
		b = append(b, "call "...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, " line "...)
		b = strconv.AppendInt(b, int64(line), 10)
		b = append(b, ": "...)
		b = append(b, filler...)
		b = append(b, '\n')
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b[:size])}}}
}
