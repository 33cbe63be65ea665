package upstream

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestNoAnswerSaysHowLong: a start timeout says how long the server was
// given (to the start's deadline, not until the child was stopped after
// it), in seconds, or in milliseconds under one (a deadline that had all
// but passed reads "within 3ms", not "within 0s"), and is ErrTimeout.
func TestNoAnswerSaysHowLong(t *testing.T) {
	tests := []struct {
		ago, given time.Duration // the start began ago, with given to its deadline
		want       string
	}{
		{3400 * time.Millisecond, 0, "no answer to initialize within 3s"},
		{61 * time.Second, 0, "no answer to initialize within 1m1s"},
		{250 * time.Millisecond, 0, "no answer to initialize within 250ms"},
		{7 * time.Second, 5 * time.Second, "no answer to initialize within 5s"},
		{2 * time.Second, 3 * time.Millisecond, "no answer to initialize within 3ms"},
	}
	for _, tt := range tests {
		began := time.Now().Add(-tt.ago)
		ctx := context.Background()
		if tt.given > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, began.Add(tt.given))
			defer cancel()
		}
		err := noAnswer{after: budget(ctx, began)}
		// Rounding to the unit absorbs the few microseconds the call takes.
		if got := err.Error(); got != tt.want {
			t.Errorf("waited %v ago: %q, want %q", tt.ago, got, tt.want)
		}
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("waited %v ago: %v is not ErrTimeout", tt.ago, err)
		}
	}
}
