package upstream

import (
	"testing"
	"time"
)

// TestCancelNotes: closing waits for an owed cancellation until it is
// sent, counts one sent before it was owed, and waits no longer than told
// for one never sent.
func TestCancelNotes(t *testing.T) {
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n")
	var n cancelNotes
	n.wait(time.Hour) // nothing owed: at once

	n.owe()
	go func() {
		time.Sleep(50 * time.Millisecond)
		n.sent([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`)) // not a cancellation
		n.sent(note)
	}()
	began := time.Now()
	n.wait(time.Hour)
	if took := time.Since(began); took < 50*time.Millisecond {
		t.Errorf("wait returned after %s, before the cancellation was sent", took)
	}

	n.sent(note) // sent before it is owed
	n.owe()
	began = time.Now()
	n.wait(time.Hour)
	if took := time.Since(began); took > time.Second {
		t.Errorf("wait for a cancellation sent before it was owed took %s", took)
	}

	n.owe()
	began = time.Now()
	n.wait(100 * time.Millisecond)
	if took := time.Since(began); took < 100*time.Millisecond || took > 5*time.Second {
		t.Errorf("wait for a cancellation never sent took %s, want its bound", took)
	}
}
