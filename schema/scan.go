package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Report is what ScanCatalog found in a catalog.
type Report struct {
	Tools   int           `json:"tools"`             // tool definitions read
	Flagged []FlaggedTool `json:"flagged"`           // tools with at least one flag, in catalog order
	Refused []ScanRefusal `json:"refused,omitempty"` // tools Normalize refused, in catalog order
}

// FlaggedTool is one tool of a scanned catalog and its flags.
type FlaggedTool struct {
	Server string `json:"server"`
	Name   string `json:"name"`
	Flags  []Flag `json:"flags"`
}

// ScanRefusal is one tool of a scanned catalog that Normalize refused.
type ScanRefusal struct {
	Server string `json:"server"`
	Refusal
}

// ScanCatalog runs Normalize, and so the poisoning detector, over a catalog
// in the shared JSONL form (one MCP tool a line with a "server" key; other
// keys that are not tool fields are ignored), without storing or serving
// it. It fails only on text that is not a sequence of JSON objects.
func ScanCatalog(r io.Reader) (Report, error) {
	rep := Report{Flagged: []FlaggedTool{}}
	dec := json.NewDecoder(r)
	memo := detectMemo{} // servers repeat their parameter texts
	for n := 1; ; n++ {
		var obj map[string]json.RawMessage
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			return rep, nil
		}
		if err != nil {
			return rep, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		var server string
		if s, ok := obj["server"]; ok {
			if err := json.Unmarshal(s, &server); err != nil {
				return rep, fmt.Errorf("reading catalog tool %d: server is not a string: %w", n, err)
			}
			delete(obj, "server")
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			return rep, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		rep.Tools++
		tool, err := normalize(server, raw, memo, nil)
		if err != nil {
			rep.Refused = append(rep.Refused, ScanRefusal{Server: server, Refusal: refusalOf(raw, err)})
			continue
		}
		if len(tool.Record.Flags) > 0 {
			rep.Flagged = append(rep.Flagged, FlaggedTool{Server: server, Name: tool.Record.Name, Flags: tool.Record.Flags})
		}
	}
}

// Share is the fraction of tools read that were flagged, 0 when none were
// read.
func (r Report) Share() float64 {
	if r.Tools == 0 {
		return 0
	}
	return float64(len(r.Flagged)) / float64(r.Tools)
}

// WriteText prints the report for a person: a summary line, then each
// flagged tool with its flags, then each refused tool with its reason.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools, %d flagged (%.1f%%), %d refused\n", r.Tools, len(r.Flagged), 100*r.Share(), len(r.Refused))
	for _, t := range r.Flagged {
		fmt.Fprintf(&b, "flagged %s/%s\n", t.Server, SanitizeName(t.Name, MaxNameChars))
		for _, f := range t.Flags {
			fmt.Fprintf(&b, "  %s in %s: %q\n", f.Rule, f.Field, f.Span)
		}
	}
	for _, ref := range r.Refused {
		fmt.Fprintf(&b, "refused %s/%s: %s\n", ref.Server, SanitizeName(ref.Tool, MaxNameChars), ref.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
