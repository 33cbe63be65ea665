package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/schema"
)

// lookAlikeWarnings names the servers whose names a reader may take for
// one another (the same [schema.NameSkeleton]: "gmaiI" with a capital I
// beside "gmail"): a server added under such a name can pose as the one
// the user trusts, and its cards read as that server's. One warning a
// group, saying where the names differ.
func lookAlikeWarnings(names []string) []string {
	groups := map[string][]string{}
	var order []string
	for _, name := range names {
		sk := schema.NameSkeleton(name)
		if _, ok := groups[sk]; !ok {
			order = append(order, sk)
		}
		groups[sk] = append(groups[sk], name)
	}
	var out []string
	for _, sk := range order {
		g := groups[sk]
		if len(g) < 2 {
			continue
		}
		slices.Sort(g)
		quoted := make([]string, len(g))
		for i, name := range g {
			quoted[i] = fmt.Sprintf("%+q", name)
		}
		out = append(out, fmt.Sprintf("servers %s have names that look alike%s: one may pose as another; keep only entries you added yourself",
			strings.Join(quoted, " and "), firstDifference(g[0], g[1])))
	}
	return out
}

// firstDifference says where two names first differ, character by
// character with code points, as ` (character 5: "I" U+0049 / "l" U+006C)`;
// "" when they differ only in length.
func firstDifference(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	for i := range min(len(ra), len(rb)) {
		if ra[i] != rb[i] {
			return fmt.Sprintf(" (character %d: %+q U+%04X / %+q U+%04X)", i+1, ra[i], ra[i], rb[i], rb[i])
		}
	}
	return ""
}
