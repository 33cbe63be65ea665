package bridge

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable time source for expiry tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestHandleIDsAreOpaqueAndRandom(t *testing.T) {
	h := newHandles(newClock().now, nil)
	seen := map[string]bool{}
	for range 1000 {
		id, err := h.issue("s", action{server: "a", tool: "b", hash: "h"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(id, handlePrefix) || len(id) != len(handlePrefix)+handleChars {
			t.Fatalf("id %q: want %s + %d characters", id, handlePrefix, handleChars)
		}
		if seen[id] {
			t.Fatalf("id %q issued twice", id)
		}
		seen[id] = true
	}
}

func TestHandleResolve(t *testing.T) {
	type sessionA struct{ n int }
	a, b := &sessionA{1}, &sessionA{2}
	want := action{server: "helpdesk", tool: "create_ticket", hash: "abc"}
	tests := []struct {
		name    string
		session any
		id      func(issued string) string
		after   time.Duration
		wantErr error
	}{
		{"fresh, same session", a, same, 0, nil},
		{"reused within ttl", a, same, handleTTL - time.Second, nil},
		{"at ttl", a, same, handleTTL, errHandleExpired},
		{"expired an hour ago", a, same, handleTTL + time.Hour, errHandleExpired},
		{"expired a day ago", a, same, 24 * time.Hour, errHandleExpired},
		{"other session", b, same, 0, errHandleUnknown},
		{"other session, expired", b, same, handleTTL + time.Minute, errHandleUnknown},
		{"forged with prefix", a, func(string) string { return handlePrefix + strings.Repeat("A", handleChars) }, 0, errHandleUnknown},
		{"mangled", a, func(id string) string { return id[:len(id)-1] + "_" }, 0, errHandleUnknown},
		{"same bits, other padding", a, otherPadding, 0, errHandleUnknown},
		{"issue time moved back, expired", a, movedBack, handleTTL + time.Minute, errHandleUnknown},
		{"random bits changed", a, func(id string) string { return flip(id, len(handlePrefix)) }, 0, errHandleUnknown},
		{"no prefix", a, func(id string) string { return strings.TrimPrefix(id, handlePrefix) }, 0, errHandleUnknown},
		{"empty", a, func(string) string { return "" }, 0, errHandleUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			h := newHandles(c.now, nil)
			id, err := h.issue(a, want)
			if err != nil {
				t.Fatal(err)
			}
			c.advance(tt.after)
			got, err := h.resolve(tt.session, tt.id(id))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("resolve: err %v, want %v", err, tt.wantErr)
			}
			if err == nil && got != want {
				t.Fatalf("resolve: %+v, want %+v", got, want)
			}
		})
	}
}

func same(id string) string { return id }

// flip changes the character of id at i.
func flip(id string, i int) string {
	c := byte('A')
	if id[i] == 'A' {
		c = 'B'
	}
	return id[:i] + string(c) + id[i+1:]
}

// movedBack respells id with an issue time a minute earlier, its MAC kept.
func movedBack(id string) string {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(id, handlePrefix))
	if err != nil {
		panic(err)
	}
	at := binary.BigEndian.Uint32(b[handleBytes:])
	binary.BigEndian.PutUint32(b[handleBytes:], at-60)
	return handlePrefix + base64.RawURLEncoding.EncodeToString(b)
}

// TestHandlesOfAnotherProcess: an id another process (another key) issued,
// expired or not, is unknown here.
func TestHandlesOfAnotherProcess(t *testing.T) {
	c := newClock()
	id, err := newHandles(c.now, nil).issue("s", action{tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHandles(c.now, nil)
	for _, after := range []time.Duration{0, handleTTL + time.Second} {
		c.advance(after)
		if _, err := h.resolve("s", id); !errors.Is(err, errHandleUnknown) {
			t.Errorf("another process's id after %v: err %v, want %v", after, err, errHandleUnknown)
		}
	}
}

// otherPadding respells id's last character with its 4 unused low bits
// set: a lax base64 decoder reads the same 16 bytes.
func otherPadding(id string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, id[len(id)-1])
	return id[:len(id)-1] + string(alphabet[last|0xF])
}

// TestHandlesKeepOnlyLiveIDs: an id past its TTL leaves the table, and
// still answers expired, from its MAC alone.
func TestHandlesKeepOnlyLiveIDs(t *testing.T) {
	c := newClock()
	h := newHandles(c.now, nil)
	old, _ := h.issue("s", action{tool: "old"})
	c.advance(handleTTL + time.Second)
	if _, err := h.issue("s", action{tool: "new"}); err != nil { // issuing prunes
		t.Fatal(err)
	}
	if n := h.count(); n != 1 {
		t.Fatalf("%d ids remembered after pruning, want 1", n)
	}
	if _, err := h.resolve("s", old); !errors.Is(err, errHandleExpired) {
		t.Fatalf("an id no longer remembered: err %v, want %v", err, errHandleExpired)
	}
	if _, err := h.resolve("other", old); !errors.Is(err, errHandleUnknown) {
		t.Fatalf("another session's id no longer remembered: err %v, want %v", err, errHandleUnknown)
	}
}

func TestHandlesMemoryIsBounded(t *testing.T) {
	c := newClock()
	h := newHandles(c.now, nil)
	const perMinute = 500
	for range 90 { // issue for an hour and a half
		for range perMinute {
			if _, err := h.issue("s", action{}); err != nil {
				t.Fatal(err)
			}
		}
		c.advance(time.Minute)
	}
	if n, limit := h.count(), 11*perMinute; n > limit {
		t.Fatalf("%d ids remembered after 90 minutes, want at most a TTL's worth (%d)", n, limit)
	}
	if len(h.order)-h.head != h.count() {
		t.Fatalf("prune queue holds %d live ids, map %d", len(h.order)-h.head, h.count())
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

func TestHandleIssueWithoutRandomness(t *testing.T) {
	h := newHandles(newClock().now, failingReader{})
	if _, err := h.issue("s", action{}); err == nil {
		t.Fatal("issue with a failing random source: no error")
	}
}

// TestExpiredHandlesAreForgotten: an id past its TTL is dropped from the
// table when the next id is issued, and answers expired all the same.
func TestExpiredHandlesAreForgotten(t *testing.T) {
	tests := []struct {
		name    string
		age     time.Duration // of the first id when the second is issued
		wantErr error
		kept    bool // the first id is still in the table
	}{
		{"live", handleTTL - time.Second, nil, true},
		{"expired", handleTTL + time.Second, errHandleExpired, false},
		{"expired long ago", 3 * time.Hour, errHandleExpired, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			h := newHandles(c.now, nil)
			a := action{server: "helpdesk", tool: "create_ticket", hash: "h1"}
			first, _ := h.issue("s", a)
			c.advance(tt.age)
			second, err := h.issue("s", action{tool: "next"}) // issuing prunes
			if err != nil {
				t.Fatal(err)
			}
			got, err := h.resolve("s", first)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && got != a) {
				t.Errorf("resolve(first) = %+v, %v; want %+v, %v", got, err, a, tt.wantErr)
			}
			if kept := h.count() == 2; kept != tt.kept {
				t.Errorf("first id kept: %v, want %v", kept, tt.kept)
			}
			if got, err := h.resolve("s", second); err != nil || got.tool != "next" {
				t.Errorf("resolve(second) = %+v, %v; want its action", got, err)
			}
		})
	}
}

// TestHandlesMemoryPerID bounds the heap each live id costs, and checks
// that expired ids cost none: a long burst of discoveries fills the table
// towards maxHandlesKept, and Go keeps about twice the live heap from the
// OS. Text keys, pointer values and each search's own strings cost 269
// bytes a live id; before ids carried a MAC, an expired one cost 91.
func TestHandlesMemoryPerID(t *testing.T) {
	const ids = 100000
	c := newClock()
	h := newHandles(c.now, nil)
	heap := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	before := heap()
	for range ids {
		// Strings as a search returns them: a copy for every card.
		a := action{server: strings.Clone("helpdesk"), tool: strings.Clone("get_ticket"), hash: strings.Repeat("0123456789abcdef", 4)}
		if _, err := h.issue("s", a); err != nil {
			t.Fatal(err)
		}
	}
	live := heap()
	c.advance(handleTTL)
	if _, err := h.issue("s", action{}); err != nil { // issuing forgets expired ids
		t.Fatal(err)
	}
	expired := heap()
	for _, tt := range []struct {
		name  string
		bytes int64
		max   int64
	}{
		{"live", live - before, 120},
		{"expired", expired - before, 1},
	} {
		per := tt.bytes / ids
		t.Logf("%s ids: %d heap bytes each", tt.name, per)
		if per > tt.max {
			t.Errorf("%s ids: %d heap bytes each, want at most %d", tt.name, per, tt.max)
		}
	}
	runtime.KeepAlive(h)
}

// count reports how many ids are remembered (for tests of the bound).
func (h *handles) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.byID)
}
