package search

import (
	"regexp"
	"slices"
	"strings"
)

// deprecatedRank multiplies the fused score and the confidence of a tool
// whose description says it is deprecated (see deprecated): it ranks
// below its replacement and below tools that match as well, stays
// findable by name, and is a close match only when the intent all but
// names it.
const deprecatedRank = 0.5

// The sentences of a description that retire its tool: one that opens
// with "Deprecated", one that says the tool (or its server) is or has
// been deprecated, and one that says only to use another tool instead
// ("Use read_text_file instead."). A conditional redirection ("use
// search_pull_requests instead when the user names an author", "use VMSS
// create instead" inside a sentence about scale sets) does not retire
// the tool: the instead-sentence must be the whole sentence, naming one
// identifier.
var (
	deprecatedOpening = regexp.MustCompile(`(?i)^deprecated\b`)
	deprecatedState   = regexp.MustCompile(`(?i)\b(?:is|are|has been|have been|was|now)\s+(?:now\s+)?deprecated\b`)
	useInstead        = regexp.MustCompile("(?i)^use\\s+[`'\"]?[A-Za-z0-9_.:/-]*[_.:/-][A-Za-z0-9_.:/-]*[`'\"]?\\s+instead$")
)

// retirement is what a tool's description retires (see retired).
type retirement int

const (
	notRetired    retirement = iota
	toolRetired              // the tool: "DEPRECATED: Use read_text_file instead"
	serverRetired            // its whole server: "This MCP server is deprecated"
)

// retired reads whether a tool's description (the text indexed for it,
// see Document) says the tool is deprecated, and whether the sentence
// that says so is about its server: a server's own deprecation is
// written into each of its tools, and ranks them all alike. It reads the
// description, never the name.
func retired(desc string) retirement {
	if !mentions(desc, "deprecated", "Deprecated", "DEPRECATED") && !mentions(desc, "instead", "Instead", "INSTEAD") {
		return notRetired
	}
	found := notRetired
	for _, sent := range sentences(desc) {
		// Each pattern needs a word the sentence must hold: test that
		// first, so most sentences never reach a regular expression
		// (this runs on every ranked candidate of every search).
		l := strings.ToLower(sent)
		if strings.Contains(l, "deprecated") && (deprecatedOpening.MatchString(sent) || deprecatedState.MatchString(sent)) {
			if !strings.Contains(l, "server") {
				return toolRetired
			}
			found = serverRetired
		}
		if strings.HasPrefix(l, "use") && strings.HasSuffix(l, "instead") && useInstead.MatchString(sent) {
			return toolRetired
		}
	}
	return found
}

// demoted reports whether a tool with description desc ranks, and counts
// in confidence, as deprecated (deprecatedRank) for an intent that names
// its server or not: a retired tool always; a tool of a retired server
// unless the intent names the server. The user has then chosen it, and
// its tools are all retired alike ("rerun the failed circleci job" is
// for CircleCI's tools, whatever GitHub offers).
func demoted(desc string, namesItsServer bool) bool {
	switch retired(desc) {
	case toolRetired:
		return true
	case serverRetired:
		return !namesItsServer
	}
	return false
}

// mentions reports whether text holds one of forms, a word as
// descriptions write it (lower-case, capitalized, in capitals). Cheaper
// than lowering a copy of each ranked candidate's description, which
// most of the time holds none.
func mentions(text string, forms ...string) bool {
	return slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(text, f) })
}

// sentences splits text at sentence ends (! ? ; : a line break, or a
// period before a space or the end: not the dots of an identifier),
// trimming spaces and quotes around each.
func sentences(text string) []string {
	var out []string
	start := 0
	add := func(end int) {
		if sent := strings.Trim(text[start:end], " \t\r\n.*"); sent != "" {
			out = append(out, sent)
		}
	}
	for i, r := range text {
		end := strings.ContainsRune("!?;:\n", r) ||
			(r == '.' && (i+1 == len(text) || strings.ContainsRune(" \t\r\n", rune(text[i+1]))))
		if end {
			add(i)
			start = i + 1
		}
	}
	add(len(text))
	return out
}
