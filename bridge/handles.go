package bridge

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
	"time"
	"unique"
)

// Handle lifetimes and layout from the design contract.
const (
	handleTTL      = 10 * time.Minute // an action id may be used this long after it was issued
	handlePrefix   = "act_"
	handleBytes    = 16     // 128 random bits
	handleMACBytes = 10     // HMAC-SHA256 of the rest, cut to 80 bits
	maxHandlesKept = 200000 // bound on live ids, whatever the traffic
)

// An id spells, in unpadded base64url after handlePrefix, its random bits,
// the second it was issued (since handles.epoch, big-endian) and a MAC of
// both and of the session it was issued to, under a key this process drew
// at random: idBytes in all, idChars characters, with no padding bits to
// spell two ways.
const (
	idBytes     = handleBytes + 4 + handleMACBytes
	handleChars = idBytes / 3 * 4
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

// issued is what is remembered of a live id; its random bits are the map
// key. An id past handleTTL is forgotten: its MAC alone proves it was
// issued, so answering "expired" costs no memory.
type issued struct {
	act     unique.Handle[action] // one copy per tool, shared by its ids
	session any                   // the client session the id was issued to
	at      time.Duration         // since handles.epoch
}

// handleKey is an id's random bits.
type handleKey [handleBytes]byte

// handles issues opaque action ids and resolves them for the session they
// were issued to. Memory holds live ids only, at most maxHandlesKept: an
// expired id is recognised by its MAC.
type handles struct {
	now   func() time.Time
	rand  io.Reader
	epoch time.Time // issued.at and an id's issue second count from here
	key   []byte    // the MAC key, random per process: ids die with it
	// enc writes and reads ids. idBytes is a multiple of 3, so every
	// character carries 6 bits of the id and each id has one spelling.
	enc *base64.Encoding

	mu    sync.Mutex
	byID  map[handleKey]issued // guarded by mu; live ids
	order []handleKey          // guarded by mu; ids in issue order, for pruning
	head  int                  // guarded by mu; order[:head] are already dropped
	peak  int                  // guarded by mu; most ids byID held since it was last made
}

func newHandles(now func() time.Time, random io.Reader) *handles {
	if random == nil {
		random = rand.Reader
	}
	key := make([]byte, sha256.Size)
	if _, err := io.ReadFull(rand.Reader, key); err != nil {
		// crypto/rand does not fail on the systems Go supports.
		panic("bridge: reading a key for action ids: " + err.Error())
	}
	return &handles{now: now, rand: random, epoch: now(), key: key, enc: base64.RawURLEncoding.Strict(), byID: make(map[handleKey]issued)}
}

// issue returns a fresh action id for a, usable by session only.
func (h *handles) issue(session any, a action) (string, error) {
	var id [idBytes]byte
	k := id[:handleBytes]
	if _, err := io.ReadFull(h.rand, k); err != nil {
		return "", fmt.Errorf("reading random bits for an action id: %w", err)
	}
	// Thousands of live ids name the same few tools: share one copy of
	// each action rather than keep the strings each search made.
	act := unique.Make(a)
	now := h.now().Sub(h.epoch)
	binary.BigEndian.PutUint32(id[handleBytes:], uint32(now/time.Second))
	h.sign(id[handleBytes+4:], id[:handleBytes+4], session)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pruneLocked(now)
	h.byID[handleKey(k)] = issued{act: act, session: session, at: now}
	h.order = append(h.order, handleKey(k))
	return handlePrefix + h.enc.EncodeToString(id[:]), nil
}

// sign writes into mac the MAC of body issued to session.
func (h *handles) sign(mac, body []byte, session any) {
	m := hmac.New(sha256.New, h.key)
	m.Write(body)
	m.Write(sessionTag(session))
	copy(mac, m.Sum(nil))
}

// sessionTag names a session in a MAC: a Streamable HTTP session by its
// id, any other by its address (one per connection; an address reused by
// a later session could at worst make an old id answer "expired" there).
func sessionTag(session any) []byte {
	if s, ok := session.(string); ok {
		return []byte("id:" + s)
	}
	return fmt.Appendf(nil, "at:%p", session)
}

// resolve returns the action behind id for session. A well-formed id this
// session was given more than handleTTL ago answers errHandleExpired; any
// other id (forged, mistyped, another session's, another process's)
// answers errHandleUnknown.
func (h *handles) resolve(session any, id string) (action, error) {
	var b [idBytes]byte
	text, ok := strings.CutPrefix(id, handlePrefix)
	if !ok || len(text) != handleChars {
		return action{}, errHandleUnknown
	}
	if n, err := h.enc.Decode(b[:], []byte(text)); err != nil || n != idBytes {
		return action{}, errHandleUnknown
	}
	var want [handleMACBytes]byte
	h.sign(want[:], b[:handleBytes+4], session)
	if !hmac.Equal(want[:], b[handleBytes+4:]) {
		return action{}, errHandleUnknown
	}
	now := h.now().Sub(h.epoch)
	h.mu.Lock()
	it, ok := h.byID[handleKey(b[:handleBytes])]
	h.mu.Unlock()
	// The MAC says this process issued the id to this session: gone from
	// the table, it expired (or, past maxHandlesKept, was let go early).
	if !ok || it.session != session || now-it.at >= handleTTL {
		return action{}, errHandleExpired
	}
	return it.act.Value(), nil
}

// pruneLocked drops ids past handleTTL and, past maxHandlesKept, the
// oldest ones. now counts from h.epoch; h.mu must be held.
func (h *handles) pruneLocked(now time.Duration) {
	for h.head < len(h.order) {
		k := h.order[h.head]
		if now-h.byID[k].at < handleTTL && len(h.order)-h.head < maxHandlesKept {
			break
		}
		delete(h.byID, k)
		h.head++
	}
	if h.head > len(h.order)/2 {
		h.order = append(h.order[:0:0], h.order[h.head:]...)
		h.head = 0
	}
	// A Go map keeps the buckets of its largest size: after a burst, copy
	// the few live ids into a map of their size.
	h.peak = max(h.peak, len(h.byID))
	if h.peak >= 1024 && len(h.byID) < h.peak/4 {
		fresh := make(map[handleKey]issued, len(h.byID))
		maps.Copy(fresh, h.byID) // maps.Clone would keep the buckets too
		h.byID = fresh
		h.peak = len(fresh)
	}
}
