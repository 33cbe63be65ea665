package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kaptinlin/jsonschema"
)

// ErrUnresolvedRef reports a $ref in an input schema that names nothing the
// schema holds. Remote references are never fetched, so they end here too.
var ErrUnresolvedRef = errors.New("unresolved $ref")

// messageChars bounds one validation message a model reads.
const messageChars = 160

// Validator checks call arguments against one tool's exact input schema.
// It is safe for concurrent use.
type Validator struct {
	rec   *Record
	root  *node             // the exact input schema, parsed
	shown map[string]string // provider property name -> name on the card

	mu       sync.Mutex         // serializes evaluation: compiled schemas cache regexps lazily
	compiled *jsonschema.Schema // guarded by mu
}

// Checked is the verdict on one call's arguments. The call may go upstream
// only when Missing and Errors are both empty.
type Checked struct {
	Args    json.RawMessage // provider-keyed arguments, exactly what is sent upstream
	Missing []Missing       // every missing required input, top level and nested
	Errors  []FieldError    // every other problem
}

// Missing is one required input the arguments lack.
type Missing struct {
	Path        string `json:"name"`                  // JSON Pointer in card names (aliases at the top)
	Type        string `json:"type"`                  // as a card shows types
	Description string `json:"description,omitempty"` // sanitized
}

// FieldError is one argument that does not fit the schema.
type FieldError struct {
	Path    string `json:"path"`    // JSON Pointer in card names, "" for the whole object
	Message string `json:"message"` // short, sanitized
}

// NewValidator compiles the exact input schema of rec. Remote $refs are
// never loaded; any $ref left unresolved is an error wrapping
// ErrUnresolvedRef, never a schema that accepts everything.
func NewValidator(rec *Record) (*Validator, error) {
	root, err := parseTree(rec.InputSchema, maxTreeDepth)
	if err != nil {
		return nil, fmt.Errorf("parsing input schema of %q: %w", rec.Name, err)
	}
	compiled, err := compileSchema(rec.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("compiling input schema of %q: %w", rec.Name, err)
	}
	shown := make(map[string]string, len(rec.Properties))
	for _, name := range rec.Properties {
		shown[name] = name
	}
	for alias, provider := range rec.Aliases {
		shown[provider] = alias
	}
	return &Validator{rec: rec, root: root, shown: shown, compiled: compiled}, nil
}

// compileSchema compiles one schema on a compiler of its own (two schemas
// with one $id on a shared compiler would meet the first), with no loaders,
// after rewriting the forms of older drafts into 2020-12 (upgradeSchema).
func compileSchema(schema []byte) (compiled *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			compiled, err = nil, fmt.Errorf("schema compiler failed: %v", r)
		}
	}()
	schema, err = upgradeSchema(schema)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	for scheme := range c.Loaders {
		delete(c.Loaders, scheme)
	}
	compiled, err = c.Compile(schema)
	if err != nil {
		return nil, err
	}
	if refs := compiled.UnresolvedReferenceURIs(); len(refs) > 0 {
		slices.Sort(refs)
		return nil, fmt.Errorf("%w: %s", ErrUnresolvedRef, strings.Join(slices.Compact(refs), ", "))
	}
	return compiled, nil
}

// compileCheck reports whether a canonical schema compiles for validation.
func compileCheck(schema []byte) error {
	_, err := compileSchema(schema)
	return err
}

// Check maps alias-keyed arguments to provider names and validates them.
// Absent or null args mean {}. Arguments are decoded with exact numbers and
// exact, case-sensitive names. Problems the model can fix are reported in
// the result, not as an error.
func (v *Validator) Check(args json.RawMessage) (*Checked, error) {
	checked := &Checked{}
	value, err := decodeArgs(args)
	if err != nil {
		checked.Errors = append(checked.Errors, FieldError{Path: "", Message: "arguments are not valid JSON"})
		return checked, nil
	}
	object, ok := value.(map[string]any)
	if !ok {
		checked.Errors = append(checked.Errors, FieldError{Path: "", Message: "arguments must be a JSON object"})
		return checked, nil
	}
	provider, problems := v.rec.mapArgs(object)
	for _, p := range problems {
		checked.Errors = append(checked.Errors, FieldError{Path: "/" + escapePointer(p.Key), Message: p.Message})
	}
	checked.Args, err = encodeArgs(provider)
	if err != nil {
		return nil, fmt.Errorf("encoding arguments of %q: %w", v.rec.Name, err)
	}
	v.findMissing(provider, v.root, nil, 0, &checked.Missing)

	result, err := v.evaluate(checked.Args)
	if err != nil {
		return nil, fmt.Errorf("validating arguments of %q: %w", v.rec.Name, err)
	}
	if !result.IsValid() {
		walk := errorWalk{v: v, args: provider, missing: checked.Missing}
		walk.collect(result, nil)
		checked.Errors = append(checked.Errors, walk.errors...)
		slices.SortStableFunc(checked.Errors, func(a, b FieldError) int { return strings.Compare(a.Path, b.Path) })
		if len(checked.Errors) == 0 && len(checked.Missing) == 0 {
			checked.Errors = append(checked.Errors, FieldError{Path: "", Message: "arguments do not match the input schema"})
		}
	}
	return checked, nil
}

func (v *Validator) evaluate(args []byte) (result *jsonschema.EvaluationResult, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("schema evaluation failed: %v", r)
		}
	}()
	return v.compiled.ValidateJSON(args), nil
}

// decodeArgs decodes one JSON value with exact numbers; absent or null is {}.
func decodeArgs(args json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errTrailingBytes
	}
	if value == nil {
		return map[string]any{}, nil
	}
	return value, nil
}

// encodeArgs writes provider-keyed arguments as compact JSON, numbers as
// they came, without HTML escaping.
func encodeArgs(args map[string]any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// findMissing lists required inputs absent from value, following the
// schema's properties, allOf members, items and local $refs. Alternatives
// (anyOf, oneOf, if/then) are left to the validator's errors: which branch
// applies is not known.
func (v *Validator) findMissing(value any, schema *node, path []string, depth int, out *[]Missing) {
	if depth > MaxSchemaDepth {
		return
	}
	n := resolve(v.root, schema)
	if n == nil || n.kind != kindObject {
		return
	}
	members := []*node{n}
	for _, m := range arrayItems(n.get("allOf")) {
		if m = resolve(v.root, m); m != nil && m.kind == kindObject {
			members = append(members, m)
		}
	}
	switch value := value.(type) {
	case map[string]any:
		var seen []string
		for _, m := range members {
			for _, name := range stringList(m.get("required")) {
				if _, ok := value[name]; ok || slices.Contains(seen, name) {
					continue
				}
				seen = append(seen, name)
				prop := propertySchema(members, name)
				raw := resolve(v.root, prop).get("description").str()
				if shown, ok := v.shown[name]; ok && len(path) == 0 && shown != name {
					raw = strings.TrimSuffix(name+": "+raw, ": ") // as its card says (see projectInput)
				}
				desc, _ := Sanitize(raw, inputDescChars)
				*out = append(*out, Missing{
					Path:        v.pointer(append(slices.Clone(path), name)),
					Type:        typeName(v.root, prop, 0),
					Description: desc,
				})
			}
		}
		for name, item := range value {
			if prop := propertySchema(members, name); prop != nil {
				v.findMissing(item, prop, append(slices.Clone(path), name), depth+1, out)
			}
		}
		if depth == 0 {
			slices.SortStableFunc(*out, func(a, b Missing) int { return strings.Compare(a.Path, b.Path) })
		}
	case []any:
		items := n.get("items")
		prefix := arrayItems(n.get("prefixItems"))
		for i, item := range value {
			s := items
			if i < len(prefix) {
				s = prefix[i]
			}
			if s != nil && s.kind == kindObject {
				v.findMissing(item, s, append(slices.Clone(path), strconv.Itoa(i)), depth+1, out)
			}
		}
	}
}

// propertySchema finds the schema of a named property among object members.
func propertySchema(members []*node, name string) *node {
	for _, m := range members {
		if p := m.get("properties").get(name); p != nil {
			return p
		}
	}
	return nil
}

// pointer writes a provider path as a JSON Pointer in card names: the top
// token becomes its alias, nested tokens stay as the provider named them.
func (v *Validator) pointer(path []string) string {
	var b strings.Builder
	for i, token := range path {
		if i == 0 {
			if shown, ok := v.shown[token]; ok {
				token = shown
			}
		}
		b.WriteByte('/')
		b.WriteString(escapePointer(token))
	}
	return b.String()
}
