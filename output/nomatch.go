package output

import (
	"fmt"
	"slices"
	"strings"
)

// maxListedFields bounds the field paths a no-match note lists.
const maxListedFields = 40

// maskMatches reports whether the mask names at least one field of v (as
// project would apply it, wrapped lists included). Without a mask, or
// for a value with no fields at all (an empty list), it is true: there
// is nothing the mask could have named.
func (s *settings) maskMatches(v any) bool {
	if s.mask == nil || !hasFields(v) {
		return true
	}
	root := s.mask
	if obj, ok := v.(object); ok {
		if p, ok := wrappedList(obj); ok {
			root = root.reroot(obj, p)
		}
	}
	return root.matches(v)
}

// matches reports whether n names a field that v has, its whole path
// (user.login needs a user holding a login).
func (n *maskNode) matches(v any) bool {
	if n.all {
		return true
	}
	switch v := v.(type) {
	case object:
		for _, m := range v {
			if child := n.children[m.key]; child != nil && child.matches(m.val) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, n.matches)
	}
	return false
}

// hasFields reports whether v holds an object with at least one key.
func hasFields(v any) bool {
	switch v := v.(type) {
	case object:
		return len(v) > 0
	case []any:
		return slices.ContainsFunc(v, hasFields)
	}
	return false
}

// noMatchNote says that the mask named no field of v, and lists the
// field paths v has (dot paths, [] for arrays), at most maxListedFields of
// them, so the model can ask again with fields that exist.
func noMatchNote(fields []string, v any) string {
	var paths []string
	seen := make(map[string]bool)
	var walk func(v any, prefix string, depth int)
	walk = func(v any, prefix string, depth int) {
		switch v := v.(type) {
		case object:
			for _, m := range v {
				p := m.key
				if prefix != "" {
					p = prefix + "." + m.key
				}
				if !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
				if depth < 3 {
					walk(m.val, p, depth+1)
				}
			}
		case []any:
			for _, e := range v {
				walk(e, prefix+"[]", depth)
			}
		}
	}
	walk(v, "", 0)
	more := ""
	if len(paths) > maxListedFields {
		more = fmt.Sprintf(" (and %d more)", len(paths)-maxListedFields)
		paths = paths[:maxListedFields]
	}
	return fmt.Sprintf("no field matched fields %q; fields that exist: %s%s", fields, strings.Join(paths, ", "), more)
}
