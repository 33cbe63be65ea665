package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Feature is one stored prompt, resource or resource template of a
// server. The store keeps Definition as opaque bytes and never reads it.
type Feature struct {
	Server string
	Kind   string // "prompt", "resource" or "template"
	// Key addresses the feature as the server gave it: a prompt's name, a
	// resource's uri, a template's uriTemplate. Unique per server and kind.
	Key        string
	Hash       string // identifies Definition
	Definition []byte

	// PinName, when set, is the name the feature's pin is kept under in the
	// pins table, beside the tools' pins (the caller keeps the two apart);
	// Record is what the rule of [Store.ReplaceFeatures] reads of it, as a
	// tool's record. Neither is stored in the feature's row, and features
	// read back have neither.
	PinName string
	Record  []byte
}

// FeatureListing is what one listing of a server's prompts, resources and
// resource templates stored.
type FeatureListing struct {
	// Capabilities are the server's capabilities as it declared them
	// (JSON); nil when the server was never listed.
	Capabilities []byte
	// Note says what the listing left out and why; "" when nothing.
	Note string
	// Digest identifies the listing as the server sent it (the caller
	// computes it); [Store.FeaturesListed] returns it.
	Digest   string
	Features []Feature
}

// ReplaceFeatures replaces server's prompts, resources and templates, its
// capabilities and its note with l, in one transaction; rule (nil: none)
// decides the pin of each feature with a PinName, as [Store.ReplacePinned]
// does for tools. The server must be stored (see [Store.ReplaceCatalog]):
// an unknown one is ErrNotFound.
func (s *Store) ReplaceFeatures(ctx context.Context, server string, l FeatureListing, rule PinRule) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	return s.write(ctx, fmt.Sprintf("replacing prompts and resources of %q", server), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE servers SET capabilities = ?, features_note = ?, features_listing = ? WHERE name = ?",
			l.Capabilities, l.Note, l.Digest, server)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM features WHERE server = ?", server); err != nil {
			return err
		}
		insert, err := tx.PrepareContext(ctx, "INSERT INTO features (server, kind, key, hash, definition) VALUES (?, ?, ?, ?, ?)")
		if err != nil {
			return err
		}
		defer insert.Close()
		var pins *pinner
		if rule != nil {
			if pins, err = newPinner(ctx, tx, server, rule); err != nil {
				return err
			}
			defer pins.close()
		}
		for _, f := range l.Features {
			if _, err := insert.ExecContext(ctx, server, f.Kind, f.Key, f.Hash, f.Definition); err != nil {
				return fmt.Errorf("storing %s %q: %w", f.Kind, f.Key, err)
			}
			if pins == nil || f.PinName == "" {
				continue
			}
			t := Tool{Name: f.PinName, Hash: f.Hash, Definition: f.Definition, Record: f.Record}
			if err := pins.pin(ctx, &t); err != nil {
				return err
			}
		}
		return nil
	})
}

// FeaturesListed returns what the last [Store.ReplaceFeatures] of server
// stored: its listing's digest, how many features, and its note. A server
// never stored, or whose features were never stored, has digest "".
func (s *Store) FeaturesListed(ctx context.Context, server string) (digest string, n int, note string, err error) {
	if err := s.await(ctx); err != nil {
		return "", 0, "", err
	}
	err = s.db.QueryRowContext(ctx, `
SELECT s.features_listing, s.features_note, (SELECT count(*) FROM features f WHERE f.server = s.name)
FROM servers s WHERE s.name = ?`, server).Scan(&digest, &note, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, "", nil
	}
	if err != nil {
		return "", 0, "", s.wrap(fmt.Sprintf("reading the prompts and resources listed by %q", server), err)
	}
	return digest, n, note, nil
}

// Features lists the stored prompts, resources and templates of every
// server, by server, kind and key.
func (s *Store) Features(ctx context.Context) ([]Feature, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT server, kind, key, hash, definition FROM features ORDER BY server, kind, key")
	if err != nil {
		return nil, s.wrap("listing prompts and resources", err)
	}
	defer rows.Close()
	var out []Feature
	for rows.Next() {
		var f Feature
		if err := rows.Scan(&f.Server, &f.Kind, &f.Key, &f.Hash, &f.Definition); err != nil {
			return nil, s.wrap("listing prompts and resources", err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("listing prompts and resources", err)
	}
	return out, nil
}

// ServerFeatures is what a server's last feature listing recorded.
type ServerFeatures struct {
	Server       string
	Capabilities []byte // nil: never listed
	Note         string
}

// FeatureListings returns, by server, the capabilities and note of every
// stored server.
func (s *Store) FeatureListings(ctx context.Context) ([]ServerFeatures, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT name, capabilities, features_note FROM servers ORDER BY name")
	if err != nil {
		return nil, s.wrap("reading server capabilities", err)
	}
	defer rows.Close()
	var out []ServerFeatures
	for rows.Next() {
		var sf ServerFeatures
		if err := rows.Scan(&sf.Server, &sf.Capabilities, &sf.Note); err != nil {
			return nil, s.wrap("reading server capabilities", err)
		}
		out = append(out, sf)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("reading server capabilities", err)
	}
	return out, nil
}

// PeekCapabilities returns, by server, the capabilities each stored server
// declared, without waiting for [OpenChecking]'s check: what capbridge
// declares to a client at initialize depends on them, and initialize must
// not wait for SQLite to read every page. Nothing read here is served; a
// damaged catalog can only make the flags capbridge declares wrong until
// the check is over. The Note of each listing is left empty.
func (s *Store) PeekCapabilities(ctx context.Context) ([]ServerFeatures, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name, capabilities FROM servers WHERE capabilities IS NOT NULL ORDER BY name")
	if err != nil {
		return nil, s.wrap("peeking at server capabilities", err)
	}
	defer rows.Close()
	var out []ServerFeatures
	for rows.Next() {
		var sf ServerFeatures
		if err := rows.Scan(&sf.Server, &sf.Capabilities); err != nil {
			return nil, s.wrap("peeking at server capabilities", err)
		}
		out = append(out, sf)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("peeking at server capabilities", err)
	}
	return out, nil
}
