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
	servers map[string]string // folded server name -> the server's name
	digest  string
}

// NewNeighbours makes the neighbours of server from the tool names of
// every server of the catalog, server's own included (they are left out).
func NewNeighbours(server string, tools map[string][]string) *Neighbours {
	nb := &Neighbours{tools: map[string]string{}, servers: map[string]string{}}
	own := map[string]bool{}
	for _, name := range tools[server] {
		own[FoldName(name)] = true
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
			if f == "" || own[f] {
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

// Digest is a hash of the other servers' names and tool names: a
// server's catalog read with neighbours of another digest may be flagged
// differently, so it is normalized again.
func (nb *Neighbours) Digest() string {
	if nb == nil {
		return ""
	}
	return nb.digest
}

// Len is the number of other servers' tool names known.
func (nb *Neighbours) Len() int {
	if nb == nil {
		return 0
	}
	return len(nb.tools)
}

// toolOf returns the server that lists a tool of the folded name, or "".
func (nb *Neighbours) toolOf(folded string) string {
	if nb == nil {
		return ""
	}
	return nb.tools[strings.ToLower(folded)]
}
