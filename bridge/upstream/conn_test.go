package upstream

import (
	"errors"
	"testing"
	"time"
)

// TestNoAnswerSaysHowLong: a start timeout says how long the server was
// waited for, in seconds, or in milliseconds under one (a deadline that
// had all but passed reads "within 3ms", not "within 0s"), and is
// ErrTimeout.
func TestNoAnswerSaysHowLong(t *testing.T) {
	tests := []struct {
		ago  time.Duration
		want string
	}{
		{3400 * time.Millisecond, "no answer to initialize within 3s"},
		{61 * time.Second, "no answer to initialize within 1m1s"},
		{250 * time.Millisecond, "no answer to initialize within 250ms"},
	}
	for _, tt := range tests {
		err := noAnswer{after: waited(time.Now().Add(-tt.ago))}
		// Rounding to the unit absorbs the few microseconds the call takes.
		if got := err.Error(); got != tt.want {
			t.Errorf("waited %v ago: %q, want %q", tt.ago, got, tt.want)
		}
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("waited %v ago: %v is not ErrTimeout", tt.ago, err)
		}
	}
}
