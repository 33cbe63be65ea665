package output

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"time"
)

// A cursor spells, in unpadded base64url after cursorPrefix, its random
// bits, the second it was issued (since Pager.epoch, big-endian) and a MAC
// of both and of the owner it was issued to, under a key each Pager draws
// at random. The MAC proves a cursor was issued, so the pager keeps only
// the cursors whose page it can still serve: one it no longer keeps
// answers [ErrCursorExpired] at no cost in memory.
//
// cursorBytes is a multiple of 3, so every character carries 6 bits of the
// cursor and each cursor has one spelling: 28 characters, 32 with the
// prefix.
const (
	cursorPrefix   = "cur_"
	cursorKeyBytes = 9 // 72 random bits: tell the kept cursors apart (redrawn on a clash)
	cursorMACBytes = 8 // HMAC-SHA256 of the rest and the owner, cut to 64 bits
	cursorBytes    = cursorKeyBytes + 4 + cursorMACBytes
	cursorChars    = cursorBytes / 3 * 4
)

// cursorID is a cursor as bytes; the zero value is no cursor.
type cursorID [cursorBytes]byte

// cursorKey is a cursor's random bits, its key among the kept cursors.
type cursorKey [cursorKeyBytes]byte

func (c cursorID) key() cursorKey { return cursorKey(c[:cursorKeyBytes]) }

// String returns the cursor as the model reads it.
func (c cursorID) String() string {
	return cursorPrefix + base64.RawURLEncoding.EncodeToString(c[:])
}

// mint returns a fresh cursor for owner, issued now (since p.epoch). p.mu
// must be held.
func (p *Pager) mint(owner any, now time.Duration) cursorID {
	var c cursorID
	for {
		// crypto/rand.Read never fails.
		rand.Read(c[:cursorKeyBytes])
		if _, clash := p.cursors[c.key()]; !clash {
			break
		}
	}
	binary.BigEndian.PutUint32(c[cursorKeyBytes:], uint32(now/time.Second))
	p.sign(c[cursorKeyBytes+4:], c[:cursorKeyBytes+4], owner)
	return c
}

// parse returns the cursor text spells if this pager issued it to owner.
// A forged, mistyped or another owner's or another pager's cursor is not
// ok.
func (p *Pager) parse(owner any, text string) (c cursorID, ok bool) {
	body, ok := strings.CutPrefix(text, cursorPrefix)
	if !ok || len(body) != cursorChars {
		return cursorID{}, false
	}
	if n, err := base64.RawURLEncoding.Strict().Decode(c[:], []byte(body)); err != nil || n != cursorBytes {
		return cursorID{}, false
	}
	var want [cursorMACBytes]byte
	p.sign(want[:], c[:cursorKeyBytes+4], owner)
	if !hmac.Equal(want[:], c[cursorKeyBytes+4:]) {
		return cursorID{}, false
	}
	return c, true
}

// sign writes into mac the MAC of body issued to owner.
func (p *Pager) sign(mac, body []byte, owner any) {
	m := hmac.New(sha256.New, p.key)
	m.Write(body)
	m.Write(ownerTag(owner))
	copy(mac, m.Sum(nil))
}

// ownerTag names an owner in a MAC: a string (a Streamable HTTP session
// id) by its value, any other owner (a session) by its address. A kept
// result holds its owner, so no later owner has that address while one of
// its cursors is kept; an old cursor could at worst answer "expired" there.
func ownerTag(owner any) []byte {
	switch o := owner.(type) {
	case nil:
		return []byte("none")
	case string:
		return []byte("id:" + o)
	}
	return fmt.Appendf(nil, "at:%p", owner)
}
