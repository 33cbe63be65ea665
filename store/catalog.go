package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"time"
)

// Server is one configured upstream server's stored state.
type Server struct {
	Name        string
	Fingerprint string    // hash of the transport config (command/args/url), no secrets
	State       string    // e.g. "stored", "failing"
	LastListed  time.Time // zero if never listed
	LastError   string
	Tools       int   // stored (not refused) tools; filled by Servers
	Refused     int   // refused tools; filled by Servers
	Held        int   // stored tools held until approved; filled by Servers
	Bytes       int64 // bytes of the raw catalog as listed
	// Listing identifies the catalog as listed (a digest the caller
	// computes); "" when unknown. See [Store.TouchCatalog].
	Listing string
}

// Doc is the prepared search text of one tool, one field per FTS5 column.
type Doc struct {
	Name       string // tool name split into words (and the raw name)
	Desc       string // sanitized description
	Params     string // parameter names, split into words
	ParamDescs string // parameter descriptions
	Enums      string // enum values
}

// Tool is one stored tool row. A refused tool has Refusal set and no
// Record/Card; it is kept for `capbridge servers` and never searched.
type Tool struct {
	ID      int64
	Server  string
	Name    string
	Hash    string // schema hash
	Record  []byte // schema.Record as JSON
	Card    []byte // schema.Card as JSON
	Doc     Doc
	Refusal string
	// Definition is the tool's whole definition as the caller pins it
	// (opaque bytes; Hash identifies it). [Store.ReplacePinned] passes it
	// to its rule and keeps it in the tool's pin, not in the tool's row:
	// tools read back have none.
	Definition []byte
	// ContentHash identifies Doc's text (SHA-256, hex). The store computes
	// it; ReplaceCatalog ignores what the caller sets. It is the key of the
	// embedding cache.
	ContentHash string
	// CardSum is [CardSum] of Card as the store wrote it; the store
	// computes it, and ReplaceCatalog ignores what the caller sets. A tool
	// read back whose Card does not match it was changed outside the store.
	CardSum string
}

// CardSum is the SHA-256, in hex, that the store keeps of a card it
// writes.
func CardSum(card []byte) string {
	sum := sha256.Sum256(card)
	return hex.EncodeToString(sum[:])
}

// StateStored is the server state ReplaceCatalog records when srv.State is empty.
const StateStored = "stored"

// ReplaceCatalog replaces srv's whole catalog in one transaction: the
// server row (fingerprint, state, last error, bytes, last listed), its
// tools, and their word, trigram, vocabulary and vector rows. If anything
// fails, the previous catalog stays whole. When search rows changed, the
// search index is merged in the same transaction, so that searches do not
// walk one index segment per write.
//
// A tool whose name was already stored keeps its id, and keeps its search
// and vector rows when its Doc is unchanged, so a refresh that changes
// nothing rewrites little. Tool.ID and Tool.Server of tools are ignored;
// names must be unique. An empty srv.State becomes [StateStored] and a zero
// srv.LastListed the current time.
//
// tools is read once, inside the transaction, one tool at a time: a caller
// that makes each as it is asked for never holds the whole catalog. An
// error it yields fails the replace.
func (s *Store) ReplaceCatalog(ctx context.Context, srv Server, tools iter.Seq2[Tool, error]) error {
	return s.replaceCatalog(ctx, srv, tools, nil)
}

// replaceCatalog is ReplaceCatalog, and ReplacePinned when rule is not nil.
func (s *Store) replaceCatalog(ctx context.Context, srv Server, tools iter.Seq2[Tool, error], rule PinRule) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	if srv.Name == "" {
		return fmt.Errorf("replacing catalog: %w", errors.New("empty server name"))
	}
	if srv.State == "" {
		srv.State = StateStored
	}
	if srv.LastListed.IsZero() {
		srv.LastListed = time.Now()
	}
	return s.write(ctx, fmt.Sprintf("replacing catalog of %q", srv.Name), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
INSERT INTO servers (name, fingerprint, state, last_listed, last_error, bytes, listing)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint, state = excluded.state,
	last_listed = excluded.last_listed, last_error = excluded.last_error, bytes = excluded.bytes,
	listing = excluded.listing`,
			srv.Name, srv.Fingerprint, srv.State, srv.LastListed.UnixMilli(), srv.LastError, srv.Bytes, srv.Listing,
		); err != nil {
			return fmt.Errorf("writing server row: %w", err)
		}
		old, err := storedDocs(ctx, tx, srv.Name)
		if err != nil {
			return err
		}
		w, err := newIndexWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		if rule != nil {
			pins, err := newPinner(ctx, tx, srv.Name, rule)
			if err != nil {
				return err
			}
			defer pins.close()
			tools = pins.pinning(ctx, tools)
		}
		if err := w.replace(ctx, srv.Name, old, tools); err != nil {
			return err
		}
		return w.finish(ctx)
	})
}

// RemoveServer removes a server and all its rows: tools, word, trigram,
// vocabulary and vector rows. Call telemetry is kept. An unknown server
// is ErrNotFound.
func (s *Store) RemoveServer(ctx context.Context, name string) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	return s.write(ctx, fmt.Sprintf("removing server %q", name), func(tx *sql.Tx) error {
		old, err := storedDocs(ctx, tx, name)
		if err != nil {
			return err
		}
		w, err := newIndexWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		for _, o := range old {
			if err := w.unindex(ctx, o); err != nil {
				return err
			}
		}
		if err := w.finish(ctx); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM servers WHERE name = ?", name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// SetServerState records a server's state and last error without touching
// its catalog, adding the server row if there is none yet.
func (s *Store) SetServerState(ctx context.Context, name, state, lastErr string) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	return s.write(ctx, fmt.Sprintf("setting state of %q", name), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
INSERT INTO servers (name, state, last_error) VALUES (?, ?, ?)
ON CONFLICT (name) DO UPDATE SET state = excluded.state, last_error = excluded.last_error`,
			name, state, lastErr)
		return err
	})
}
