package output

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of [PagerOptions].
const (
	DefaultCursorTTL     = 10 * time.Minute
	DefaultPagerMaxBytes = 64 << 20
)

var (
	// ErrCursorExpired reports a cursor this pager issued to the owner
	// whose page it no longer serves: the cursor outlived its TTL, or its
	// result expired or was evicted to stay under the memory cap. It is
	// answered however old the cursor is, with nothing kept for it.
	ErrCursorExpired = errors.New("cursor expired")
	// ErrCursorUnknown reports a cursor this pager never issued to the
	// owner: forged, mistyped, another owner's or another pager's.
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
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Pager keeps the pages of shaped results behind cursors, so that the next
// page is served without calling the tool again. It is safe for concurrent
// use. It keeps the cursors whose page it can still serve and no others: a
// cursor spells its issue time under a MAC keyed per Pager, which proves
// that a cursor no longer kept was issued, so it answers
// [ErrCursorExpired] with nothing kept for it.
type Pager struct {
	ttl      time.Duration
	maxBytes int64
	now      func() time.Time
	epoch    time.Time // issue times count from here
	key      []byte    // the cursors' MAC key, random per pager: cursors die with it

	mu      sync.Mutex
	entries []*entry                // guarded by mu; live results, oldest first
	cursors map[cursorKey]cursorRec // guarded by mu; cursors of live results within TTL
	order   []cursorKey             // guarded by mu; cursors in issue order, for the TTL sweep
	head    int                     // guarded by mu; order[:head] are already swept
	peak    int                     // guarded by mu; most cursors held since the map was last made
	size    int64                   // guarded by mu; page text bytes of entries
}

// entry is one paged result. Page 0 is never stored: it is served once, by
// First.
type entry struct {
	frame   frame      // the pages are served in it
	pages   []string   // page texts, unframed; pages[0] unused
	shown   []int      // shown[i]: units on pages 0..i
	total   int        // units in all
	next    []cursorID // next[i]: cursor to page i+1, minted when page i is first served
	size    int64
	expires time.Duration // when its last issued cursor expires, since Pager.epoch
	owner   any           // whose cursors they are (nil: anyone's)
}

// cursorRec is what is kept of a live cursor; its random bits are the map
// key.
type cursorRec struct {
	e    *entry
	page int
	at   time.Duration // issued, since Pager.epoch
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
	if o.Now == nil {
		o.Now = time.Now
	}
	key := make([]byte, sha256.Size)
	rand.Read(key) // crypto/rand.Read never fails
	return &Pager{
		ttl:      o.TTL,
		maxBytes: o.MaxBytes,
		now:      o.Now,
		epoch:    o.Now(),
		key:      key,
		cursors:  map[cursorKey]cursorRec{},
	}
}

// First returns the first page of sh: one text content, the page's text
// framed (see [Options.Source] and [Options.Scan]), then the media. When
// more pages exist it keeps them and ends the text with the footer line
// naming the cursor of the next page. An error result comes back whole,
// with IsError set. The result belongs to owner (a client session, or any
// comparable value; nil for none): its cursors serve [Pager.Next] with the
// same owner only.
func (p *Pager) First(owner any, sh *Shaped) *mcp.CallToolResult {
	if sh.IsError || sh.PageCount() == 1 {
		return &mcp.CallToolResult{Content: served(sh.first, "", sh.media()), IsError: sh.IsError}
	}
	e := newEntry(sh)
	e.owner = owner
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now().Sub(p.epoch)
	p.sweep(now)
	p.entries = append(p.entries, e)
	p.size += e.size
	footer := p.footer(e, 0, now)
	p.evict()
	return &mcp.CallToolResult{Content: served(sh.first, footer, sh.media())}
}

// Next returns the page a cursor names, the same page every time until the
// cursor expires. It fails with [ErrCursorExpired] for a cursor this pager
// issued to owner whose page it no longer serves, however old, and with
// [ErrCursorUnknown] for any other: a cursor issued to another owner is
// unknown, as one never issued.
func (p *Pager) Next(owner any, cursor string) (*mcp.CallToolResult, error) {
	id, ok := p.parse(owner, cursor)
	p.mu.Lock()
	now := p.now().Sub(p.epoch)
	p.sweep(now)
	if !ok {
		p.mu.Unlock()
		return nil, fmt.Errorf("paging with cursor %q: %w", shortened(cursor), ErrCursorUnknown)
	}
	rec, ok := p.cursors[id.key()]
	// The MAC says this pager issued the cursor to owner: not kept (or its
	// random bits now another's), its page is gone.
	if !ok || rec.e.next[rec.page-1] != id || now-rec.at > p.ttl {
		p.mu.Unlock()
		return nil, fmt.Errorf("paging with cursor %q: %w", shortened(cursor), ErrCursorExpired)
	}
	var footer string
	if rec.page < len(rec.e.pages)-1 {
		footer = p.footer(rec.e, rec.page, now)
	}
	body := rec.e.pages[rec.page]
	p.mu.Unlock()
	// The detector reads the page now, outside the lock: every session's
	// pages wait on it. It reads the same text the same way every time.
	text, _ := rec.e.frame.page(body)
	return &mcp.CallToolResult{Content: served(text, footer, nil)}, nil
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
		frame: sh.frame,
		pages: make([]string, n),
		shown: make([]int, n),
		next:  make([]cursorID, n),
		total: sh.Units(),
	}
	shown := 0
	for i := range n {
		shown += sh.unitsOn(i)
		e.shown[i] = shown
		if i == 0 {
			continue
		}
		page := sh.pageText(i)
		if len(sh.pages[i]) == 1 {
			// One run of units is a strings.Builder's buffer, up to twice
			// its length: the soak's 16 MiB of pages held 23 MiB of heap.
			page = strings.Clone(page)
		}
		e.pages[i] = page
		e.size += int64(len(page))
	}
	return e
}

// footer returns the truncation line ending page i, minting the cursor of
// page i+1 the first time. p.mu must be held.
func (p *Pager) footer(e *entry, i int, now time.Duration) string {
	id := e.next[i]
	if id == (cursorID{}) {
		id = p.mint(e.owner, now)
		e.next[i] = id
		p.cursors[id.key()] = cursorRec{e: e, page: i + 1, at: now}
		p.order = append(p.order, id.key())
		e.expires = max(e.expires, now+p.ttl)
	}
	return fmt.Sprintf(`[truncated: showing %d of %d; continue with run_capability {"cursor":"%s"}]`,
		e.shown[i], e.total, id)
}

// served is a page as the model reads it: one text content holding the
// framed text and, when another page follows, the footer line; then media.
func served(text, footer string, media []mcp.Content) []mcp.Content {
	if footer != "" {
		text += "\n" + footer
	}
	return append([]mcp.Content{&mcp.TextContent{Text: text}}, media...)
}

// sweep releases results whose cursors have all expired and lets go of
// cursors past the TTL. now counts from p.epoch; p.mu must be held.
func (p *Pager) sweep(now time.Duration) {
	live := p.entries[:0]
	for _, e := range p.entries {
		if now > e.expires {
			p.release(e)
			continue
		}
		live = append(live, e)
	}
	clear(p.entries[len(live):])
	p.entries = live
	for p.head < len(p.order) {
		k := p.order[p.head]
		if rec, ok := p.cursors[k]; ok && now-rec.at <= p.ttl {
			break
		}
		delete(p.cursors, k)
		p.head++
	}
	if p.head > len(p.order)/2 {
		p.order = append(p.order[:0:0], p.order[p.head:]...)
		p.head = 0
	}
	// A Go map keeps the buckets of its largest size: after a burst, copy
	// the few live cursors into a map of their size.
	p.peak = max(p.peak, len(p.cursors))
	if p.peak >= 1024 && len(p.cursors) < p.peak/4 {
		fresh := make(map[cursorKey]cursorRec, len(p.cursors))
		maps.Copy(fresh, p.cursors) // maps.Clone would keep the buckets too
		p.cursors = fresh
		p.peak = len(fresh)
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

// release lets go of e and its cursors: they answer "expired" by their MAC
// alone. p.mu must be held.
func (p *Pager) release(e *entry) {
	p.size -= e.size
	for _, id := range e.next {
		if rec, ok := p.cursors[id.key()]; ok && rec.e == e {
			delete(p.cursors, id.key())
		}
	}
}
