package bridge

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

// indexFeatures lists s's prompts, resources and resource templates and
// stores them beside its tools (which must be stored already), checked by
// the detector and pinned by the same rule as its tools (see pinRule): a
// held one is not offered until `capbridge approve SERVER/KIND:KEY`. What
// the listing or the checks left out is kept as the server's note, and
// logged. serverPinned says whether the server was pinned before this
// listing (see pinRule). It returns how many were stored, and the note.
func indexFeatures(ctx context.Context, s config.Server, bc config.Bridge, st *store.Store, ups *upstream.Pool, serverPinned bool, logger *slog.Logger) (int, string, error) {
	l, err := ups.ListFeatures(ctx, s.Name)
	if err != nil {
		return 0, "", err
	}
	digest := featuresDigest(l)
	stored, n, note, err := st.FeaturesListed(ctx, s.Name)
	if err != nil {
		return 0, "", err
	}
	if stored == digest {
		// Listed as last time: checked, pinned and stored then. A server
		// re-listed on every start (each first run of a serve) costs a
		// hash, not the detector over thousands of definitions.
		return n, note, nil
	}
	notes := append([]string(nil), l.Refusals...)
	listing := store.FeatureListing{Capabilities: l.Capabilities, Digest: digest}
	refused := 0
	for _, part := range []struct {
		kind string
		raws []json.RawMessage
	}{{schema.KindPrompt, l.Prompts}, {schema.KindResource, l.Resources}, {schema.KindTemplate, l.Templates}} {
		seen := map[string]bool{}
		for _, raw := range part.raws {
			f, err := schema.NormalizeFeature(part.kind, raw)
			var re *schema.RefusalError
			switch {
			case errors.As(err, &re):
				refused++
				logger.Warn("not indexed", "server", s.Name, "kind", part.kind, "key", re.Tool, "reason", re.Reason)
				continue
			case err != nil:
				return 0, "", err
			}
			if seen[f.Key] {
				// The first copy is kept: the server answers for one of them.
				notes = append(notes, fmt.Sprintf("%s %q listed twice", part.kind, f.Key))
				continue
			}
			seen[f.Key] = true
			record, _ := json.Marshal(struct {
				Flags []schema.Flag `json:"flags,omitempty"`
			}{f.Flags}) // flags always encode
			listing.Features = append(listing.Features, store.Feature{
				Kind: f.Kind, Key: f.Key, Hash: f.Hash, Definition: f.Definition,
				PinName: featurePin(f.Kind, f.Key), Record: record,
			})
		}
	}
	if refused > 0 {
		notes = append(notes, fmt.Sprintf("%d prompts, resources or templates refused (see the log)", refused))
	}
	listing.Note = strings.Join(notes, "; ")
	if err := st.ReplaceFeatures(ctx, s.Name, listing, pinRule(bc, s.Name, serverPinned, logger, time.Now)); err != nil {
		return 0, "", err
	}
	return len(listing.Features), listing.Note, nil
}

// featuresListingVersion names how a listing of prompts, resources and
// templates is read into the catalog; a change to that (normalizing,
// checks) changes it, so that every stored listing is read again.
const featuresListingVersion = "capbridge-features-1"

// featuresDigest identifies a listing of prompts, resources and templates
// exactly as sent: SHA-256 over featuresListingVersion, the declared
// capabilities, what the listing left out, and each definition's bytes,
// each part prefixed by its length.
func featuresDigest(l *upstream.Features) string {
	h := sha256.New()
	part := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	part([]byte(featuresListingVersion))
	part(l.Capabilities)
	for _, r := range l.Refusals {
		part([]byte(r))
	}
	for _, list := range [][]json.RawMessage{l.Prompts, l.Resources, l.Templates} {
		part([]byte(strconv.Itoa(len(list))))
		for _, raw := range list {
			part(raw)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
