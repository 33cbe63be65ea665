package search

// readOnlyRank multiplies the fused score of a tool that only reads
// (read_graph, search_nodes, open_nodes) when the intent asks to keep
// what it says ("remember that Alice works at Acme as a designer"): the
// memory server's tools share every word of such a request, and the one
// that keeps it is what was asked for. It ranks below the siblings that
// write, and stays findable.
const readOnlyRank = 0.5

// keepWords are the content verbs that ask to keep, and the first name
// words of tools that only read (words/keep.txt).
var keepWords = wordSections("keep.txt")

// readsWhenKept reports whether a tool with name words nameWords reads
// (one of them is a verb of reading) while the intent asks to keep what
// it says, its content verb being verb (see contentClause).
func readsWhenKept(nameWords []string, verb string) bool {
	if !keepWords["verbs"][verb] {
		return false
	}
	for _, w := range nameWords {
		if keepWords["reading"][w] {
			return true
		}
	}
	return false
}
