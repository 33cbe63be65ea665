package output

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Form names how a [Section] renders its content.
type Form string

const (
	FormTable Form = "table" // Markdown table: header row repeated on every page, one record a unit
	FormLines Form = "lines" // "key: value" lines, one key a unit
	FormJSON  Form = "json"  // compact JSON, one list element (or the whole value) a unit
	FormText  Form = "text"  // text that is not JSON, as sent, one line a unit
	FormMedia Form = "media" // image, audio or resource content, passed through on the first page
)

// Unit is one logical unit of shaped text: a table row, a line, or a JSON
// record. Pages are cut between units, never inside one, with one exception:
// a unit that could not fit on a page by itself is split at rune boundaries
// into chunks, and every chunk after the first has Continues set: it joins
// the unit before it without a line break.
type Unit struct {
	Text      string
	Continues bool
}

// Section is one part of a shaped result, in the provider's order: shaped
// JSON, text passed through line by line, or one piece of media.
type Section struct {
	Form Form
	// Header precedes the section's units on every page that shows any of
	// them: a table's header and delimiter rows, or the title line of a
	// wrapped list. It may hold more than one line.
	Header string
	Units  []Unit
	// Content is the pass-through content of a FormMedia section.
	Content mcp.Content
}

// Shaped is a tool result after projection and compaction, ready to be
// paged by a [Pager]. Figures are measured on text the model reads: "in" is
// what the provider sent (text contents, plus structuredContent as compact
// JSON unless a text content carries the same data; media excluded), "out"
// the whole shaped text without page headers or footers. Tokens are
// estimates (see [EstimateTokens]).
type Shaped struct {
	Sections []Section
	// IsError marks a failed call: its content passed through unprojected
	// and unpaged.
	IsError   bool
	MaxTokens int

	BytesIn, BytesOut   int
	TokensIn, TokensOut int
	// Redactions counts the secrets replaced by [Redacted] ([Options.Secrets]).
	Redactions int
	// Flagged lists the rules of the passages the poisoning detector
	// flagged on the first page, the answer of the call, one per passage
	// ([Options.Scan]). A later page is read when it is served, and
	// warned about in the same way.
	Flagged []string

	pages [][]piece // cut at creation; see cutPages
	frame frame     // every page is served in it
	first string    // the first page's text as served, framed, footer aside
}

// ErrNilResult is returned by [Shape] for a nil result.
var ErrNilResult = errors.New("nil tool result")

// Shape projects and compacts a tool result and cuts it into pages under the
// token ceiling. JSON comes from structuredContent and from text content
// that parses as a JSON object or array; when a text content carries the
// same data as structuredContent, it is used once, in the text's key order.
// Other text, images, audio and resources pass through untouched, in order.
// JSON that a field mask names nothing of becomes a note that says so and
// lists the fields it has (a page of {} would tell the model nothing).
// A result with IsError set passes through whole: no projection, no paging.
func Shape(res *mcp.CallToolResult, opts *Options) (*Shaped, error) {
	if res == nil {
		return nil, fmt.Errorf("shaping: %w", ErrNilResult)
	}
	s, err := resolve(opts)
	if err != nil {
		return nil, fmt.Errorf("shaping: %w", err)
	}
	red := newRedactor(s.secrets)
	sources, err := readSources(res, red)
	if err != nil {
		return nil, fmt.Errorf("shaping: %w", err)
	}
	s.frame.isError = res.IsError
	sh := &Shaped{IsError: res.IsError, MaxTokens: s.maxTokens, Redactions: red.count, frame: s.frame}
	var in []string
	for _, src := range sources {
		switch {
		case isResource(src.content):
			sh.Sections = append(sh.Sections, resourceSection(src.content))
		case src.content != nil && !isText(src.content):
			sh.Sections = append(sh.Sections, Section{Form: FormMedia, Content: src.content})
			continue
		case res.IsError && src.content == nil:
			sh.Sections = append(sh.Sections, compactSection(src.value))
		case res.IsError:
			sh.Sections = append(sh.Sections, Section{Form: FormText, Units: []Unit{{Text: src.text}}})
		case src.isJSON && !s.maskMatches(src.value):
			sh.Sections = append(sh.Sections, textSection(noMatchNote(s.fields, src.value)))
		case src.isJSON:
			sh.Sections = append(sh.Sections, renderJSON(s.project(src.value), s.limit())...)
		default:
			sh.Sections = append(sh.Sections, textSection(src.text))
		}
		in = append(in, src.text)
	}
	inText := strings.Join(in, "\n")
	sh.BytesIn, sh.TokensIn = len(inText), EstimateTokens(inText)
	guardSections(sh.Sections)
	out := wholeText(sh.Sections)
	sh.BytesOut, sh.TokensOut = len(out), EstimateTokens(out)
	switch {
	case res.IsError, utf8.RuneCountInString(out) <= s.limit():
		// An error is served whole; a small result, as most are, is one
		// page with nothing to split or cut.
		sh.pages = [][]piece{wholePage(sh.Sections)}
	default:
		splitOversized(sh.Sections, s.limit())
		sh.pages = cutPages(sh.Sections, s.limit())
	}
	sh.first, sh.Flagged = sh.frame.page(sh.pageText(0))
	return sh, nil
}

// Units returns the number of units across all sections: the M of a page
// footer.
func (sh *Shaped) Units() int {
	n := 0
	for _, sec := range sh.Sections {
		n += len(sec.Units)
	}
	return n
}

// PageCount returns how many pages the result was cut into (at least one).
func (sh *Shaped) PageCount() int { return len(sh.pages) }

func isText(c mcp.Content) bool {
	_, ok := c.(*mcp.TextContent)
	return ok
}

// textSection passes text through untouched, one line a unit, so that its
// units joined by line breaks are the text again.
func textSection(text string) Section {
	lines := strings.Split(text, "\n")
	units := make([]Unit, len(lines))
	for i, l := range lines {
		units[i] = Unit{Text: l}
	}
	return Section{Form: FormText, Units: units}
}
