package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Report is what ScanCatalog found in a catalog.
type Report struct {
	Tools   int           `json:"tools"`             // tool definitions read
	Flagged []FlaggedTool `json:"flagged"`           // tools with at least one flag, in catalog order
	Refused []ScanRefusal `json:"refused,omitempty"` // tools Normalize refused, in catalog order
	// Trimmed are the tools whose card leaves out text that addressed
	// the model (flagged or not), in catalog order: the tools that lose a
	// sentence from their card.
	Trimmed []TrimmedTool `json:"trimmed,omitempty"`
	// Labelled is set when the catalog's lines carry corpus labels (see
	// [Label]): the figures of its poisoned and benign parts.
	Labelled *Figures `json:"labelled,omitempty"`
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

// TrimmedTool is one tool whose card leaves out text, and that text, a
// sentence or name a line, each cut to MaxFlagSpan characters.
type TrimmedTool struct {
	Server string   `json:"server"`
	Name   string   `json:"name"`
	Left   []string `json:"left"`
}

// scanLine is one tool of a scanned catalog.
type scanLine struct {
	server string
	raw    json.RawMessage
	label  *Label // nil for an unlabelled line
}

// ScanCatalog runs the normalizer, and so the poisoning detector, over a
// catalog in the shared JSONL form (one MCP tool a line with a "server"
// key), without storing or serving it. The tools of each server are
// normalized together, as the bridge indexes one server's listing, and
// each server's tools are checked against the tool and server names of
// all the others (see [Neighbours]). A line may carry corpus labels
// ([Label]): they are not read as tool fields, and the report then holds
// the labelled figures. ScanCatalog fails only on text that is not a
// sequence of JSON objects.
func ScanCatalog(r io.Reader) (Report, error) {
	lines, err := readScanLines(r)
	if err != nil {
		return Report{Flagged: []FlaggedTool{}}, err
	}
	return scanLines(lines), nil
}

// Listing is one server's tools as it listed them, for ScanListings.
type Listing struct {
	Server string
	Tools  []json.RawMessage
}

// ScanListings is ScanCatalog over listings already read (a catalog the
// bridge stored, say): each server's tools are normalized together and
// checked against the others' names.
func ScanListings(listings []Listing) Report {
	var lines []scanLine
	for _, l := range listings {
		for _, raw := range l.Tools {
			lines = append(lines, scanLine{server: l.Server, raw: raw})
		}
	}
	return scanLines(lines)
}

func readScanLines(r io.Reader) ([]scanLine, error) {
	var out []scanLine
	dec := json.NewDecoder(r)
	for n := 1; ; n++ {
		var obj map[string]json.RawMessage
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		var line scanLine
		if s, ok := obj["server"]; ok {
			if err := json.Unmarshal(s, &line.server); err != nil {
				return out, fmt.Errorf("reading catalog tool %d: server is not a string: %w", n, err)
			}
			delete(obj, "server")
		}
		if line.label, err = takeLabel(obj); err != nil {
			return out, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		if line.raw, err = json.Marshal(obj); err != nil {
			return out, fmt.Errorf("reading catalog tool %d: %w", n, err)
		}
		out = append(out, line)
	}
}

// scanned is what normalizing one line of a scanned catalog gave.
type scanned struct {
	tool    *Tool   // nil when refused
	refusal Refusal // when refused
}

// scanLines normalizes the lines a server at a time and reports on them
// in catalog order.
func scanLines(lines []scanLine) Report {
	rep := Report{Tools: len(lines), Flagged: []FlaggedTool{}}
	var servers []string
	byServer := map[string][]int{}
	for i, l := range lines {
		if _, ok := byServer[l.server]; !ok {
			servers = append(servers, l.server)
		}
		byServer[l.server] = append(byServer[l.server], i)
	}
	names := make(map[string][]string, len(servers))
	for _, s := range servers {
		for _, i := range byServer[s] {
			if n := guessName(lines[i].raw); n != "" {
				names[s] = append(names[s], n)
			}
		}
	}
	out := make([]scanned, len(lines))
	for _, s := range servers {
		idx := byServer[s]
		raws := make([]json.RawMessage, len(idx))
		for k, i := range idx {
			raws[k] = lines[i].raw
		}
		done := make([]bool, len(idx))
		refused := NormalizeCatalog(s, raws, &CatalogOptions{Neighbours: NewNeighbours(s, names)}, func(k int, t *Tool) {
			out[idx[k]].tool, done[k] = t, true
		})
		// Refusals carry names, not positions: give each to the first
		// line of its name that was not kept.
		for _, r := range refused {
			for k, i := range idx {
				if !done[k] && (r.Tool == "" || slices.Contains(namesOf(lines[i].raw), r.Tool)) {
					out[i].refusal, done[k] = r, true
					break
				}
			}
		}
	}
	var fig *Figures
	for i, l := range lines {
		if l.label != nil && fig == nil {
			fig = &Figures{ByTechnique: map[string]*Tally{}}
		}
		res := out[i]
		if res.tool == nil {
			rep.Refused = append(rep.Refused, ScanRefusal{Server: l.server, Refusal: res.refusal})
		} else {
			t := res.tool
			if len(t.Record.Flags) > 0 {
				rep.Flagged = append(rep.Flagged, FlaggedTool{Server: l.server, Name: t.Record.Name, Flags: t.Record.Flags})
			}
			if left := t.Withheld(); len(left) > 0 {
				rep.Trimmed = append(rep.Trimmed, TrimmedTool{Server: l.server, Name: t.Record.Name, Left: left})
			}
		}
		if l.label != nil {
			fig.add(l, res)
		}
	}
	rep.Labelled = fig
	return rep
}

// Share is the fraction of tools read that were flagged, 0 when none were
// read.
func (r Report) Share() float64 {
	if r.Tools == 0 {
		return 0
	}
	return float64(len(r.Flagged)) / float64(r.Tools)
}

// TrimmedShare is the fraction of tools read whose card leaves out text
// that addressed the model, 0 when none were read.
func (r Report) TrimmedShare() float64 {
	if r.Tools == 0 {
		return 0
	}
	return float64(len(r.Trimmed)) / float64(r.Tools)
}

// WriteText prints the report for a person: a summary line, then each
// flagged tool with its flags, each refused tool with its reason, each
// tool whose card leaves text out with that text, and last the labelled
// figures when the catalog carries labels.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools, %d flagged (%.1f%%), %d refused, %d lose text from their card (%.1f%%)\n",
		r.Tools, len(r.Flagged), 100*r.Share(), len(r.Refused), len(r.Trimmed), 100*r.TrimmedShare())
	for _, t := range r.Flagged {
		fmt.Fprintf(&b, "flagged %s/%s\n", t.Server, SanitizeName(t.Name, MaxNameChars))
		for _, f := range t.Flags {
			fmt.Fprintf(&b, "  %s in %s: %q\n", f.Rule, f.Field, f.Span)
		}
	}
	for _, ref := range r.Refused {
		fmt.Fprintf(&b, "refused %s/%s: %s\n", ref.Server, SanitizeName(ref.Tool, MaxNameChars), ref.Reason)
	}
	for _, t := range r.Trimmed {
		fmt.Fprintf(&b, "card leaves out of %s/%s:\n", t.Server, SanitizeName(t.Name, MaxNameChars))
		for _, s := range t.Left {
			fmt.Fprintf(&b, "  %q\n", s)
		}
	}
	if r.Labelled != nil {
		r.Labelled.write(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
