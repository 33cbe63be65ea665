package search

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
)

// listingVersion names how a listing becomes stored rows. Change it
// whenever normalization or the search text changes, so that catalogs
// stored by an older build are normalized again on their next listing
// instead of being recognized as unchanged.
//
//   - 2: record hashes cover the whole definition; tools are pinned.
//   - 3: older schema drafts are indexed, not refused; tools that need task
//     augmentation are refused; aliased inputs name their provider name;
//     CJK and Thai pieces, quoted spans as values (the search text).
//   - 4: the sentences most of a server's tools repeat leave the cards and
//     the search text's description (schema.Tool.Described).
const listingVersion = "capbridge-listing-4"

// ListingDigest identifies a server's catalog exactly as listed: SHA-256
// over listingVersion and each raw tool object's bytes, in order, each
// prefixed by its length. [Ingest] stores it as [store.Server.Listing] and
// skips normalizing and storing a catalog whose digest is the stored one.
func ListingDigest(raws []json.RawMessage) string {
	h := sha256.New()
	h.Write([]byte(listingVersion))
	var n [8]byte
	for _, r := range raws {
		binary.BigEndian.PutUint64(n[:], uint64(len(r)))
		h.Write(n[:])
		h.Write(r)
	}
	return hex.EncodeToString(h.Sum(nil))
}
