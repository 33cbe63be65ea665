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
	"runtime"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Handle lifetimes and layout from the design contract.
const (
	handleTTL      = 10 * time.Minute // an action id may be used this long after it was issued
	handlePrefix   = "act_"
	handleBytes    = 16 // 128 random bits
	handleMACBytes = 10 // HMAC-SHA256 of the rest, cut to 80 bits
	actionBytes    = 3  // the action's number
	// maxActions bounds the actions numbered under one key. Past it (a
	// server that changes its tools' definitions without end), the
	// numbers start over under a fresh key, and ids of the old one answer
	// expired.
	maxActions = 1 << 18
)

// An id spells, in unpadded base64url after handlePrefix, its random bits,
// the second it was issued (since handles.epoch, big-endian), the number
// of its action (masked by the random bits) and a MAC of all of these and
// of the session it was issued to, under a key this process drew at
// random: idBytes in all, handleChars characters, with no padding bits to
// spell two ways.
//
// An id holds all that resolving it needs, so ids cost no memory, live or
// expired: the handles remember only each action (server, tool, schema
// hash) once, by number.
const (
	idBytes     = handleBytes + 4 + actionBytes + handleMACBytes
	handleChars = idBytes / 3 * 4
	atOffset    = handleBytes
	numOffset   = atOffset + 4
	macOffset   = numOffset + actionBytes
)

// ActionIDBytes is the length of every action id, prefix included.
const ActionIDBytes = len(handlePrefix) + handleChars

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

// handles issues opaque action ids and resolves them for the session they
// were issued to.
type handles struct {
	now   func() time.Time
	rand  io.Reader
	epoch time.Time // an id's issue second counts from here
	// enc writes and reads ids. idBytes is a multiple of 3, so every
	// character carries 6 bits of the id and each id has one spelling.
	enc *base64.Encoding
	// maxActions is the package's maxActions (tests lower it).
	maxActions int

	mu      sync.Mutex
	key     []byte            // guarded by mu; the MAC key, random per process: ids die with it
	oldKey  []byte            // guarded by mu; the key before the numbers last started over
	acts    []action          // guarded by mu; actions by number
	numbers map[action]uint32 // guarded by mu; numbers by action
	// conns tags each connection-bound session (stdio, in-memory) with
	// random bits for as long as it lives; see sessionTag.
	conns map[weak.Pointer[mcp.ServerSession]][8]byte // guarded by mu
}

func newHandles(now func() time.Time, random io.Reader) *handles {
	if random == nil {
		random = rand.Reader
	}
	h := &handles{now: now, rand: random, epoch: now(), enc: base64.RawURLEncoding.Strict(), maxActions: maxActions,
		conns: make(map[weak.Pointer[mcp.ServerSession]][8]byte)}
	h.restartLocked()
	return h
}

// restartLocked draws a fresh key and forgets the numbered actions; ids
// made under the previous key answer expired. h.mu must be held (or h
// not yet shared).
func (h *handles) restartLocked() {
	key := make([]byte, sha256.Size)
	// crypto/rand does not fail on the systems Go supports.
	_, _ = rand.Read(key)
	h.oldKey, h.key = h.key, key
	h.acts = nil
	h.numbers = make(map[action]uint32)
}

// issue returns a fresh action id for a, usable by session only.
func (h *handles) issue(session any, a action) (string, error) {
	var id [idBytes]byte
	if _, err := io.ReadFull(h.rand, id[:handleBytes]); err != nil {
		return "", fmt.Errorf("reading random bits for an action id: %w", err)
	}
	now := h.now().Sub(h.epoch)
	binary.BigEndian.PutUint32(id[atOffset:], uint32(now/time.Second))
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.numbers[a]
	if !ok {
		if len(h.acts) >= h.maxActions {
			h.restartLocked()
		}
		n = uint32(len(h.acts))
		h.acts = append(h.acts, a)
		h.numbers[a] = n
	}
	putNumber(id[numOffset:macOffset], n^number(id[:actionBytes]))
	sign(id[macOffset:], h.key, id[:macOffset], h.sessionTagLocked(session))
	return handlePrefix + h.enc.EncodeToString(id[:]), nil
}

// number reads a big-endian action number of actionBytes bytes.
func number(b []byte) uint32 { return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2]) }

// putNumber writes n into b as number reads it.
func putNumber(b []byte, n uint32) { b[0], b[1], b[2] = byte(n>>16), byte(n>>8), byte(n) }

// sign writes into mac the MAC under key of body issued to the session
// tagged tag.
func sign(mac, key, body, tag []byte) {
	m := hmac.New(sha256.New, key)
	m.Write(body)
	m.Write(tag)
	copy(mac, m.Sum(nil))
}

// sessionTagLocked names a session in a MAC: a Streamable HTTP session by
// its id, a connection-bound one by random bits drawn when it was first
// seen and forgotten when it is collected (its address could be reused by
// a later session). h.mu must be held.
func (h *handles) sessionTagLocked(session any) []byte {
	switch s := session.(type) {
	case string:
		return []byte("id:" + s)
	case *mcp.ServerSession:
		if s != nil {
			return append([]byte("conn:"), h.connTagLocked(s)...)
		}
	case nil:
	default:
		panic(fmt.Sprintf("bridge: a session of type %T", session))
	}
	return []byte("none")
}

// connTagLocked returns the random bits that tag s, drawn when s is
// first seen. h.mu must be held.
func (h *handles) connTagLocked(s *mcp.ServerSession) []byte {
	k := weak.Make(s)
	tag, ok := h.conns[k]
	if !ok {
		_, _ = rand.Read(tag[:])
		h.conns[k] = tag
		runtime.AddCleanup(s, func(k weak.Pointer[mcp.ServerSession]) {
			h.mu.Lock()
			delete(h.conns, k)
			h.mu.Unlock()
		}, k)
	}
	return tag[:]
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
	now := h.now().Sub(h.epoch)
	h.mu.Lock()
	defer h.mu.Unlock()
	tag := h.sessionTagLocked(session)
	var want [handleMACBytes]byte
	sign(want[:], h.key, b[:macOffset], tag)
	if !hmac.Equal(want[:], b[macOffset:]) {
		// Issued under the key before the numbers started over: its
		// action is forgotten, as if it had expired.
		if h.oldKey != nil {
			sign(want[:], h.oldKey, b[:macOffset], tag)
			if hmac.Equal(want[:], b[macOffset:]) {
				return action{}, errHandleExpired
			}
		}
		return action{}, errHandleUnknown
	}
	// The MAC says this process issued the id to this session.
	at := time.Duration(binary.BigEndian.Uint32(b[atOffset:])) * time.Second
	n := number(b[numOffset:macOffset]) ^ number(b[:actionBytes])
	if now-at >= handleTTL || int(n) >= len(h.acts) {
		return action{}, errHandleExpired
	}
	return h.acts[n], nil
}
