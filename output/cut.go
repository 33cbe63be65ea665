package output

import (
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// piece is the run of units [from, to) of section sec shown on one page.
type piece struct {
	sec, from, to int
}

// writeUnits writes units joined by line breaks; a unit that Continues the
// one before it on the same run joins it directly.
func writeUnits(b *strings.Builder, units []Unit) {
	for i, u := range units {
		if i > 0 && !u.Continues {
			b.WriteByte('\n')
		}
		b.WriteString(u.Text)
	}
}

// pieceText renders a run of a section's units under its header.
func pieceText(sec Section, from, to int) string {
	var b strings.Builder
	if sec.Header != "" {
		b.WriteString(sec.Header)
		b.WriteByte('\n')
	}
	writeUnits(&b, sec.Units[from:to])
	return b.String()
}

// wholeText renders every text section in full, joined by line breaks.
func wholeText(secs []Section) string {
	var parts []string
	for _, sec := range secs {
		if sec.Form != FormMedia {
			parts = append(parts, pieceText(sec, 0, len(sec.Units)))
		}
	}
	return strings.Join(parts, "\n")
}

// splitOversized splits every unit that could not fit on a page by itself,
// under its section's header, into chunks of whole runes that can. Only a
// single value longer than a page (a huge string, a line of text) is cut;
// the chunks are units of their own, marked Continues.
func splitOversized(secs []Section, limit int) {
	for i := range secs {
		sec := &secs[i]
		budget := limit
		if sec.Header != "" {
			budget -= utf8.RuneCountInString(sec.Header) + 1
		}
		budget = max(budget, 1)
		var out []Unit
		for j, u := range sec.Units {
			if utf8.RuneCountInString(u.Text) <= budget {
				if out != nil {
					out = append(out, u)
				}
				continue
			}
			if out == nil {
				out = append(make([]Unit, 0, len(sec.Units)+1), sec.Units[:j]...)
			}
			out = append(out, chunk(u, budget)...)
		}
		if out != nil {
			sec.Units = out
		}
	}
}

// chunk cuts a unit into pieces of at most budget runes.
func chunk(u Unit, budget int) []Unit {
	var out []Unit
	text, cont := u.Text, u.Continues
	for text != "" {
		end, n := 0, 0
		for end < len(text) && n < budget {
			_, size := utf8.DecodeRuneInString(text[end:])
			end += size
			n++
		}
		out = append(out, Unit{Text: text[:end], Continues: cont})
		text, cont = text[end:], true
	}
	return out
}

// cutPages fills pages greedily with whole units so that no page's text
// (headers included, footer excluded) exceeds limit code points. A section
// that spans pages starts each page with its header. Media sections are not
// cut: they go on the first page. A result without units is one page.
func cutPages(secs []Section, limit int) [][]piece {
	var pages [][]piece
	var cur []piece
	used := 0
	for si, sec := range secs {
		if sec.Form == FormMedia {
			continue
		}
		head := 0
		if sec.Header != "" {
			head = utf8.RuneCountInString(sec.Header) + 1
		}
		for ui, u := range sec.Units {
			n := utf8.RuneCountInString(u.Text)
			extends := len(cur) > 0 && cur[len(cur)-1].sec == si
			cost := n + head
			switch {
			case extends && u.Continues:
				cost = n
			case extends:
				cost = n + 1
			case len(cur) > 0:
				cost++ // the line break between two sections
			}
			if used+cost > limit && len(cur) > 0 {
				pages = append(pages, cur)
				cur, used, extends, cost = nil, 0, false, n+head
			}
			if extends {
				cur[len(cur)-1].to = ui + 1
			} else {
				cur = append(cur, piece{sec: si, from: ui, to: ui + 1})
			}
			used += cost
		}
	}
	return append(pages, cur)
}

// wholePage is one page holding every unit of every section.
func wholePage(secs []Section) []piece {
	var page []piece
	for si, sec := range secs {
		if sec.Form != FormMedia {
			page = append(page, piece{sec: si, from: 0, to: len(sec.Units)})
		}
	}
	return page
}

// pageText renders the text of page i, its runs joined by line breaks:
// the page's body, before it is framed and given a footer.
func (sh *Shaped) pageText(i int) string {
	var text []string
	for _, p := range sh.pages[i] {
		text = append(text, pieceText(sh.Sections[p.sec], p.from, p.to))
	}
	return strings.Join(text, "\n")
}

// media returns the content that is not text (images, audio, blob
// resources), in the provider's order: the first page serves it after its
// text.
func (sh *Shaped) media() []mcp.Content {
	var out []mcp.Content
	for _, sec := range sh.Sections {
		if sec.Form == FormMedia {
			out = append(out, sec.Content)
		}
	}
	return out
}

// unitsOn returns how many units page i holds.
func (sh *Shaped) unitsOn(i int) int {
	n := 0
	for _, p := range sh.pages[i] {
		n += p.to - p.from
	}
	return n
}
