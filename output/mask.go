package output

import "strings"

// maskNode is one level of a field mask. A node with all set keeps the whole
// value; otherwise only the children it names (and the Keep keys).
type maskNode struct {
	all      bool
	children map[string]*maskNode
}

// parseMask builds a mask tree from dot paths; it returns nil when no path
// names anything. "[]" is implied through arrays, so "items[].id",
// "items.[].id" and "items.id" are the same path.
func parseMask(fields []string) *maskNode {
	var root *maskNode
	for _, f := range fields {
		var path []string
		for _, seg := range strings.Split(f, ".") {
			seg = strings.TrimSpace(seg)
			for strings.HasSuffix(seg, "[]") {
				seg = strings.TrimSuffix(seg, "[]")
			}
			if seg != "" {
				path = append(path, seg)
			}
		}
		if len(path) == 0 {
			continue
		}
		if root == nil {
			root = &maskNode{}
		}
		root.add(path)
	}
	return root
}

func (n *maskNode) add(path []string) {
	if n.all {
		return
	}
	if len(path) == 0 {
		n.all, n.children = true, nil
		return
	}
	if n.children == nil {
		n.children = map[string]*maskNode{}
	}
	child := n.children[path[0]]
	if child == nil {
		child = &maskNode{}
		n.children[path[0]] = child
	}
	child.add(path[1:])
}

// merge adds every path of other under n.
func (n *maskNode) merge(other *maskNode) {
	if n.all {
		return
	}
	if other.all {
		n.all, n.children = true, nil
		return
	}
	for key, oc := range other.children {
		if n.children == nil {
			n.children = map[string]*maskNode{}
		}
		child := n.children[key]
		if child == nil {
			child = &maskNode{}
			n.children[key] = child
		}
		child.merge(oc)
	}
}

// reroot returns the mask for a wrapper object whose records sit at path
// (see [wrappedList]): a mask path whose first segment names no key of the
// wrapper applies to the records, so fields ["number"] reach
// {"items":[{"number":1}]}.
func (n *maskNode) reroot(wrapper object, path []string) *maskNode {
	if n.all {
		return n
	}
	out := &maskNode{children: map[string]*maskNode{}}
	relative := &maskNode{children: map[string]*maskNode{}}
	for key, child := range n.children {
		if _, ok := wrapper.get(key); ok {
			out.children[key] = child
		} else {
			relative.children[key] = child
		}
	}
	if len(relative.children) == 0 {
		return n
	}
	for i := len(path) - 1; i >= 0; i-- {
		relative = &maskNode{children: map[string]*maskNode{path[i]: relative}}
	}
	out.merge(relative)
	return out
}

// project applies the mask, or strips internal keys when there is none.
func (s *settings) project(v any) any {
	if s.mask == nil {
		if s.noStrip {
			return v
		}
		return s.stripValue(v)
	}
	root, path := s.mask, []string(nil)
	if obj, ok := v.(object); ok {
		if p, ok := wrappedList(obj); ok {
			root, path = root.reroot(obj, p), p
		}
	}
	return s.applyMask(v, root, true, path)
}

// applyMask keeps what n names. Keep keys survive only where keep is set:
// in the top-level value, along the path to a wrapped list, and in that
// list's records; not in other nested values, so "user.login" gives
// {"login":...} alone. toList is what remains of the path to the wrapped
// list.
func (s *settings) applyMask(v any, n *maskNode, keep bool, toList []string) any {
	if n.all {
		return v
	}
	switch v := v.(type) {
	case object:
		out := object{}
		for _, m := range v {
			if child := n.children[m.key]; child != nil {
				onPath := len(toList) > 0 && m.key == toList[0]
				var rest []string
				if onPath {
					rest = toList[1:]
				}
				out = append(out, member{key: m.key, val: s.applyMask(m.val, child, onPath, rest)})
			} else if keep && s.keep[m.key] {
				out = append(out, m)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = s.applyMask(e, n, keep, nil)
		}
		return out
	}
	return v // a scalar has no fields to select
}

func (s *settings) stripValue(v any) any {
	switch v := v.(type) {
	case object:
		out := object{}
		for _, m := range v {
			if !s.keep[m.key] && s.isInternal(m) {
				continue
			}
			out = append(out, member{key: m.key, val: s.stripValue(m.val)})
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = s.stripValue(e)
		}
		return out
	}
	return v
}

func (s *settings) isInternal(m member) bool {
	if s.strip[m.key] {
		return true
	}
	if _, isArray := m.val.([]any); !isArray {
		return false
	}
	for _, tail := range s.stripTail {
		if strings.HasSuffix(m.key, tail) {
			return true
		}
	}
	return false
}
