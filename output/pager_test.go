package output

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// pagedResult shapes n issue records under a small ceiling, so that they
// need several pages.
func pagedResult(t *testing.T, n int) *Shaped {
	t.Helper()
	sh, err := Shape(jsonResult(t, issueRecords(n)), &Options{MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	if sh.PageCount() < 3 {
		t.Fatalf("%d records make %d pages, want at least 3", n, sh.PageCount())
	}
	return sh
}

// pageText returns the text of a one-content page and the cursor its
// footer names, if any.
func pageText(t *testing.T, res *mcp.CallToolResult) (text, cursor string) {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("page has %d contents, want 1", len(res.Content))
	}
	text = res.Content[0].(*mcp.TextContent).Text
	if m := footerPattern.FindStringSubmatch(text); m != nil {
		cursor = m[3]
	}
	return text, cursor
}

// footerCursor returns the cursor the last content's footer names, or "".
func footerCursor(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	text, ok := res.Content[len(res.Content)-1].(*mcp.TextContent)
	if !ok {
		return ""
	}
	if m := footerPattern.FindStringSubmatch(text.Text); m != nil {
		return m[3]
	}
	return ""
}

func TestNextGivesTheSamePageEveryTime(t *testing.T) {
	p := NewPager(nil)
	_, c1 := pageText(t, p.First(nil, pagedResult(t, 20)))
	if c1 == "" {
		t.Fatal("first page has no cursor")
	}
	var texts []string
	for range 3 {
		res, err := p.Next(nil, c1)
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		text, _ := pageText(t, res)
		texts = append(texts, text)
	}
	if texts[0] != texts[1] || texts[1] != texts[2] {
		t.Errorf("one cursor gave different pages:\n%s\n---\n%s", texts[0], texts[1])
	}
}

func TestCursorLifetime(t *testing.T) {
	const ttl = 10 * time.Minute
	tests := []struct {
		name   string
		cursor func(issued string) string
		wait   time.Duration
		want   error
	}{
		{"fresh", func(c string) string { return c }, 0, nil},
		{"just before the TTL", func(c string) string { return c }, ttl - time.Second, nil},
		{"after the TTL", func(c string) string { return c }, ttl + time.Second, ErrCursorExpired},
		{"a day after", func(c string) string { return c }, 24 * time.Hour, ErrCursorExpired},
		{"forged", func(string) string { return "cur_" + strings.Repeat("A", 28) }, 0, ErrCursorUnknown},
		{"forged, expired", func(string) string { return "cur_" + strings.Repeat("A", 28) }, ttl + time.Second, ErrCursorUnknown},
		{"tampered", tamper, 0, ErrCursorUnknown},
		{"empty", func(string) string { return "" }, 0, ErrCursorUnknown},
		{"action id", func(string) string { return "act_" + strings.Repeat("A", 26) }, 0, ErrCursorUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			p := NewPager(&PagerOptions{TTL: ttl, Now: clock.Now})
			_, issued := pageText(t, p.First(nil, pagedResult(t, 20)))
			cursor := tt.cursor(issued)
			clock.Advance(tt.wait)
			_, err := p.Next(nil, cursor)
			if !errors.Is(err, tt.want) {
				t.Errorf("Next after %v: error %v, want %v", tt.wait, err, tt.want)
			}
		})
	}
}

// tamper changes the last character of a cursor.
func tamper(c string) string {
	last := "A"
	if strings.HasSuffix(c, last) {
		last = "B"
	}
	return c[:len(c)-1] + last
}

func TestCursorTTLCountsFromItsIssue(t *testing.T) {
	clock := newFakeClock()
	p := NewPager(&PagerOptions{TTL: 10 * time.Minute, Now: clock.Now})
	_, c1 := pageText(t, p.First(nil, pagedResult(t, 20)))
	clock.Advance(9 * time.Minute)
	res, err := p.Next(nil, c1)
	if err != nil {
		t.Fatalf("Next(c1) at 9 min: %v", err)
	}
	_, c2 := pageText(t, res)
	clock.Advance(6 * time.Minute) // c1 is 15 minutes old, c2 6
	if _, err := p.Next(nil, c1); !errors.Is(err, ErrCursorExpired) {
		t.Errorf("Next(c1) at 15 min: %v, want %v", err, ErrCursorExpired)
	}
	if _, err := p.Next(nil, c2); err != nil {
		t.Errorf("Next(c2) 6 min after its issue: %v", err)
	}
}

func TestEvictionOldestFirst(t *testing.T) {
	older, newer := pagedResult(t, 20), pagedResult(t, 20)
	p := NewPager(&PagerOptions{MaxBytes: 1}) // every result is over the cap
	_, c1 := pageText(t, p.First(nil, older))
	if _, err := p.Next(nil, c1); err != nil {
		t.Fatalf("the newest result must be kept even over the cap: %v", err)
	}
	_, c2 := pageText(t, p.First(nil, newer))
	if _, err := p.Next(nil, c1); !errors.Is(err, ErrCursorExpired) {
		t.Errorf("Next on an evicted result: %v, want %v", err, ErrCursorExpired)
	}
	if _, err := p.Next(nil, c2); err != nil {
		t.Errorf("Next on the newest result: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.entries) != 1 || p.size != p.entries[0].size {
		t.Errorf("after eviction %d results hold %d bytes, want the newest alone", len(p.entries), p.size)
	}
}

func TestEvictionKeepsWhatFits(t *testing.T) {
	sh := pagedResult(t, 20)
	size := newEntry(sh).size
	p := NewPager(&PagerOptions{MaxBytes: 2 * size})
	var cursors []string
	for range 3 {
		_, c := pageText(t, p.First(nil, sh))
		cursors = append(cursors, c)
	}
	for i, want := range []error{ErrCursorExpired, nil, nil} {
		if _, err := p.Next(nil, cursors[i]); !errors.Is(err, want) {
			t.Errorf("result %d: %v, want %v", i, err, want)
		}
	}
}

func TestExpiredResultsAreReleased(t *testing.T) {
	clock := newFakeClock()
	p := NewPager(&PagerOptions{TTL: time.Minute, Now: clock.Now})
	p.First(nil, pagedResult(t, 20))
	clock.Advance(2 * time.Minute)
	if _, err := p.Next(nil, "cur_unknown"); !errors.Is(err, ErrCursorUnknown) {
		t.Fatalf("Next: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.entries) != 0 || p.size != 0 {
		t.Errorf("%d expired results still hold %d bytes", len(p.entries), p.size)
	}
}

func TestSinglePageIsNotKept(t *testing.T) {
	sh, err := Shape(jsonResult(t, issueRecords(2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPager(nil)
	text, cursor := pageText(t, p.First(nil, sh))
	if cursor != "" || strings.Contains(text, "[truncated") {
		t.Errorf("a one-page result has a footer:\n%s", text)
	}
	if len(p.cursors) != 0 || len(p.entries) != 0 {
		t.Errorf("a one-page result was kept: %d cursors, %d results", len(p.cursors), len(p.entries))
	}
}

func TestCursorsAreDistinct(t *testing.T) {
	p := NewPager(nil)
	sh := pagedResult(t, 20)
	seen := map[string]bool{}
	for range 50 {
		_, c := pageText(t, p.First(nil, sh))
		if len(c) != len("cur_")+28 {
			t.Fatalf("cursor %q is not cur_ and 28 characters", c)
		}
		if seen[c] {
			t.Fatalf("cursor %q issued twice", c)
		}
		seen[c] = true
	}
}

func TestPagerConcurrentUse(t *testing.T) {
	p := NewPager(&PagerOptions{MaxBytes: 1 << 20})
	sh := pagedResult(t, 60)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			cursor := footerCursor(p.First(nil, sh))
			for pages := 1; cursor != ""; pages++ {
				res, err := p.Next(nil, cursor)
				if err != nil {
					errs <- fmt.Errorf("goroutine %d, page %d: %w", g, pages+1, err)
					return
				}
				cursor = footerCursor(res)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestUnknownCursorErrorIsBounded(t *testing.T) {
	forged := "cur_" + strings.Repeat("é", 5000)
	_, err := NewPager(nil).Next(nil, forged)
	if !errors.Is(err, ErrCursorUnknown) {
		t.Fatalf("Next: %v, want %v", err, ErrCursorUnknown)
	}
	if len(err.Error()) > 200 {
		t.Errorf("error quotes %d bytes of a forged cursor", len(err.Error()))
	}
}

// TestKeptPagesHoldWhatTheyCount: the bytes the pager counts against
// MaxBytes are the bytes it holds, not strings.Builder buffers up to twice
// as large: 1.16x here before, 1.06x after (cursors and entries); the
// soak's 16 MiB of pages held 23 MiB of heap.
func TestKeptPagesHoldWhatTheyCount(t *testing.T) {
	p := NewPager(&PagerOptions{MaxBytes: 1 << 40})
	for range 200 {
		sh, err := Shape(jsonResult(t, issueRecords(300)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if sh.PageCount() < 2 {
			t.Fatalf("300 records make %d page, want several", sh.PageCount())
		}
		p.First(nil, sh)
	}
	_, _, counted := p.Sizes()
	var with, without runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&with)
	runtime.KeepAlive(p)
	p = nil
	runtime.GC()
	runtime.ReadMemStats(&without)
	held := int64(with.HeapAlloc) - int64(without.HeapAlloc)
	if float64(held) > 1.1*float64(counted) {
		t.Errorf("the pager counts %d page bytes and holds %d heap bytes (%.2fx)", counted, held, float64(held)/float64(counted))
	}
}

// TestCursorsKeptAreLive: however many cursors are minted, the pager keeps
// those of the results it still holds, and the cursors of evicted results
// answer expired.
func TestCursorsKeptAreLive(t *testing.T) {
	sh := pagedResult(t, 20)
	p := NewPager(&PagerOptions{MaxBytes: 2 * newEntry(sh).size, Now: newFakeClock().Now})
	var cursors []string
	for range 200 {
		_, c := pageText(t, p.First(nil, sh))
		cursors = append(cursors, c)
	}
	if results, kept, _ := p.Sizes(); results != 2 || kept != 2 {
		t.Errorf("the pager keeps %d results and %d cursors, want the 2 that fit and their 2 cursors", results, kept)
	}
	for i, c := range cursors {
		want := ErrCursorExpired
		if i >= len(cursors)-2 {
			want = nil
		}
		if _, err := p.Next(nil, c); !errors.Is(err, want) {
			t.Errorf("cursor %d of %d: %v, want %v", i+1, len(cursors), err, want)
		}
	}
}

// TestPagerOwner: a cursor serves the owner its result was kept for; to
// any other owner it is unknown, expired or not, as one never issued.
func TestPagerOwner(t *testing.T) {
	clock := newFakeClock()
	p := NewPager(&PagerOptions{Now: clock.Now})
	type session struct{ name string }
	owner, other := &session{"a"}, &session{"b"}
	_, cursor := pageText(t, p.First(owner, pagedResult(t, 20)))
	for _, who := range []any{other, nil, "a"} {
		if _, err := p.Next(who, cursor); !errors.Is(err, ErrCursorUnknown) {
			t.Errorf("Next(%v): %v, want ErrCursorUnknown", who, err)
		}
	}
	if _, err := p.Next(owner, cursor); err != nil {
		t.Fatalf("Next for the owner: %v", err)
	}
	clock.Advance(DefaultCursorTTL + time.Second)
	if _, err := p.Next(other, cursor); !errors.Is(err, ErrCursorUnknown) {
		t.Errorf("an expired cursor, another owner: %v, want ErrCursorUnknown", err)
	}
	if _, err := p.Next(owner, cursor); !errors.Is(err, ErrCursorExpired) {
		t.Errorf("an expired cursor, its owner: %v, want ErrCursorExpired", err)
	}
}
