package bridge

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	a, b := new(mcp.ServerSession), new(mcp.ServerSession)
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
		{"last character changed", a, func(id string) string { return flip(id, len(id)-1) }, 0, errHandleUnknown},
		{"issue time moved back, expired", a, movedBack, handleTTL + time.Minute, errHandleUnknown},
		{"random bits changed", a, func(id string) string { return flip(id, len(handlePrefix)) }, 0, errHandleUnknown},
		{"action number changed", a, func(id string) string { return flip(id, len(handlePrefix)+numOffset*4/3+1) }, 0, errHandleUnknown},
		{"http session", "sid", same, 0, errHandleUnknown},
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
	at := binary.BigEndian.Uint32(b[atOffset:])
	binary.BigEndian.PutUint32(b[atOffset:], at-60)
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

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

func TestHandleIssueWithoutRandomness(t *testing.T) {
	h := newHandles(newClock().now, failingReader{})
	if _, err := h.issue("s", action{}); err == nil {
		t.Fatal("issue with a failing random source: no error")
	}
}

// TestHandlesNumberEachActionOnce: ids of the same action share one
// remembered copy, and each id resolves to its own action.
func TestHandlesNumberEachActionOnce(t *testing.T) {
	h := newHandles(newClock().now, nil)
	s := new(mcp.ServerSession)
	acts := []action{{server: "a", tool: "x", hash: "1"}, {server: "a", tool: "x", hash: "2"}, {server: "b", tool: "x", hash: "1"}}
	ids := make(map[string]action)
	for i := range 300 {
		a := acts[i%len(acts)]
		id, err := h.issue(s, a)
		if err != nil {
			t.Fatal(err)
		}
		ids[id] = a
	}
	if len(h.acts) != len(acts) {
		t.Fatalf("%d actions numbered for %d distinct ones", len(h.acts), len(acts))
	}
	for id, want := range ids {
		if got, err := h.resolve(s, id); err != nil || got != want {
			t.Fatalf("resolve(%s) = %+v, %v; want %+v", id, got, err, want)
		}
	}
}

// TestHandlesStartOverPastMaxActions: past maxActions distinct actions
// the numbers start over under a fresh key; the ids issued before answer
// expired, never another action.
func TestHandlesStartOverPastMaxActions(t *testing.T) {
	h := newHandles(newClock().now, nil)
	h.maxActions = 4
	var old []string
	for i := range 4 {
		id, err := h.issue("s", action{tool: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, id)
	}
	fresh, err := h.issue("s", action{tool: "fifth"})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.acts) != 1 {
		t.Fatalf("%d actions numbered after starting over, want 1", len(h.acts))
	}
	for _, id := range old {
		if a, err := h.resolve("s", id); !errors.Is(err, errHandleExpired) {
			t.Errorf("an id from before starting over: %+v, %v; want %v", a, err, errHandleExpired)
		}
		if _, err := h.resolve("other", id); !errors.Is(err, errHandleUnknown) {
			t.Errorf("another session's id from before starting over: %v; want %v", err, errHandleUnknown)
		}
	}
	if a, err := h.resolve("s", fresh); err != nil || a.tool != "fifth" {
		t.Errorf("resolve(fresh) = %+v, %v", a, err)
	}
}

// TestHandlesForgetCollectedSessions: a connection's tag lives as long
// as its session, so a later session at the same address cannot use its
// ids, and the tags do not pile up.
func TestHandlesForgetCollectedSessions(t *testing.T) {
	h := newHandles(newClock().now, nil)
	for range 100 {
		if _, err := h.issue(new(mcp.ServerSession), action{}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		h.mu.Lock()
		n := len(h.conns)
		h.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d session tags kept after their sessions were collected", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHandlesMemoryPerID: an id costs no heap, live or expired; only its
// action is remembered, once. (Before ids carried their action, a live
// id cost 91 bytes, and the table's map doubled under churn at its cap of
// 200,000 to 165 bytes an id.)
func TestHandlesMemoryPerID(t *testing.T) {
	const ids = 100000
	c := newClock()
	h := newHandles(c.now, nil)
	s := new(mcp.ServerSession)
	heap := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	issue := func(n int) {
		for i := range n {
			// Strings as a search returns them: a copy for every card, of
			// one of 50 tools.
			a := action{server: strings.Clone("helpdesk"), tool: fmt.Sprintf("get_ticket_%d", i%50), hash: strings.Repeat("0123456789abcdef", 4)}
			if _, err := h.issue(s, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := heap()
	issue(50)
	numbered := heap()
	issue(ids)
	live := heap() - numbered
	t.Logf("50 actions numbered: %d heap bytes; then %d live ids: %d heap bytes in all, %.2f an id", numbered-start, ids, live, float64(live)/ids)
	// The runtime's own allocations move the heap by a few KiB between
	// two readings (7 KiB seen beside a soak); a table of ids would cost
	// 91 bytes each.
	if live > ids {
		t.Errorf("%d ids of numbered actions cost %d heap bytes (%.2f an id): want nothing, under a byte an id", ids, live, float64(live)/ids)
	}
	runtime.KeepAlive(h)
	runtime.KeepAlive(s)
}
