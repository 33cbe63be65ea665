package schema

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Definition fields: the parts of a tool a model can read or be steered by,
// as keys of a definition's canonical JSON. Pinning compares them; [Diff]
// names a changed annotation as "annotations.<hint>".
const (
	FieldName         = "name"
	FieldTitle        = "title"
	FieldDescription  = "description"
	FieldInputSchema  = "inputSchema"
	FieldOutputSchema = "outputSchema"
	FieldAnnotations  = "annotations"
)

// definition writes the canonical JSON of a tool's whole model-visible
// definition: an object with the keys above in bytewise order, absent
// ones left out. input is the canonical input schema; annotations and
// output are the tool's members (nil, null or a non-object: left out).
// Two listings of a tool have the same definition exactly when nothing a
// model could read changed, whatever their key order or spacing.
func definition(name, title, description string, input []byte, annotations, output *node) []byte {
	b := make([]byte, 0, len(input)+len(description)+len(name)+len(title)+128)
	b = append(b, '{')
	if annotations != nil && annotations.kind == kindObject {
		b = append(b, `"annotations":`...)
		b = annotations.appendCanonical(b)
		b = append(b, ',')
	}
	if description != "" {
		b = append(b, `"description":`...)
		b = appendString(b, description)
		b = append(b, ',')
	}
	b = append(b, `"inputSchema":`...)
	b = append(b, input...)
	b = append(b, `,"name":`...)
	b = appendString(b, name)
	if output != nil && output.kind != kindNull {
		b = append(b, `,"outputSchema":`...)
		b = output.appendCanonical(b)
	}
	if title != "" {
		b = append(b, `,"title":`...)
		b = appendString(b, title)
	}
	return append(b, '}')
}

// Diff names what differs between two tool definitions (as [Tool]'s
// Definition holds them): the top-level fields that changed, and each
// annotation by itself ("annotations.destructiveHint"), sorted. Equal
// definitions give none.
func Diff(old, new []byte) ([]string, error) {
	o, err := parseDefinition(old)
	if err != nil {
		return nil, err
	}
	n, err := parseDefinition(new)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, key := range unionKeys(o, n) {
		ov, nv := o.get(key), n.get(key)
		if key == FieldAnnotations && (ov == nil || ov.kind == kindObject) && (nv == nil || nv.kind == kindObject) {
			for _, hint := range unionKeys(ov, nv) {
				if !sameValue(ov.get(hint), nv.get(hint)) {
					changed = append(changed, FieldAnnotations+"."+hint)
				}
			}
			continue
		}
		if !sameValue(ov, nv) {
			changed = append(changed, key)
		}
	}
	slices.Sort(changed)
	return changed, nil
}

// RiskRaised says why calling a tool defined as new may do more harm than
// calling it as old did, or "" when it may not: the read-only hint is
// lost (read-only to write, destructive or unknown), destructiveHint or
// openWorldHint turns on, a tool that was read-only requires a new input
// (a visible one too: "session_context", the user's recent messages,
// asks the model for more than reading did), or the input schema requires
// a new input that a card cannot show (nested, or past the inputs a card
// lists).
func RiskRaised(old, new []byte) (string, error) {
	o, err := parseDefinition(old)
	if err != nil {
		return "", err
	}
	n, err := parseDefinition(new)
	if err != nil {
		return "", err
	}
	oa, na := o.get(FieldAnnotations), n.get(FieldAnnotations)
	var reasons []string
	if was, is := riskOf(oa), riskOf(na); was == RiskReadOnly && is != RiskReadOnly {
		reasons = append(reasons, fmt.Sprintf("it was read-only and is now %s", is))
	}
	for _, hint := range []string{"destructiveHint", "openWorldHint"} {
		if !isTrue(oa.get(hint)) && isTrue(na.get(hint)) {
			reasons = append(reasons, hint+" turned on")
		}
	}
	if riskOf(oa) == RiskReadOnly {
		if added := newRequired(o.get(FieldInputSchema), n.get(FieldInputSchema)); len(added) > 0 {
			reasons = append(reasons, fmt.Sprintf("it was read-only and now requires %s", listInputs(added, 3)))
		}
	} else if hidden := newHiddenRequired(o.get(FieldInputSchema), n.get(FieldInputSchema)); len(hidden) > 0 {
		reasons = append(reasons, fmt.Sprintf("it requires %s, which a card cannot show", listInputs(hidden, 3)))
	}
	return strings.Join(reasons, "; "), nil
}

// RiskyHints names the hints of a tool defined as def that say calling it
// may do more than read local data: destructiveHint or openWorldHint set
// to true ("" when neither is). Hints left out are not counted, though MCP
// reads both as true when absent: most servers send no annotations.
func RiskyHints(def []byte) (string, error) {
	d, err := parseDefinition(def)
	if err != nil {
		return "", err
	}
	a := d.get(FieldAnnotations)
	var on []string
	for _, hint := range []string{"destructiveHint", "openWorldHint"} {
		if isTrue(a.get(hint)) {
			on = append(on, hint)
		}
	}
	return strings.Join(on, " and "), nil
}

// parseDefinition reads a definition [definition] wrote.
func parseDefinition(def []byte) (*node, error) {
	n, err := parseTree(def, maxTreeDepth)
	if err != nil {
		return nil, fmt.Errorf("reading a tool definition: %w", err)
	}
	if n.kind != kindObject {
		return nil, fmt.Errorf("reading a tool definition: not a JSON object")
	}
	return n, nil
}

// unionKeys returns the member names of two objects (either may be nil),
// each once.
func unionKeys(a, b *node) []string {
	var keys []string
	for _, n := range []*node{a, b} {
		if n == nil || n.kind != kindObject {
			continue
		}
		for _, k := range n.keys {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// sameValue reports whether two members hold the same JSON value; an
// absent member equals only another absent one.
func sameValue(a, b *node) bool {
	if a == nil || b == nil {
		return a == b
	}
	return bytes.Equal(a.appendCanonical(nil), b.appendCanonical(nil))
}

func isTrue(n *node) bool { return n != nil && n.kind == kindBool && n.truth }

// newRequired lists the inputs new requires that old did not.
func newRequired(old, new *node) []string {
	if new == nil || new.kind != kindObject {
		return nil
	}
	before := map[string]bool{}
	if old != nil && old.kind == kindObject {
		for _, p := range requiredInputs(old) {
			before[p] = true
		}
	}
	var added []string
	for _, p := range requiredInputs(new) {
		if !before[p] {
			added = append(added, p)
		}
	}
	return added
}

// newHiddenRequired lists the inputs new requires that old did not, and
// that a card of new cannot show: a required input inside another one
// ("parent/child"), or a top-level one a card leaves out for room.
func newHiddenRequired(old, new *node) []string {
	if new == nil || new.kind != kindObject {
		return nil
	}
	before := map[string]bool{}
	if old != nil && old.kind == kindObject {
		for _, p := range requiredInputs(old) {
			before[p] = true
		}
	}
	shown := map[string]bool{}
	for i, p := range readShape(new).ordered() {
		if i < MaxCardInputs && p.required {
			shown[p.name] = true
		}
	}
	var hidden []string
	for _, p := range requiredInputs(new) {
		if !before[p] && !shown[p] {
			hidden = append(hidden, p)
		}
	}
	return hidden
}

// requiredInputs lists a schema's required inputs: top-level names, and
// the required fields inside each input as "name/field".
func requiredInputs(root *node) []string {
	var out []string
	for _, p := range readShape(root).props {
		if !p.required {
			continue
		}
		out = append(out, p.name)
		for _, nested := range nestedRequired(root, p.schema) {
			out = append(out, p.name+"/"+nested)
		}
	}
	return out
}

// listInputs quotes up to n input names for a reason, counting the rest.
func listInputs(names []string, n int) string {
	quoted := make([]string, 0, n)
	for _, name := range names[:min(n, len(names))] {
		quoted = append(quoted, fmt.Sprintf("%q", cutWords(name, 40)))
	}
	out := strings.Join(quoted, ", ")
	if rest := len(names) - len(quoted); rest > 0 {
		out += fmt.Sprintf(" and %d more", rest)
	}
	return out
}
