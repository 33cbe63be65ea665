package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
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
	notes := append([]string(nil), l.Refusals...)
	listing := store.FeatureListing{Capabilities: l.Capabilities}
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
