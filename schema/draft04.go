package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ErrInexpressible reports a form of an older JSON Schema draft that has no
// 2020-12 equivalent the validator could check exactly. Such a tool is
// refused, with this reason.
var ErrInexpressible = errors.New("a form of an older JSON Schema draft with no 2020-12 equivalent")

// The validator reads JSON Schema 2020-12, the dialect MCP schemas default
// to. Tools in the wild still use the forms of drafts 03 to 07, which
// 2020-12 reads differently or not at all: kaptinlin refuses draft-04's
// boolean exclusiveMinimum ("unsupported rat type"), and ignores
// "dependencies" and "divisibleBy", which would make validation looser than
// the schema. upgradeSchema rewrites those forms into their 2020-12
// equivalents in a copy that only the validator compiles; the exact
// record's schema stays as the provider sent it.
//
// In any schema (these forms are not valid 2020-12, or are not 2020-12
// keywords at all, so they can only mean what the older drafts said):
//
//   - boolean exclusiveMinimum/exclusiveMaximum: true with minimum/maximum
//     becomes the numeric exclusiveMinimum/exclusiveMaximum; false is
//     dropped (the minimum stays inclusive);
//   - array-form items becomes prefixItems, and additionalItems becomes
//     items; additionalItems beside a non-array items is dropped (the older
//     drafts ignore it there);
//   - dependencies becomes dependentRequired (array values) and
//     dependentSchemas (schema values);
//   - draft-03's divisibleBy becomes multipleOf, extends becomes allOf, a
//     property's boolean required joins its parent's required list, and
//     disallow becomes not/anyOf.
//
// Where the root's $schema names draft 03 to 07, which 2020-12 reads
// differently:
//
//   - $ref beside other keywords: those drafts ignore the siblings, so only
//     $ref (and the definitions it may point into) is kept;
//   - (drafts 03 and 04) id becomes $id, or $anchor for a "#name" id;
//   - $schema itself is dropped, so nothing reads the copy as an older draft.
//
// "definitions" is kept where it is, so "#/definitions/..." references stay
// valid. What cannot be expressed (an id fragment that is not a plain name)
// is an error wrapping [ErrInexpressible].

// legacyMarkers are the keys whose presence may call for a rewrite. A
// schema holding none of them is passed through without decoding.
var legacyMarkers = [][]byte{
	[]byte(`"exclusiveMinimum"`), []byte(`"exclusiveMaximum"`), []byte(`"items"`), []byte(`"additionalItems"`),
	[]byte(`"dependencies"`), []byte(`"divisibleBy"`), []byte(`"extends"`), []byte(`"disallow"`),
	[]byte(`"required"`), []byte(`"$schema"`),
}

// anchorName is a 2020-12 plain-name fragment ($anchor).
var anchorName = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)

// upgradeSchema returns schema with the older drafts' forms rewritten (see
// above), or schema itself when it has none.
func upgradeSchema(schema []byte) ([]byte, error) {
	if !slices.ContainsFunc(legacyMarkers, func(m []byte) bool { return bytes.Contains(schema, m) }) {
		return schema, nil
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("reading schema to upgrade: %w", err)
	}
	u := upgrader{}
	if obj, ok := root.(map[string]any); ok {
		if s, ok := obj["$schema"].(string); ok {
			u.draft = declaredDraft(s)
			if u.draft != 0 {
				delete(obj, "$schema")
				u.changed = true
			}
		}
	}
	if err := u.schema(root); err != nil {
		return nil, err
	}
	if !u.changed {
		return schema, nil
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("writing upgraded schema: %w", err)
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// declaredDraft returns 3, 4, 6 or 7 for a $schema naming that draft, 0 for
// any other (2019-09, 2020-12, unknown).
func declaredDraft(uri string) int {
	for _, d := range []int{3, 4, 6, 7} {
		if strings.Contains(uri, fmt.Sprintf("draft-0%d/", d)) || strings.HasSuffix(strings.TrimSuffix(uri, "#"), fmt.Sprintf("draft-0%d", d)) {
			return d
		}
	}
	return 0
}

// upgrader walks the schema positions of one schema, rewriting in place.
type upgrader struct {
	draft   int  // the root's declared draft, 0 when 2019-09 or later or none
	changed bool // something was rewritten
}

// Keywords whose values are schemas, maps of schemas or arrays of schemas.
var (
	schemaValued = []string{"additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
		"unevaluatedItems", "unevaluatedProperties", "items", "contentSchema"}
	schemaMaps   = []string{"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"}
	schemaArrays = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// schema rewrites one schema (an object; booleans and others are left).
func (u *upgrader) schema(v any) error {
	s, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if _, ok := s["$ref"]; ok && u.draft != 0 {
		for k := range s {
			if k != "$ref" && k != "definitions" && k != "$defs" {
				delete(s, k)
				u.changed = true
			}
		}
	}
	if u.draft == 3 || u.draft == 4 {
		if err := u.id(s); err != nil {
			return err
		}
	}
	u.bound(s, "exclusiveMinimum", "minimum")
	u.bound(s, "exclusiveMaximum", "maximum")
	u.rename(s, "divisibleBy", "multipleOf")
	u.items(s)
	u.dependencies(s)
	u.extends(s)
	u.disallow(s)
	if _, ok := s["required"].(bool); ok {
		// A draft-03 flag where no parent object reads it (its parent's
		// walk has taken those of properties already).
		delete(s, "required")
		u.changed = true
	}
	u.requiredFlags(s)

	for _, k := range schemaValued {
		if err := u.schema(s[k]); err != nil {
			return err
		}
	}
	for _, k := range schemaMaps {
		if m, ok := s[k].(map[string]any); ok {
			for _, sub := range m {
				if err := u.schema(sub); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range schemaArrays {
		if a, ok := s[k].([]any); ok {
			for _, sub := range a {
				if err := u.schema(sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// bound turns a boolean exclusive bound into the numeric form.
func (u *upgrader) bound(s map[string]any, exclusive, inclusive string) {
	flag, ok := s[exclusive].(bool)
	if !ok {
		return
	}
	u.changed = true
	delete(s, exclusive)
	if limit, ok := s[inclusive]; ok && flag {
		s[exclusive] = limit
		delete(s, inclusive)
	}
}

// rename moves old to new unless new is set already, where old is dropped
// only if it equals it (both would then have to hold: keep both via allOf).
func (u *upgrader) rename(s map[string]any, old, new string) {
	v, ok := s[old]
	if !ok {
		return
	}
	u.changed = true
	delete(s, old)
	if _, taken := s[new]; !taken {
		s[new] = v
		return
	}
	u.addAllOf(s, map[string]any{new: v})
}

// addAllOf appends sub to s's allOf.
func (u *upgrader) addAllOf(s map[string]any, subs ...any) {
	all, _ := s["allOf"].([]any)
	s["allOf"] = append(all, subs...)
	u.changed = true
}

// items rewrites array-form items and additionalItems.
func (u *upgrader) items(s map[string]any) {
	tuple, isTuple := s["items"].([]any)
	additional, hasAdditional := s["additionalItems"]
	if !isTuple {
		if hasAdditional {
			delete(s, "additionalItems") // ignored beside a single items schema
			u.changed = true
		}
		return
	}
	u.changed = true
	delete(s, "items")
	delete(s, "additionalItems")
	if _, taken := s["prefixItems"]; taken {
		// Not a form any draft wrote; keep both meanings through allOf.
		sub := map[string]any{"prefixItems": tuple}
		if hasAdditional {
			sub["items"] = additional
		}
		u.addAllOf(s, sub)
		return
	}
	s["prefixItems"] = tuple
	if hasAdditional {
		s["items"] = additional
	}
}

// dependencies splits dependencies into dependentRequired and
// dependentSchemas (draft-03 also allowed one property name as a string).
func (u *upgrader) dependencies(s map[string]any) {
	deps, ok := s["dependencies"].(map[string]any)
	if !ok {
		return
	}
	u.changed = true
	delete(s, "dependencies")
	required, _ := s["dependentRequired"].(map[string]any)
	schemas, _ := s["dependentSchemas"].(map[string]any)
	for name, dep := range deps {
		var names []any
		switch dep := dep.(type) {
		case []any:
			names = dep
		case string:
			names = []any{dep}
		default:
			if schemas == nil {
				schemas = map[string]any{}
			}
			if prev, taken := schemas[name]; taken {
				dep = map[string]any{"allOf": []any{prev, dep}}
			}
			schemas[name] = dep
			continue
		}
		if required == nil {
			required = map[string]any{}
		}
		prev, _ := required[name].([]any)
		required[name] = append(prev, names...)
	}
	if required != nil {
		s["dependentRequired"] = required
	}
	if schemas != nil {
		s["dependentSchemas"] = schemas
	}
}

// extends (draft-03) becomes allOf: one schema or an array of them.
func (u *upgrader) extends(s map[string]any) {
	ext, ok := s["extends"]
	if !ok {
		return
	}
	delete(s, "extends")
	if a, ok := ext.([]any); ok {
		u.addAllOf(s, a...)
		return
	}
	u.addAllOf(s, ext)
}

// disallow (draft-03) becomes not/anyOf: each entry a type name or a
// schema.
func (u *upgrader) disallow(s map[string]any) {
	dis, ok := s["disallow"]
	if !ok {
		return
	}
	delete(s, "disallow")
	entries, ok := dis.([]any)
	if !ok {
		entries = []any{dis}
	}
	var alts []any
	for _, e := range entries {
		if name, ok := e.(string); ok {
			if name == "any" {
				e = true
			} else {
				e = map[string]any{"type": name}
			}
		}
		alts = append(alts, e)
	}
	u.addAllOf(s, map[string]any{"not": map[string]any{"anyOf": alts}})
}

// requiredFlags moves draft-03's boolean "required" of each property into
// the parent's required list.
func (u *upgrader) requiredFlags(s map[string]any) {
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return
	}
	var names []string
	for name, p := range props {
		ps, ok := p.(map[string]any)
		if !ok {
			continue
		}
		flag, ok := ps["required"].(bool)
		if !ok {
			continue
		}
		delete(ps, "required")
		u.changed = true
		if flag {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	req, _ := s["required"].([]any)
	s["required"] = append(req, toAny(names)...)
}

// id turns a draft-04 id into $id, or $anchor for its fragment.
func (u *upgrader) id(s map[string]any) error {
	id, ok := s["id"].(string)
	if !ok {
		return nil
	}
	delete(s, "id")
	u.changed = true
	base, fragment, _ := strings.Cut(id, "#")
	if base != "" {
		if _, taken := s["$id"]; !taken {
			s["$id"] = base
		}
	}
	if fragment != "" {
		if !anchorName.MatchString(fragment) {
			return fmt.Errorf("%w: id %q names a location, not a plain name", ErrInexpressible, id)
		}
		if _, taken := s["$anchor"]; !taken {
			s["$anchor"] = fragment
		}
	}
	return nil
}

func toAny(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}
