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
	"unique"
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

// issued is what is remembered of an id: its random bits are the map key,
// and its action is kept only while the id is usable. Measured at
// maxHandlesKept ids: an expired id costs 91 bytes (181 as text-keyed
// pointers), a live one 139 (269 with the strings each search made). The
// table was most of the soak's live heap, and Go keeps about twice the
// live heap from the OS.
type issued struct {
	act     *action       // nil once past handleTTL: the id can only answer "expired"
	session any           // the client session the id was issued to
	at      time.Duration // since handles.epoch
}

// handleKey is an id's random bits.
type handleKey [handleBytes]byte

// handles issues opaque action ids and resolves them for the session they
// were issued to. Memory is bounded: ids older than handleMemory are dropped,
// and at most maxHandlesKept are kept.
type handles struct {
	now   func() time.Time
	rand  io.Reader
	epoch time.Time // issued.at counts from here
	// enc writes and reads ids' random bits. It is strict, so that each
	// key has one spelling: a lax decoder ignores the last character's 4
	// padding bits and would take 16 spellings of each id.
	enc *base64.Encoding

	mu    sync.Mutex
	byID  map[handleKey]issued // guarded by mu
	order []handleKey          // guarded by mu; ids in issue order, for pruning
	head  int                  // guarded by mu; order[:head] are already dropped
	// stale is guarded by mu: order[head:stale] are past handleTTL and
	// their actions let go, since they can only answer "expired" now.
	stale int
}

func newHandles(now func() time.Time, random io.Reader) *handles {
	if random == nil {
		random = rand.Reader
	}
	return &handles{now: now, rand: random, epoch: now(), enc: base64.RawURLEncoding.Strict(), byID: make(map[handleKey]issued)}
}

// issue returns a fresh action id for a, usable by session only.
func (h *handles) issue(session any, a action) (string, error) {
	var k handleKey
	if _, err := io.ReadFull(h.rand, k[:]); err != nil {
		return "", fmt.Errorf("reading random bits for an action id: %w", err)
	}
	// Thousands of live ids name the same few tools: share one copy of
	// each string rather than keep the copy each search made.
	a = action{server: unique.Make(a.server).Value(), tool: unique.Make(a.tool).Value(), hash: unique.Make(a.hash).Value()}
	now := h.now().Sub(h.epoch)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pruneLocked(now)
	h.byID[k] = issued{act: &a, session: session, at: now}
	h.order = append(h.order, k)
	return handlePrefix + h.enc.EncodeToString(k[:]), nil
}

// resolve returns the action behind id for session. A well-formed id this
// session was given more than handleTTL ago answers errHandleExpired; any
// other id (forged, mistyped, another session's, forgotten) answers
// errHandleUnknown.
func (h *handles) resolve(session any, id string) (action, error) {
	k, ok := h.key(id)
	if !ok {
		return action{}, errHandleUnknown
	}
	now := h.now().Sub(h.epoch)
	h.mu.Lock()
	defer h.mu.Unlock()
	it, ok := h.byID[k]
	if !ok || it.session != session {
		return action{}, errHandleUnknown
	}
	if now-it.at >= handleTTL || it.act == nil {
		return action{}, errHandleExpired
	}
	return *it.act, nil
}

// key returns the random bits id spells, if it is a well-formed id.
func (h *handles) key(id string) (handleKey, bool) {
	var k handleKey
	text, ok := strings.CutPrefix(id, handlePrefix)
	if !ok || len(text) != handleChars {
		return k, false
	}
	n, err := h.enc.Decode(k[:], []byte(text))
	return k, err == nil && n == handleBytes
}

// pruneLocked drops ids past handleMemory and, past maxHandlesKept, the
// oldest ones; of ids past handleTTL it keeps only the session and the
// time (an hour of ids at the bound would otherwise keep 200,000 server,
// tool and hash strings). now counts from h.epoch; h.mu must be held.
func (h *handles) pruneLocked(now time.Duration) {
	for h.head < len(h.order) {
		k := h.order[h.head]
		if now-h.byID[k].at < handleMemory && len(h.order)-h.head < maxHandlesKept {
			break
		}
		delete(h.byID, k)
		h.head++
	}
	h.stale = max(h.stale, h.head)
	for ; h.stale < len(h.order); h.stale++ {
		k := h.order[h.stale]
		it := h.byID[k]
		if now-it.at < handleTTL {
			break
		}
		it.act = nil
		h.byID[k] = it
	}
	if h.head > len(h.order)/2 {
		h.order = append(h.order[:0:0], h.order[h.head:]...)
		h.stale -= h.head
		h.head = 0
	}
}
