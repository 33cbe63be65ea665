package search

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// clauseWeight scales the rarity of a trailing clause's words in the
// description-coverage boost. Tuned on the even halves: 0.25 and 0.75
// leave them as they were, 0.5 loses one MetaTool query; 0.25 gives the
// demo's flagship intent a clear lead.
const clauseWeight = 0.25

// relative reports whether w opens a relative clause ("a customer who
// can't log in"): what follows describes a noun of the intent, it is not
// the action asked for. "that" is left out: it as often opens the
// request's content ("note that I spoke to the client": see
// contentClause).
func relative(w string) bool {
	switch strings.ToLower(w) {
	case "who", "whose", "which":
		return true
	}
	return false
}

// trailingWords returns the query words of intent that appear only after
// its first relative pronoun that follows a query word: the clause
// qualifies the request's head ("open a case for a customer") and weighs
// less in the description-coverage boost (see clauseWeight).
func trailingWords(intent string) map[string]bool {
	start, end := relativeClause(intent)
	if start < 0 {
		return nil
	}
	head := make(map[string]bool)
	for _, w := range queryWords(intent[:start]) {
		head[w] = true
	}
	out := make(map[string]bool)
	for _, w := range queryWords(intent[end:]) {
		if !head[w] {
			out[w] = true
		}
	}
	return out
}

// relativeClause returns the byte span of the first relative pronoun of
// intent preceded by a query word, or -1, -1.
func relativeClause(intent string) (start, end int) {
	start = -1
	for i, r := range intent + " " {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\''
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			if relative(intent[start:i]) && len(queryWords(intent[:start])) > 0 {
				return start, i
			}
			start = -1
		}
	}
	return -1, -1
}

// contentVerbs keep, drop or pass on what follows them: after one, a
// "that" clause is the content to keep, forget or say ("remember that
// Alice works at Acme", "note that the deploy moved", "jot down that Bob
// likes tea", "forget that Bob likes tea"),
// not the topic of the request, as it is after a verb of checking
// ("check that the pods are running").
var contentVerbs = setOf("remember", "memorize", "memorise", "forget", "note", "record", "log", "say", "tell",
	"mention", "jot", "write")

// downVerbs are content verbs only with "down": "write down that ...",
// where "write that report to disk" asks to write.
var downVerbs = setOf("jot", "write")

// contentOpening finds, in any case, the first content verb with the
// "down" and "that" that follow it, if they do.
var contentOpening = regexp.MustCompile(`(?i)\b(?:` + strings.Join(slices.Sorted(maps.Keys(contentVerbs)), "|") +
	`)\b(?:\W+down\b)?(?:\W+that\b)?`)

// keepVerbs ask only to keep (or forget) what follows them, "that" or
// not: all of "remember my favorite color is blue" after the verb is the
// content.
// (After "note", "record" or "log" without "that", what follows may be
// the thing to act on: "log the error", "record the meeting".)
var keepVerbs = setOf("remember", "memorize", "memorise", "forget")

// contentClause returns the verb and the query words of the content
// clause of an intent that opens with a content verb (and "down":
// "jot down", "write down") and "that", or with a keep verb (see
// contentVerbs, keepVerbs); or "" and nil.
func contentClause(intent string) (verb string, content map[string]bool) {
	ws := words(intent)
	if len(ws) > 0 && ws[0] == "please" {
		ws = ws[1:]
	}
	if len(ws) < 2 || !contentVerbs[ws[0]] {
		return "", nil
	}
	verb, next := ws[0], 1
	if ws[next] == "down" {
		next++ // jot down, write down, note down
	} else if downVerbs[verb] {
		return "", nil
	}
	that := next < len(ws) && ws[next] == "that"
	if !that && !keepVerbs[verb] {
		return "", nil
	}
	// The clause is read as written: lower-cased first, "myProject" would
	// be one word, where the intent's words hold "my" and "project". It
	// starts after the verb, its "down" and its "that", as the words above
	// found them.
	loc := contentOpening.FindStringIndex(intent)
	if loc == nil {
		return "", nil
	}
	content = make(map[string]bool)
	for _, w := range queryWords(intent[loc[1]:]) {
		if w != verb {
			content[w] = true
		}
	}
	if len(content) == 0 {
		return "", nil // "remember this": nothing but the request
	}
	if next > 1 {
		content["down"] = true // the verb's particle is no topic either
	}
	return verb, content
}
