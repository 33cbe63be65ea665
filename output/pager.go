package output

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of [PagerOptions].
const (
	DefaultCursorTTL      = 10 * time.Minute
	DefaultPagerMaxBytes  = 64 << 20
	DefaultCursorRemember = time.Hour
	DefaultMaxCursors     = 20000
)

// cursorPrefix starts every cursor id; the rest is 130 random bits.
const cursorPrefix = "cur_"

var (
	// ErrCursorExpired reports a cursor that was issued but outlived its
	// TTL, or whose result was evicted to stay under the memory cap.
	ErrCursorExpired = errors.New("cursor expired")
	// ErrCursorUnknown reports a cursor this pager never issued (or issued
	// so long ago that it was forgotten).
	ErrCursorUnknown = errors.New("unknown cursor")
)

// PagerOptions configure a [Pager]. A nil *PagerOptions, or a zero field,
// means the default.
type PagerOptions struct {
	// TTL is how long a cursor gives its page after it was issued.
	// Default [DefaultCursorTTL].
	TTL time.Duration
	// MaxBytes caps the page text kept for all results together; the oldest
	// results are evicted first. The newest result is kept even alone over
	// the cap. Default [DefaultPagerMaxBytes].
	MaxBytes int64
	// Remember is how long an issued cursor still answers
	// [ErrCursorExpired] rather than [ErrCursorUnknown]. Default
	// [DefaultCursorRemember]; never less than TTL.
	Remember time.Duration
	// MaxCursors caps the cursors remembered: past it the oldest are
	// forgotten (and answer [ErrCursorUnknown]) before Remember is up, so
	// that a burst of paging cannot grow memory for an hour. Default
	// [DefaultMaxCursors].
	MaxCursors int
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Pager keeps the pages of shaped results behind cursors, so that the next
// page is served without calling the tool again. It is safe for concurrent
// use.
type Pager struct {
	ttl      time.Duration
	remember time.Duration
	maxBytes int64
	maxKept  int // cursors remembered at most
	now      func() time.Time

	mu      sync.Mutex
	entries []*entry              // live results, oldest first
	cursors map[string]*cursorRec // every cursor issued within remember
	issued  []string              // cursor ids, oldest first
	size    int64                 // page text bytes of entries
}

// entry is one paged result. Page 0 is never stored: it is served once, by
// First.
type entry struct {
	pages   []string // page texts; pages[0] unused
	shown   []int    // shown[i]: units on pages 0..i
	total   int      // units in all
	next    []string // next[i]: cursor to page i+1, minted when page i is first served
	size    int64
	expires time.Time // when its last issued cursor expires
	gone    bool      // evicted or expired: pages released
	owner   any       // whose cursors they are (nil: anyone's)
}

type cursorRec struct {
	e      *entry
	page   int
	issued time.Time
}

// NewPager returns a Pager with opts' settings.
func NewPager(opts *PagerOptions) *Pager {
	var o PagerOptions
	if opts != nil {
		o = *opts
	}
	if o.TTL <= 0 {
		o.TTL = DefaultCursorTTL
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultPagerMaxBytes
	}
	if o.Remember <= 0 {
		o.Remember = DefaultCursorRemember
	}
	if o.MaxCursors <= 0 {
		o.MaxCursors = DefaultMaxCursors
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Pager{
		maxKept:  o.MaxCursors,
		ttl:      o.TTL,
		remember: max(o.Remember, o.TTL),
		maxBytes: o.MaxBytes,
		now:      o.Now,
		cursors:  map[string]*cursorRec{},
	}
}

// First returns the first page of sh as text content (pass-through media
// included). When more pages exist it keeps them and ends the page with the
// footer line naming the cursor of the next page. An error result comes
// back whole, with IsError set. The result belongs to owner (a client
// session, or any comparable value; nil for none): its cursors serve
// [Pager.Next] with the same owner only.
func (p *Pager) First(owner any, sh *Shaped) *mcp.CallToolResult {
	first := sh.pageContent(0)
	if sh.IsError || sh.PageCount() == 1 {
		return &mcp.CallToolResult{Content: first, IsError: sh.IsError}
	}
	e := newEntry(sh)
	e.owner = owner
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.sweep(now)
	p.entries = append(p.entries, e)
	p.size += e.size
	footer := p.footer(e, 0, now)
	p.evict()
	return &mcp.CallToolResult{Content: withFooter(first, footer)}
}

// Next returns the page a cursor names, the same page every time until the
// cursor expires. It fails with [ErrCursorExpired] or [ErrCursorUnknown]; a
// cursor of a result that belongs to another owner than owner is unknown,
// as one never issued.
func (p *Pager) Next(owner any, cursor string) (*mcp.CallToolResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.sweep(now)
	rec, ok := p.cursors[cursor]
	if !ok || rec.e.owner != owner {
		return nil, fmt.Errorf("paging with cursor %q: %w", shortened(cursor), ErrCursorUnknown)
	}
	if rec.e.gone || now.Sub(rec.issued) > p.ttl {
		return nil, fmt.Errorf("paging with cursor %q: %w", shortened(cursor), ErrCursorExpired)
	}
	content := []mcp.Content{&mcp.TextContent{Text: rec.e.pages[rec.page]}}
	if rec.page == len(rec.e.pages)-1 {
		return &mcp.CallToolResult{Content: content}, nil
	}
	return &mcp.CallToolResult{Content: withFooter(content, p.footer(rec.e, rec.page, now))}, nil
}

// shortened bounds a cursor quoted in an error: a forged one may be long.
func shortened(cursor string) string {
	const keep = len(cursorPrefix) + 32
	if len(cursor) <= keep {
		return cursor
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(cursor[cut]) {
		cut--
	}
	return cursor[:cut] + "..."
}

func newEntry(sh *Shaped) *entry {
	n := sh.PageCount()
	e := &entry{
		pages: make([]string, n),
		shown: make([]int, n),
		next:  make([]string, n),
		total: sh.Units(),
	}
	shown := 0
	for i := range n {
		shown += sh.unitsOn(i)
		e.shown[i] = shown
		if i == 0 {
			continue
		}
		var texts []string
		for _, c := range sh.pageContent(i) {
			texts = append(texts, c.(*mcp.TextContent).Text)
		}
		page := strings.Join(texts, "\n")
		if len(texts) == 1 {
			// Join returns a lone text as it is, and a text is a
			// strings.Builder's buffer, up to twice its length: the
			// soak's 16 MiB of pages held 23 MiB of heap.
			page = strings.Clone(page)
		}
		e.pages[i] = page
		e.size += int64(len(page))
	}
	return e
}

// footer returns the truncation line ending page i, minting the cursor of
// page i+1 the first time. p.mu must be held.
func (p *Pager) footer(e *entry, i int, now time.Time) string {
	id := e.next[i]
	if id == "" {
		id = cursorPrefix + rand.Text()
		e.next[i] = id
		p.cursors[id] = &cursorRec{e: e, page: i + 1, issued: now}
		p.issued = append(p.issued, id)
		if exp := now.Add(p.ttl); exp.After(e.expires) {
			e.expires = exp
		}
	}
	return fmt.Sprintf(`[truncated: showing %d of %d; continue with run_capability {"cursor":"%s"}]`,
		e.shown[i], e.total, id)
}

// withFooter appends the footer line to the last text content, or as a text
// content of its own after media. The stored content is not modified.
func withFooter(content []mcp.Content, footer string) []mcp.Content {
	out := append([]mcp.Content(nil), content...)
	if n := len(out); n > 0 {
		if t, ok := out[n-1].(*mcp.TextContent); ok {
			out[n-1] = &mcp.TextContent{Text: t.Text + "\n" + footer}
			return out
		}
	}
	return append(out, &mcp.TextContent{Text: footer})
}

// sweep releases results whose cursors have all expired and forgets
// cursors older than remember, and the oldest past maxKept. p.mu must be
// held.
func (p *Pager) sweep(now time.Time) {
	live := p.entries[:0]
	for _, e := range p.entries {
		if now.After(e.expires) {
			p.release(e)
			continue
		}
		live = append(live, e)
	}
	clear(p.entries[len(live):])
	p.entries = live
	for len(p.issued) > 0 {
		id := p.issued[0]
		if now.Sub(p.cursors[id].issued) <= p.remember && len(p.issued) < p.maxKept {
			break
		}
		delete(p.cursors, id)
		p.issued = p.issued[1:]
	}
}

// evict releases the oldest results until the rest fit under maxBytes,
// always keeping the newest. p.mu must be held.
func (p *Pager) evict() {
	for p.size > p.maxBytes && len(p.entries) > 1 {
		p.release(p.entries[0])
		p.entries[0] = nil
		p.entries = p.entries[1:]
	}
}

// release lets go of e's pages. Its cursors, remembered for an hour to
// answer "expired", keep e itself, and only its gone flag is read again.
func (p *Pager) release(e *entry) {
	p.size -= e.size
	e.gone, e.pages, e.shown, e.next = true, nil, nil, nil
}
