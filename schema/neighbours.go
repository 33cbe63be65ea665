package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// Neighbours is what the bridge alone knows when it reads one server's
// tools: the tool and server names of every other server of its catalog.
// A tool's text that names a tool only another server lists, or tells
// how another server must be used, is about that server's tools, not its
// own (shadowing): the detector flags it. Names the server lists itself
// are its own, whoever else lists them too.
type Neighbours struct {
	tools   map[string]string // folded tool name -> a server that lists it
	own     map[string]bool   // the server's own tool names, lower-case, not folded
	servers map[string]string // folded server name -> the server's name
	digest  string
}

// NewNeighbours makes the neighbours of server from the tool names of
// every server of the catalog, server's own included. A name the server
// lists itself is its own even when another lists it too; only its
// exact spelling is (a look-alike it lists, "sеnd_email" with a Cyrillic
// е, does not make another server's send_email its own).
func NewNeighbours(server string, tools map[string][]string) *Neighbours {
	nb := &Neighbours{tools: map[string]string{}, own: map[string]bool{}, servers: map[string]string{}}
	for _, name := range tools[server] {
		nb.own[strings.ToLower(name)] = true
	}
	others := make([]string, 0, len(tools))
	for s := range tools {
		if s != server {
			others = append(others, s)
		}
	}
	slices.Sort(others)
	h := sha256.New()
	for _, s := range others {
		if f := FoldName(s); f != "" && f != FoldName(server) {
			nb.servers[f] = s
		}
		h.Write([]byte(s + "\x00"))
		names := slices.Clone(tools[s])
		slices.Sort(names)
		for _, name := range names {
			h.Write([]byte(name + "\x01"))
			f := FoldName(name)
			if f == "" || nb.own[strings.ToLower(name)] {
				continue
			}
			if _, ok := nb.tools[f]; !ok {
				nb.tools[f] = s
			}
		}
		h.Write([]byte{'\n'})
	}
	nb.digest = hex.EncodeToString(h.Sum(nil))
	return nb
}

// Digest is a hash of the other servers' names and tool names, "" when
// there are none: a server's catalog read with neighbours of another
// digest may be flagged differently, so it is normalized again.
func (nb *Neighbours) Digest() string {
	if nb == nil || len(nb.servers) == 0 {
		return ""
	}
	return nb.digest
}

// toolOf returns the server that lists a tool named as word, or "" when
// none does or the server lists word itself.
func (nb *Neighbours) toolOf(word string) string {
	if nb == nil || nb.own[strings.ToLower(word)] {
		return ""
	}
	return nb.tools[FoldName(word)]
}

// kindNouns name what a server offers; "the github server", "the slack
// integration" name a server through them.
var kindNouns = []string{"server", "servers", "integration", "integrations", "connector", "connectors", "tool", "tools", "plugin", "plugins", "app", "apps", "mcp"}

// neighbours flags each sentence of the texts the detector read that names
// a tool only another server lists, or names another server (followed by
// what it is: "the github server", "the slack integration") in a sentence
// that says how it is to be used.
func (sc *toolScan) neighbours(nb *Neighbours) {
	if nb == nil || (len(nb.tools) == 0 && len(nb.servers) == 0) {
		return
	}
	for i, text := range sc.read {
		for _, seg := range splitSegments(text) {
			sentence := text[seg.start:seg.end]
			if nb.namesTool(sentence) || nb.namesServer(sentence) {
				sc.found = append(sc.found, finding{rule: RuleShadowing, field: sc.fields[i], text: sentence})
			}
		}
	}
}

// namesTool reports a sentence holding the name of a tool only another
// server lists: a word of letters, digits and separators that holds a
// separator or a capital after a small letter, as tool names do ("send_email",
// "createEvent"), so that plain words ("search") never count.
func (nb *Neighbours) namesTool(sentence string) bool {
	if len(nb.tools) == 0 {
		return false
	}
	start := -1
	for i := 0; i <= len(sentence); i++ {
		if i < len(sentence) && isNameByte(sentence[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			word := strings.Trim(sentence[start:i], ".:-")
			start = -1
			if len(word) >= 4 && nameLike(word) && nb.toolOf(word) != "" {
				return true
			}
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return isASCIILetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == ':' || c >= 0x80
}

// nameLike reports a word written as an identifier, not as prose: it
// holds a separator ("send_email", "send-email", "mail.send") or a capital
// after a small letter ("sendEmail"). Prose hyphenation ("read-only")
// counts only when a neighbour lists a tool of that name.
func nameLike(w string) bool {
	if strings.ContainsAny(w, "_.:-") {
		return true
	}
	for i := 1; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// useCues are words that tell how something is to be used.
var useCues = []string{"must", "should", "always", "never", "only", "instead", " is to ", " are to ", "default", "route", "routed", "copied", "copy", "mirror", "forward", "redirect", "prefer", "avoid", "don't", "do not", "needs", "need ", "with the", "set to", "called with", "include"}

// namesServer reports a sentence that names another server followed by
// what it is ("the github server's create_pull_request") and tells how it
// is to be used.
func (nb *Neighbours) namesServer(sentence string) bool {
	if len(nb.servers) == 0 {
		return false
	}
	l := strings.ToLower(sentence)
	cue := false
	for _, c := range useCues {
		if strings.Contains(l, c) {
			cue = true
			break
		}
	}
	if !cue {
		return false
	}
	words := strings.FieldsFunc(l, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	})
	for i := 0; i+1 < len(words); i++ {
		w := strings.TrimSuffix(strings.Trim(words[i], ".-"), "'s")
		next := strings.TrimSuffix(words[i+1], "'s")
		if _, ok := nb.servers[w]; ok && len(w) >= 3 && slices.Contains(kindNouns, next) {
			return true
		}
	}
	return false
}
