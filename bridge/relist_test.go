package bridge

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRelisterFolds: a burst of notifications re-lists once at once and
// once when the interval has passed, logging once; a notification after a
// quiet interval re-lists at once again; close drops a waiting re-list.
func TestRelisterFolds(t *testing.T) {
	const interval = 100 * time.Millisecond
	var mu sync.Mutex
	var got []string
	request := func(servers ...string) {
		mu.Lock()
		got = append(got, servers...)
		mu.Unlock()
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}
	var log bytes.Buffer
	r := newRelister(request, slog.New(slog.NewTextHandler(&syncWriter{w: &log}, nil)), interval)

	for range 1000 {
		r.changed("flood")
	}
	if n := count(); n != 1 {
		t.Fatalf("a burst of 1,000: %d re-lists at once, want 1", n)
	}
	time.Sleep(3 * interval)
	if n := count(); n != 2 {
		t.Fatalf("after the interval: %d re-lists, want 2 (the burst folded into one)", n)
	}
	if n := strings.Count(log.String(), "faster than"); n != 1 {
		t.Errorf("the burst was logged %d times, want once:\n%s", n, log.String())
	}
	r.changed("flood") // after a quiet interval
	r.changed("other") // another server is not held back
	if n := count(); n != 4 {
		t.Errorf("a notification after a quiet interval, and another server's: %d re-lists, want 4", n)
	}
	r.changed("flood") // too soon: waits
	r.close()
	time.Sleep(2 * interval)
	if n := count(); n != 4 {
		t.Errorf("a re-list waiting at close ran: %d re-lists", n)
	}
}

// syncWriter serializes writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
