package schema

import (
	"net/url"
	"strconv"
	"strings"
)

// maxRefHops bounds how many $ref links one lookup follows, so that a $ref
// cycle ends instead of recursing forever.
const maxRefHops = 16

// resolve follows local $ref links ("#" and "#/json/pointer") from n within
// root. It returns nil when a link is remote, unknown, or part of a cycle
// longer than maxRefHops.
func resolve(root, n *node) *node {
	for range maxRefHops {
		ref := n.get("$ref")
		if ref == nil || ref.kind != kindString {
			return n
		}
		target := lookupPointer(root, ref.text)
		if target == nil {
			return nil
		}
		n = target
	}
	return nil
}

// lookupPointer finds the node a local reference ("#", "#/a/b") names.
func lookupPointer(root *node, ref string) *node {
	fragment, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	if unescaped, err := url.PathUnescape(fragment); err == nil {
		fragment = unescaped
	}
	if fragment == "" {
		return root
	}
	if !strings.HasPrefix(fragment, "/") {
		return nil // a named $anchor: not followed
	}
	n := root
	for token := range strings.SplitSeq(fragment[1:], "/") {
		token = unescapePointer(token)
		switch n.kind {
		case kindObject:
			n = n.get(token)
		case kindArray:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(n.vals) {
				return nil
			}
			n = n.vals[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// depth returns the container nesting depth of n: 0 for a scalar, 1 for an
// object or array of scalars.
func (n *node) depth() int {
	if n == nil || (n.kind != kindObject && n.kind != kindArray) {
		return 0
	}
	deepest := 0
	for _, v := range n.vals {
		deepest = max(deepest, v.depth())
	}
	return deepest + 1
}
