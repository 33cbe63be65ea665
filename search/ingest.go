package search

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"slices"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

// IngestOptions configure Ingest. A nil *IngestOptions means defaults.
type IngestOptions struct {
	// Logger receives a warning when embedding fails; default discard.
	Logger *slog.Logger
	// Embedder, if set, embeds new and changed tools after they are stored.
	Embedder *Embedder
	// Consume lets Ingest let go of each raw tool (raws[i] = nil) once it
	// is normalized and stored: a 5,000-tool listing is 16 MB that need not
	// stay alive while the catalog is stored. The caller must not read raws
	// after.
	Consume bool
	// Pin, if set, decides each stored tool's pin in the transaction that
	// stores the catalog (see [store.Store.ReplacePinned]).
	Pin store.PinRule
	// Neighbours, if set, are the other servers of the bridge's catalog,
	// whose tool names the poisoning detector checks the texts against
	// (see [schema.Neighbours]). A listing read with other neighbours than
	// the stored one is normalized again.
	Neighbours *schema.Neighbours
}

// IngestReport says what Ingest did with one server's catalog.
type IngestReport struct {
	Server   string
	Stored   int              // searchable tools stored
	Refused  []schema.Refusal // tools refused, with reasons (stored for `capbridge servers`)
	Bytes    int64            // bytes of the raw catalog
	Embedded int              // tools embedded by the endpoint in this run
	Cached   int              // tools whose embedding came from the cache
	// EmbedErr is the embedding failure, if any; the catalog is stored
	// and searchable without vectors all the same.
	EmbedErr error
	// Unchanged: the listing was the one stored (same [ListingDigest]), so
	// the stored catalog was kept as it was and only the server row updated.
	Unchanged bool
}

// Ingest normalizes a server's raw tools (as tools/list sent them),
// prepares their search text and replaces the server's stored catalog in
// one transaction. Refused tools are stored with their reason and are
// never searchable. With an embedder it then embeds the searchable tools
// that have no vector yet, reusing cached vectors by content hash, so a
// refresh embeds only what changed; an embedding failure is logged once
// and reported, and does not fail the ingest. srv.Bytes, when zero, is
// set to the raw catalog's size. A catalog whose [ListingDigest] is the
// one stored for srv is not normalized nor stored again (the report says
// Unchanged): a refresh that changed nothing costs a hash and a row.
func Ingest(ctx context.Context, st *store.Store, srv store.Server, raws []json.RawMessage, opts *IngestOptions) (*IngestReport, error) {
	var o IngestOptions
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	rep := &IngestReport{Server: srv.Name}
	for _, r := range raws {
		rep.Bytes += int64(len(r))
	}
	if srv.Bytes == 0 {
		srv.Bytes = rep.Bytes
	}
	srv.Listing = ListingDigest(raws)
	if d := o.Neighbours.Digest(); d != "" {
		srv.Listing += " " + d
	}
	same, err := st.TouchCatalog(ctx, srv)
	if err != nil {
		return nil, fmt.Errorf("ingesting catalog of %q: %w", srv.Name, err)
	}
	if same != nil {
		rep.Unchanged, rep.Stored = true, same.Stored
		for _, t := range same.Refused {
			rep.Refused = append(rep.Refused, schema.Refusal{Tool: t.Name, Reason: t.Refusal})
		}
	} else {
		var made rowsMade
		rows := catalogRows(srv.Name, raws, o.Consume, o.Neighbours, &made)
		if o.Pin != nil {
			err = st.ReplacePinned(ctx, srv, rows, o.Pin)
		} else {
			err = st.ReplaceCatalog(ctx, srv, rows)
		}
		if err != nil {
			return nil, fmt.Errorf("ingesting catalog of %q: %w", srv.Name, err)
		}
		rep.Stored, rep.Refused = made.stored, made.refused
	}
	if o.Embedder != nil {
		rep.Embedded, rep.Cached, rep.EmbedErr = embedMissing(ctx, st, o.Embedder)
		if rep.EmbedErr != nil {
			o.Logger.Warn("search: embedding the catalog failed; it is searchable without vectors",
				"server", srv.Name, "err", rep.EmbedErr)
		}
	}
	return rep, nil
}

// rowsMade is what catalogRows made, once its rows were read.
type rowsMade struct {
	stored  int              // searchable rows
	refused []schema.Refusal // one row each
}

// catalogRows returns the store rows of raws, each normalized as it is
// read, so that neither all normalized tools nor all rows are ever held
// at once; with consume, each raw tool is let go too (raws[i] = nil) once
// normalized. Refused tools come last and keep their reason; one with no
// name, or a name already taken (a duplicate), is stored under a label
// that says so, since stored names are unique per server. Once the rows
// were read, made says what they were.
func catalogRows(server string, raws []json.RawMessage, consume bool, nb *schema.Neighbours, made *rowsMade) iter.Seq2[store.Tool, error] {
	return func(yield func(store.Tool, error) bool) {
		*made = rowsMade{}
		taken := make(map[string]bool, len(raws))
		stopped := false
		refused := schema.NormalizeCatalog(server, raws, &schema.CatalogOptions{Neighbours: nb}, func(i int, t *schema.Tool) {
			if consume {
				raws[i] = nil
			}
			if stopped {
				return
			}
			row, err := catalogRow(t)
			if err != nil {
				yield(store.Tool{}, err)
				stopped = true
				return
			}
			taken[t.Record.Name] = true
			made.stored++
			stopped = !yield(row, nil)
		})
		made.refused = refused
		if stopped {
			return
		}
		for _, r := range refused {
			base := r.Tool
			if base == "" {
				base = "(unnamed)"
			}
			name := base
			for n := 2; taken[name]; n++ {
				name = fmt.Sprintf("%s (refused %d)", base, n)
			}
			taken[name] = true
			if !yield(store.Tool{Name: name, Refusal: r.Reason}, nil) {
				return
			}
		}
	}
}

// catalogRow turns one normalized tool into its store row.
func catalogRow(t *schema.Tool) (store.Tool, error) {
	rec, err := json.Marshal(t.Record)
	if err != nil {
		return store.Tool{}, fmt.Errorf("encoding record of %q: %w", t.Record.Name, err)
	}
	card, err := json.Marshal(t.Card)
	if err != nil {
		return store.Tool{}, fmt.Errorf("encoding card of %q: %w", t.Record.Name, err)
	}
	return store.Tool{Name: t.Record.Name, Hash: t.Record.Hash, Record: rec, Card: card, Doc: Document(t),
		Definition: t.Definition}, nil
}

// embedMissing embeds every searchable tool without a vector: from the
// cache when its content hash was embedded before by this model, else
// through the endpoint in batches.
func embedMissing(ctx context.Context, st *store.Store, e *Embedder) (embedded, cached int, err error) {
	if e.Dim() == 0 {
		// Learn the dimension with a first small call before creating the table.
		if _, err := e.Embed(ctx, []string{"dimension probe"}); err != nil {
			return 0, 0, err
		}
	}
	if err := st.EnsureVectors(ctx, e.Dim()); err != nil {
		return 0, 0, fmt.Errorf("preparing vector table: %w", err)
	}
	missing, err := st.ToolsWithoutVectors(ctx)
	if err != nil {
		return 0, 0, err
	}
	var vs []store.Vector
	var todo []store.Tool
	for _, t := range missing {
		v, ok, err := st.CachedVector(ctx, e.Model(), t.ContentHash)
		if err != nil {
			return 0, 0, err
		}
		if ok && len(v) == e.Dim() {
			vs = append(vs, store.Vector{ToolID: t.ID, ContentHash: t.ContentHash, Vec: v})
			continue
		}
		todo = append(todo, t)
	}
	cached = len(vs)
	if len(vs) > 0 {
		if err := st.PutVectors(ctx, e.Model(), vs); err != nil {
			return 0, cached, fmt.Errorf("storing cached vectors: %w", err)
		}
	}
	// One batch at a time, stored as it comes, so a failure keeps the rest.
	for batch := range slices.Chunk(todo, e.batch) {
		texts := make([]string, len(batch))
		for i, t := range batch {
			texts[i] = embedText(t.Doc)
		}
		got, err := e.Embed(ctx, texts)
		if err != nil {
			return embedded, cached, err
		}
		vs = vs[:0]
		for i, t := range batch {
			vs = append(vs, store.Vector{ToolID: t.ID, ContentHash: t.ContentHash, Vec: got[i]})
		}
		if err := st.PutVectors(ctx, e.Model(), vs); err != nil {
			return embedded, cached, fmt.Errorf("storing vectors: %w", err)
		}
		embedded += len(batch)
	}
	return embedded, cached, nil
}
