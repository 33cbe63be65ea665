package schema

import (
	"regexp/syntax"
	"slices"
	"strings"
)

// maxLiterals bounds the literal set a pattern is prefiltered by: past it,
// checking the literals costs about as much as running the pattern.
const maxLiterals = 40

// requiredLiterals returns strings one of which every match of the pattern
// contains, or nil when no short set of such strings is known. The
// detector checks them with strings.Contains before running the pattern.
func requiredLiterals(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	set, ok := literalsOf(re.Simplify())
	if !ok || len(set) == 0 || len(set) > maxLiterals {
		return nil
	}
	for _, s := range set {
		if len(s) < 2 {
			return nil
		}
	}
	return set
}

// literalsOf computes a set of strings one of which any match of re holds.
func literalsOf(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture:
		return literalsOf(re.Sub[0])
	case syntax.OpPlus:
		return literalsOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literalsOf(re.Sub[0])
		}
		return nil, false
	case syntax.OpConcat:
		var best []string
		for _, sub := range re.Sub {
			set, ok := literalsOf(sub)
			if ok && better(set, best) {
				best = set
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			set, ok := literalsOf(sub)
			if !ok {
				return nil, false
			}
			all = append(all, set...)
			if len(all) > maxLiterals {
				return nil, false
			}
		}
		slices.Sort(all)
		return slices.Compact(all), true
	}
	return nil, false
}

// better prefers the set whose shortest string is longest, then the
// smaller set.
func better(a, b []string) bool {
	if b == nil {
		return len(a) > 0
	}
	if len(a) == 0 || len(a) > maxLiterals {
		return false
	}
	if ma, mb := minLen(a), minLen(b); ma != mb {
		return ma > mb
	}
	return len(a) < len(b)
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

// containsAny reports whether s holds one of the literals.
func containsAny(s string, literals []string) bool {
	for _, l := range literals {
		if strings.Contains(s, l) {
			return true
		}
	}
	return false
}
