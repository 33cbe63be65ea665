package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Limits from the design contract. A tool past any of them is refused alone.
const (
	MaxCatalogBytes = 16 << 20  // bytes of one server's whole tools/list
	MaxCatalogTools = 5000      // tools in one server's catalog
	MaxSchemaBytes  = 256 << 10 // bytes of one raw input schema
	MaxSchemaDepth  = 32        // nesting depth of one input schema
	MaxProseChars   = 4000      // characters of provider prose kept before the card budget
	MaxCardInputs   = 32        // top-level inputs projected onto a card
	MaxCardBytes    = 8 << 10   // bytes of one stored, normalized card (compact JSON)
)

// Risk says what calling a tool may do, from its MCP annotations.
type Risk string

// Risk values.
const (
	RiskReadOnly    Risk = "read-only"
	RiskWrite       Risk = "write"
	RiskDestructive Risk = "destructive"
	RiskUnknown     Risk = "unknown"
)

// Record is the exact, lossless description of one provider tool.
type Record struct {
	Server      string            `json:"server"`
	Name        string            `json:"name"`                  // provider tool name, unchanged
	Title       string            `json:"title,omitempty"`       // provider title, unchanged
	Description string            `json:"description,omitempty"` // provider description, unchanged
	InputSchema json.RawMessage   `json:"inputSchema"`           // canonical JSON of the input schema
	Annotations json.RawMessage   `json:"annotations,omitempty"` // MCP annotations as sent
	Raw         json.RawMessage   `json:"raw"`                   // the whole tool object as sent (keeps execution, outputSchema, _meta)
	Hash        string            `json:"hash"`                  // hex SHA-256 of the tool's definition (see Tool.Definition)
	Aliases     map[string]string `json:"aliases,omitempty"`     // alias -> provider property name (top level); identity names omitted
	Properties  []string          `json:"properties,omitempty"`  // top-level provider property names, in schema order
	ProseCut    int               `json:"proseCut,omitempty"`    // characters of provider prose the card left out (sanitizing and budgets)
	Flags       []Flag            `json:"flags,omitempty"`       // text of the tool that reads like an attack on the model; nil when none
}

// MaxFlagSpan is the most characters of offending text a [Flag] keeps.
const MaxFlagSpan = 120

// Flag is one piece of a tool's text that speaks to the model rather than
// describing the tool: a directive to the assistant, a request for secrets,
// an instruction about another tool.
type Flag struct {
	Rule  string `json:"rule"`  // rule name, such as "directive.assistant" or "secret.request"
	Field string `json:"field"` // where the text is, such as "description" or "inputSchema.properties.note.description"
	Span  string `json:"span"`  // the offending text as sent, at most MaxFlagSpan characters
}

// Card is the bounded, sanitized reading aid for one tool. The bridge adds
// the action id and confidence when it shows a card to a model.
type Card struct {
	Name     string  `json:"name"`     // provider tool name, sanitized, at most 64 characters
	Summary  string  `json:"summary"`  // sanitized, bounded
	Provider string  `json:"provider"` // server label
	Risk     Risk    `json:"risk"`
	Complete bool    `json:"complete"`       // false when the inputs cannot express every required input
	Note     string  `json:"note,omitempty"` // why the card is incomplete
	Inputs   []Input `json:"inputs,omitempty"`
}

// Input is one top-level parameter as a card shows it, under its alias.
type Input struct {
	Name        string   `json:"name"` // alias
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
}

// Tool is the result of normalizing one raw tool.
type Tool struct {
	Record Record
	Card   Card
	// Definition is the canonical JSON of everything of the tool a model
	// could read or be steered by: name, title, description, input and
	// output schema, annotations. Record.Hash is its SHA-256; pinning
	// keeps it and compares it with [Diff] and [RiskRaised].
	Definition []byte

	cut *spanCutter // what the detector flagged and read; nil for a Tool not made by Normalize
	// own is the description less the sentences its catalog repeats;
	// repeated holds those sentences, one a line ("" when none: see
	// repeatedSentences).
	own, repeated string
}

// Described returns what the tool's description says of the tool itself:
// the description less the sentences most tools of its catalog repeat
// word for word (see NormalizeCatalog), and those sentences, one a line.
// A tool normalized alone, or whose catalog repeats nothing of it,
// returns its whole description and "".
func (t *Tool) Described() (own, repeated string) {
	if t.repeated == "" {
		return t.Record.Description, ""
	}
	return t.own, t.repeated
}

// Prose sanitizes provider prose of this tool for search text, which no
// model reads: as Sanitize, after cutting the sentences the detector flagged
// in Normalize, without reading again the sentences it read there, and
// without Sanitize's check of the joined result.
func (t *Tool) Prose(s string, maxChars int) (clean string, cut int) {
	if t.cut == nil {
		return Sanitize(s, maxChars)
	}
	total := utf8.RuneCountInString(s)
	clean, _ = sanitize(t.cut.cut(s), maxChars, t.cut.searchLure, false)
	return clean, max(0, total-utf8.RuneCountInString(clean))
}

// Withheld returns the texts the tool's card leaves out because they
// addressed the model rather than describing the tool: flagged sentences
// and names, and sentences the card's own check left out, each cut to
// MaxFlagSpan characters; nil when the card leaves nothing out.
func (t *Tool) Withheld() []string {
	return t.cut.withheld()
}

// DecodeRecord reads a stored exact record (the JSON [Record] layout).
func DecodeRecord(data []byte) (*Record, error) {
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("decoding tool record: %w", err)
	}
	return &rec, nil
}

// NeedsTask reports whether the tool of a stored record (as JSON) must be
// called as a task (MCP tasks, SEP-1686): its execution.taskSupport is
// "required", and the server refuses a plain tools/call of it.
func NeedsTask(record []byte) bool {
	// Decoding a record takes tens of microseconds, on every run: only a
	// record that has the words at all is decoded.
	if !bytes.Contains(record, []byte(`"taskSupport":"required"`)) {
		return false
	}
	var rec struct {
		Raw struct {
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"raw"`
	}
	return json.Unmarshal(record, &rec) == nil && rec.Raw.Execution.TaskSupport == "required"
}
