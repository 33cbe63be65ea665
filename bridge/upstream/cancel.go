package upstream

import (
	"bytes"
	"sync"
	"time"
)

// cancelNoteWait bounds how long closing a session waits for the
// notifications/cancelled of calls cancelled just before.
const cancelNoteWait = 500 * time.Millisecond

// cancelNotes follows the notifications/cancelled owed to a server. go-sdk
// returns from a call whose context is cancelled at once and sends the
// notification from a goroutine of its own; a session closed right after
// (as a shutdown closes every one) would cut it off, and the server would
// see its input end instead of the cancellation. A call cancelled by its
// caller owes one; the transport pays it once the message is out (written
// to a stdio server's input, or answered by an HTTP server); closing waits
// for the debt, within cancelNoteWait.
type cancelNotes struct {
	mu   sync.Mutex
	owed int           // guarded by mu; may go below zero when a note is sent before it is owed
	paid chan struct{} // guarded by mu; closed and replaced when a note is sent
}

// owe counts one notification that go-sdk is sending.
func (n *cancelNotes) owe() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.owed++
}

// sent looks at one message that went out and counts it when it is a
// cancellation.
func (n *cancelNotes) sent(msg []byte) {
	if !bytes.Contains(msg, []byte(`"notifications/cancelled"`)) {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.owed--
	if n.paid != nil {
		close(n.paid)
		n.paid = nil
	}
}

// wait returns once no notification is owed, or after d.
func (n *cancelNotes) wait(d time.Duration) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		n.mu.Lock()
		if n.owed <= 0 {
			n.mu.Unlock()
			return
		}
		if n.paid == nil {
			n.paid = make(chan struct{})
		}
		paid := n.paid
		n.mu.Unlock()
		select {
		case <-paid:
		case <-deadline.C:
			return
		}
	}
}
