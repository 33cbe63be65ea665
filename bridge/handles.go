package bridge

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Handle lifetimes from the design contract.
const (
	handleTTL      = 10 * time.Minute // an action id may be used this long after it was issued
	handleMemory   = time.Hour        // an issued id is remembered this long, to answer "expired"
	handlePrefix   = "act_"
	handleBytes    = 16     // 128 random bits
	handleChars    = 22     // handleBytes in unpadded base64url
	maxHandlesKept = 200000 // bound on remembered ids, whatever the traffic
)

// Errors a handle lookup answers with; run_capability maps them onto the
// "expired" and "unknown_action" statuses.
var (
	errHandleExpired = errors.New("action id expired")
	errHandleUnknown = errors.New("unknown action id")
)

// action is what a handle stands for: one exact tool, as the card the model
// read was made from it.
type action struct {
	server string
	tool   string // provider tool name
	hash   string // schema hash the card was made from
}

type issued struct {
	action
	session any // the client session the id was issued to
	at      time.Time
}

// handles issues opaque action ids and resolves them for the session they
// were issued to. Memory is bounded: ids older than handleMemory are dropped,
// and at most maxHandlesKept are kept.
type handles struct {
	now  func() time.Time
	rand io.Reader

	mu    sync.Mutex
	byID  map[string]*issued // guarded by mu
	order []string           // guarded by mu; ids in issue order, for pruning
	head  int                // guarded by mu; order[:head] are already dropped
	// stale is guarded by mu: order[head:stale] are past handleTTL and
	// their actions let go, since they can only answer "expired" now.
	stale int
}

func newHandles(now func() time.Time, random io.Reader) *handles {
	if random == nil {
		random = rand.Reader
	}
	return &handles{now: now, rand: random, byID: make(map[string]*issued)}
}

// issue returns a fresh action id for a, usable by session only.
func (h *handles) issue(session any, a action) (string, error) {
	var b [handleBytes]byte
	if _, err := io.ReadFull(h.rand, b[:]); err != nil {
		return "", fmt.Errorf("reading random bits for an action id: %w", err)
	}
	id := handlePrefix + base64.RawURLEncoding.EncodeToString(b[:])
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pruneLocked(now)
	h.byID[id] = &issued{action: a, session: session, at: now}
	h.order = append(h.order, id)
	return id, nil
}

// resolve returns the action behind id for session. A well-formed id this
// session was given more than handleTTL ago answers errHandleExpired; any
// other id (forged, mistyped, another session's, forgotten) answers
// errHandleUnknown.
func (h *handles) resolve(session any, id string) (action, error) {
	if !strings.HasPrefix(id, handlePrefix) {
		return action{}, errHandleUnknown
	}
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	it, ok := h.byID[id]
	if !ok || it.session != session {
		return action{}, errHandleUnknown
	}
	if now.Sub(it.at) >= handleTTL {
		return action{}, errHandleExpired
	}
	return it.action, nil
}

// pruneLocked drops ids past handleMemory and, past maxHandlesKept, the
// oldest ones; of ids past handleTTL it keeps only the session and the
// time (an hour of ids at the bound would otherwise keep 200,000 server,
// tool and hash strings). h.mu must be held.
func (h *handles) pruneLocked(now time.Time) {
	for h.head < len(h.order) {
		id := h.order[h.head]
		if it := h.byID[id]; now.Sub(it.at) < handleMemory && len(h.order)-h.head < maxHandlesKept {
			break
		}
		delete(h.byID, id)
		h.order[h.head] = ""
		h.head++
	}
	h.stale = max(h.stale, h.head)
	for ; h.stale < len(h.order); h.stale++ {
		it := h.byID[h.order[h.stale]]
		if now.Sub(it.at) < handleTTL {
			break
		}
		it.action = action{}
	}
	if h.head > len(h.order)/2 {
		h.order = append(h.order[:0:0], h.order[h.head:]...)
		h.stale -= h.head
		h.head = 0
	}
}

// count reports how many ids are remembered (for tests of the bound).
func (h *handles) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.byID)
}
