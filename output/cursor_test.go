package output

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCursorAnswers: a cursor serves its page while its result is kept and
// within the TTL; then it answers expired, however old, with nothing kept
// for it. A cursor the pager did not issue to this owner is unknown.
func TestCursorAnswers(t *testing.T) {
	const ttl = 10 * time.Minute
	type session struct{ name string }
	tests := []struct {
		name string
		// cursor returns the cursor to page with, given the pager, its
		// clock and the cursor it issued to the owner.
		cursor   func(p *Pager, clock *fakeClock, issued string) string
		other    bool // page as another owner
		want     error
		wantKept int // cursors the pager keeps afterwards
	}{
		{"live", same, false, nil, 2},
		{"just before the TTL", wait(ttl - time.Second), false, nil, 2},
		{"after the TTL", wait(ttl + time.Second), false, ErrCursorExpired, 0},
		{"a day after", wait(24 * time.Hour), false, ErrCursorExpired, 0},
		{"result evicted", func(p *Pager, _ *fakeClock, c string) string {
			p.First(&session{"later"}, pagedResult(t, 20)) // MaxBytes: 1 keeps the newest result only
			return c
		}, false, ErrCursorExpired, 1},
		{"another owner", same, true, ErrCursorUnknown, 1},
		{"another owner, after the TTL", wait(ttl + time.Second), true, ErrCursorUnknown, 0},
		{"tampered", func(_ *Pager, _ *fakeClock, c string) string { return tamper(c) }, false, ErrCursorUnknown, 1},
		{"tampered issue time", func(_ *Pager, _ *fakeClock, c string) string {
			b := []byte(c)
			b[len("cur_")+13] ^= 'A' ^ 'B' // a character of the issue second
			return string(b)
		}, false, ErrCursorUnknown, 1},
		{"another pager's", func(_ *Pager, clock *fakeClock, _ string) string {
			q := NewPager(&PagerOptions{TTL: ttl, MaxBytes: 1, Now: clock.Now})
			_, c := pageText(t, q.First(nil, pagedResult(t, 20)))
			return c
		}, false, ErrCursorUnknown, 1},
		{"garbage of a cursor's length", func(*Pager, *fakeClock, string) string { return "cur_" + strings.Repeat("A", 28) }, false, ErrCursorUnknown, 1},
		{"cut short", func(_ *Pager, _ *fakeClock, c string) string { return c[:len(c)-1] }, false, ErrCursorUnknown, 1},
		{"with a newline", func(_ *Pager, _ *fakeClock, c string) string { return c[:20] + "\n" + c[20:] }, false, ErrCursorUnknown, 1},
		{"as an action id", func(_ *Pager, _ *fakeClock, c string) string { return "act_" + c[len("cur_"):] }, false, ErrCursorUnknown, 1},
		{"empty", func(*Pager, *fakeClock, string) string { return "" }, false, ErrCursorUnknown, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			p := NewPager(&PagerOptions{TTL: ttl, MaxBytes: 1, Now: clock.Now})
			owner, other := &session{"a"}, &session{"b"}
			_, issued := pageText(t, p.First(owner, pagedResult(t, 20)))
			who := owner
			if tt.other {
				who = other
			}
			res, err := p.Next(who, tt.cursor(p, clock, issued))
			if !errors.Is(err, tt.want) {
				t.Fatalf("Next: error %v, want %v", err, tt.want)
			}
			if err == nil {
				if text, _ := pageText(t, res); !strings.Contains(text, "[truncated: showing") {
					t.Errorf("Next served no second page:\n%s", text)
				}
			}
			if _, kept, _ := p.Sizes(); kept != tt.wantKept {
				t.Errorf("the pager keeps %d cursors, want %d", kept, tt.wantKept)
			}
		})
	}
}

func same(_ *Pager, _ *fakeClock, c string) string { return c }

// wait returns a cursor func that lets d pass.
func wait(d time.Duration) func(*Pager, *fakeClock, string) string {
	return func(_ *Pager, clock *fakeClock, c string) string {
		clock.Advance(d)
		return c
	}
}
