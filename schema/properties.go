package schema

import (
	"slices"
	"strings"
)

// property is one top-level input of a tool's schema.
type property struct {
	name     string
	schema   *node
	required bool
}

// shape is what a card can read from the top of an input schema.
type shape struct {
	props        []property // in schema order: properties, then allOf, then anyOf/oneOf branches
	alternatives int        // anyOf/oneOf branches whose required inputs depend on the branch chosen
}

// readShape collects the top-level properties of an input schema: those of
// the root (after local $ref), of its allOf members, and of its anyOf/oneOf
// branches. Properties found only in a branch are optional on the card; a
// branch that requires inputs makes the shape depend on the alternative.
func readShape(root *node) shape {
	var s shape
	seen := map[string]int{}
	add := func(obj *node) {
		props := obj.get("properties")
		if props == nil || props.kind != kindObject {
			return
		}
		for i, name := range props.keys {
			if _, ok := seen[name]; ok {
				continue
			}
			seen[name] = len(s.props)
			s.props = append(s.props, property{name: name, schema: props.vals[i]})
		}
	}
	markRequired := func(obj *node) {
		for _, name := range stringList(obj.get("required")) {
			if i, ok := seen[name]; ok {
				s.props[i].required = true
			}
		}
	}
	top := resolve(root, root)
	if top == nil || top.kind != kindObject {
		return s
	}
	members := []*node{top}
	for _, m := range arrayItems(top.get("allOf")) {
		if m = resolve(root, m); m != nil && m.kind == kindObject {
			members = append(members, m)
		}
	}
	for _, m := range members {
		add(m)
	}
	for _, m := range members {
		markRequired(m)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, branch := range arrayItems(top.get(key)) {
			branch = resolve(root, branch)
			if branch == nil || branch.kind != kindObject {
				continue
			}
			add(branch)
			if len(stringList(branch.get("required"))) > 0 {
				s.alternatives++
			}
		}
	}
	return s
}

// names returns the property names in schema order.
func (s shape) names() []string {
	names := make([]string, len(s.props))
	for i, p := range s.props {
		names[i] = p.name
	}
	return names
}

// ordered returns the properties required first, then optional, each group
// in schema order.
func (s shape) ordered() []property {
	out := slices.Clone(s.props)
	slices.SortStableFunc(out, func(a, b property) int {
		switch {
		case a.required == b.required:
			return 0
		case a.required:
			return -1
		}
		return 1
	})
	return out
}

func arrayItems(n *node) []*node {
	if n == nil || n.kind != kindArray {
		return nil
	}
	return n.vals
}

func stringList(n *node) []string {
	var out []string
	for _, v := range arrayItems(n) {
		if v.kind == kindString {
			out = append(out, v.text)
		}
	}
	return out
}

// jsonTypes are the type names a card may show.
var jsonTypes = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

// typeName describes the type of a schema in a few characters: "string",
// "integer|string", "string[]", "object", or "any" when unknown.
func typeName(root, n *node, depth int) string {
	n = resolve(root, n)
	if n == nil || n.kind != kindObject || depth > 3 {
		return "any"
	}
	var names []string
	switch t := n.get("type"); {
	case t != nil && t.kind == kindString:
		names = []string{t.text}
	case t != nil && t.kind == kindArray:
		names = stringList(t)
	case n.get("enum") != nil:
		for _, v := range arrayItems(n.get("enum")) {
			names = append(names, valueType(v))
		}
	case n.get("const") != nil:
		names = []string{valueType(n.get("const"))}
	case n.get("anyOf") != nil || n.get("oneOf") != nil:
		branches := append(arrayItems(n.get("anyOf")), arrayItems(n.get("oneOf"))...)
		for _, b := range branches {
			name := typeName(root, b, depth+1)
			if name == "any" {
				return "any"
			}
			names = append(names, strings.Split(name, "|")...)
		}
	case n.get("allOf") != nil:
		for _, m := range arrayItems(n.get("allOf")) {
			if name := typeName(root, m, depth+1); name != "any" {
				return name
			}
		}
	case n.get("properties") != nil:
		names = []string{"object"}
	case n.get("items") != nil:
		names = []string{"array"}
	}
	var known []string
	for _, name := range names {
		if slices.Contains(jsonTypes, name) && !slices.Contains(known, name) {
			known = append(known, name)
		}
	}
	if len(known) == 0 {
		return "any"
	}
	if len(known) == 1 && known[0] == "array" {
		item := typeName(root, n.get("items"), depth+1)
		if item != "any" && !strings.Contains(item, "|") && !strings.HasSuffix(item, "[]") {
			return item + "[]"
		}
	}
	return strings.Join(known, "|")
}

func valueType(v *node) string {
	switch v.kind {
	case kindString:
		return "string"
	case kindNumber:
		if strings.ContainsAny(v.text, ".eE") {
			return "number"
		}
		return "integer"
	case kindBool:
		return "boolean"
	case kindArray:
		return "array"
	case kindObject:
		return "object"
	}
	return "null"
}

// nestedRequired lists the required fields inside a property's value (an
// object, or the objects of an array) that a card cannot show.
func nestedRequired(root, n *node) []string {
	n = resolve(root, n)
	if n == nil || n.kind != kindObject {
		return nil
	}
	if required := stringList(n.get("required")); len(required) > 0 {
		return required
	}
	if items := resolve(root, n.get("items")); items != nil && items != n {
		if required := stringList(items.get("required")); len(required) > 0 {
			return required
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		for _, b := range arrayItems(n.get(key)) {
			if b = resolve(root, b); b != nil && len(stringList(b.get("required"))) > 0 {
				return stringList(b.get("required"))
			}
		}
	}
	return nil
}
