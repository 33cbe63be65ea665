package search

import "regexp"

// Idioms: requests said in words no tool's text uses for them. Each is
// rewritten into what it asks ("store in memory that ..." is "remember
// ..."; "text mom that ..." is "send an sms message to mom that ...")
// before the intent's words are read (see Searcher.plan). The intent as
// written is kept for the vector leg and the exact-name lookup.

// textVerb finds a text message asked for: "text" opening the request
// and followed by whom it goes to ("text mom that I'm late", "text my
// wife", "text +1 415 ..."; not "text extraction from a PDF"), or sent
// ("send her a text", "send a text message to Bob").
var textVerb = regexp.MustCompile(`(?i)^(\W*(?:please\W+)?)text\W+(?:(?:him|her|them|me|us|my|our|your|mom|mum|dad)\b|\+?\d)|` +
	`\bsend(\W+(?:(?:him|her|them|me|us)\W+)?)an?\W+text(?:\W+message)?\b`)

// textNouns are the words that, right after "a text", make it a kind of
// thing ("send a text file to the printer"), not a message.
var textNouns = setOf("file", "files", "document", "documents", "box", "field", "editor", "input", "area",
	"block", "blocks", "content", "format", "string", "version", "copy", "snippet", "blob", "body")

// asTextMessage rewrites a text message asked for (see textVerb) as an
// "sms message": the words the tools that send one use ("Sends SMS
// messages", "Send a message"), where "text" is what most tools that say
// it read, type or edit.
func asTextMessage(intent string) string {
	m := textVerb.FindStringSubmatchIndex(intent)
	if m == nil {
		return intent
	}
	if next := words(intent[m[1]:]); len(next) > 0 && textNouns[next[0]] {
		return intent // "send a text file": a file
	}
	if m[2] >= 0 { // opening the request: "text" and whom it goes to
		return intent[:m[3]] + "send an sms message to" + intent[m[3]+len("text"):]
	}
	send := m[0] + len("send") // as written
	return intent[:send] + intent[m[4]:m[5]] + "an sms message" + intent[m[1]:]
}

// toMemory finds a request to keep something in memory, in any case:
// "store in memory that ...", "save to your memory: ...", "add to
// memories ...". It asks what "remember" does (see asRemember).
var toMemory = regexp.MustCompile(`(?i)^\W*(?:please\W+)?(?:store|save|keep|add|put|commit|write)\W+(?:in|to|into)\W+` +
	`(?:(?:your|my|the|our)\W+)?(?:long\W+term\W+)?memor(?:y|ies)\b(?:\W+that\b)?`)

// asRemember rewrites a request to keep something in memory (see
// toMemory) as "remember" and what follows: "memory" there is what the
// assistant keeps, not the RAM most tools that say it measure, and what
// follows is the content (see contentClause).
func asRemember(intent string) string {
	loc := toMemory.FindStringIndex(intent)
	if loc == nil {
		return intent
	}
	return "remember " + intent[loc[1]:]
}

// fromMemory finds a question to the assistant's memory, in any case:
// "what did I tell you about the project", "do you remember ...",
// "recall what I said about ...". It asks to recall what is kept, and
// what it asks about is what to look up (see asRecall).
var fromMemory = regexp.MustCompile(`(?i)^\W*(?:please\W+)?(?:` +
	`what\W+did\W+i\W+(?:tell\W+you|say|mention)|` +
	`what\W+do\W+you\W+(?:remember|recall)|` +
	`do\W+you\W+(?:remember|recall)|` +
	`recall(?:\W+what\W+i\W+(?:told\W+you|said|mentioned))?` +
	`)(?:\W+about)?\b`)

// whatKnown finds "what do you know about ...", which may ask what is
// kept ("... about Alice") or what is known at large ("... about
// Kubernetes"): it asks to recall, and what it asks about stays the
// topic.
var whatKnown = regexp.MustCompile(`(?i)^\W*(?:please\W+)?what\W+do\W+you\W+know(?:\W+about)?\b`)

// asRecall rewrites a question to the assistant's memory (see
// fromMemory, whatKnown) as "recall" and what it asks about, and reports
// whether it did and, when it is to be looked up rather than searched as
// the topic, what it asks about. ("know" and "tell" are chat filler
// elsewhere: "I want to know the weather"; only the question's shape says
// what is asked.)
func asRecall(intent string) (text string, recall bool, about string) {
	if loc := fromMemory.FindStringIndex(intent); loc != nil {
		return "recall " + intent[loc[1]:], true, intent[loc[1]:]
	}
	if loc := whatKnown.FindStringIndex(intent); loc != nil {
		return "recall " + intent[loc[1]:], true, ""
	}
	return intent, false, ""
}
