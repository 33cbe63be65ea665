package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"
)

// Pin is the trusted definition of one tool and the last change seen to
// it. Definitions are the caller's bytes: the store compares only their
// hashes, and never reads them.
type Pin struct {
	Server string
	Tool   string
	// Hash identifies Definition, the pinned definition: the first one
	// stored, or the last one accepted or approved.
	Hash       string
	Definition []byte
	// ListedHash and Listed are the definition as listed when it differs
	// from the pin (a held change); "" and nil when the listing is the pin.
	ListedHash string
	Listed     []byte
	// Previous is the definition before the last change (nil if none),
	// Changed what that change changed, ChangedAt when it was seen.
	Previous  []byte
	Changed   []string
	ChangedAt time.Time
	// Held: the tool is neither searched nor run until approved; Reason
	// says why.
	Held       bool
	Reason     string
	ApprovedAt time.Time // zero: never approved
	// PinnedAt is when the pin was first written; the store sets it, and
	// keeps it through later changes. Zero for pins older than the column.
	PinnedAt time.Time
}

// Current returns the definition the server lists now: Listed when the
// listing differs from the pin, else the pin.
func (p *Pin) Current() (hash string, def []byte) {
	if p.ListedHash != "" {
		return p.ListedHash, p.Listed
	}
	return p.Hash, p.Definition
}

// A PinRule decides the pin of a tool as listed now (t, with its
// Definition and Hash): pinned is the tool's stored pin, nil on first
// sight. What it returns is stored, in the transaction that stores the
// tool. It runs inside that write: it must be quick and must not use the
// store.
type PinRule func(pinned *Pin, t *Tool) Pin

// ReplacePinned is [Store.ReplaceCatalog] that also pins the tools it
// stores: rule decides the pin of each listed tool that has a Definition
// (a nil rule pins nothing, as ReplaceCatalog). Pins of tools the listing
// no longer holds are kept, so that a tool that comes back is compared
// with its pin.
func (s *Store) ReplacePinned(ctx context.Context, srv Server, tools iter.Seq2[Tool, error], rule PinRule) error {
	return s.replaceCatalog(ctx, srv, tools, rule)
}

const pinColumns = `server, tool, hash, definition, listed_hash, listed, previous, changed, changed_at,
	held, reason, approved_at, pinned_at`

func scanPin(sc interface{ Scan(...any) error }) (Pin, error) {
	var (
		p                   Pin
		changed             string
		changedAt, approved sql.NullInt64
		pinnedAt            int64
	)
	err := sc.Scan(&p.Server, &p.Tool, &p.Hash, &p.Definition, &p.ListedHash, &p.Listed, &p.Previous,
		&changed, &changedAt, &p.Held, &p.Reason, &approved, &pinnedAt)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal([]byte(changed), &p.Changed); err != nil {
		return p, fmt.Errorf("reading what changed in %s/%s: %w", p.Server, p.Tool, err)
	}
	if changedAt.Valid {
		p.ChangedAt = time.UnixMilli(changedAt.Int64)
	}
	if approved.Valid {
		p.ApprovedAt = time.UnixMilli(approved.Int64)
	}
	if pinnedAt != 0 {
		p.PinnedAt = time.UnixMilli(pinnedAt)
	}
	return p, nil
}

// pinner runs a PinRule over one server's tools as they are stored, in
// the transaction that stores them: it reads each tool's stored pin when
// the tool comes, so that no listing's pins are held at once.
type pinner struct {
	server       string
	rule         PinRule
	now          time.Time // the PinnedAt of the pins this listing writes first
	read, upsert *sql.Stmt
}

func newPinner(ctx context.Context, tx *sql.Tx, server string, rule PinRule) (*pinner, error) {
	p := &pinner{server: server, rule: rule, now: time.UnixMilli(time.Now().UnixMilli())}
	var err error
	if p.read, err = tx.PrepareContext(ctx, "SELECT "+pinColumns+" FROM pins WHERE server = ? AND tool = ?"); err != nil {
		return nil, fmt.Errorf("preparing the pin reader: %w", err)
	}
	if p.upsert, err = tx.PrepareContext(ctx, `
INSERT INTO pins (`+pinColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition,
	listed_hash = excluded.listed_hash, listed = excluded.listed, previous = excluded.previous,
	changed = excluded.changed, changed_at = excluded.changed_at, held = excluded.held,
	reason = excluded.reason, approved_at = excluded.approved_at`); err != nil {
		p.read.Close()
		return nil, fmt.Errorf("preparing the pin statement: %w", err)
	}
	return p, nil
}

func (p *pinner) close() {
	p.read.Close()
	p.upsert.Close()
}

// pinning returns tools, each pinned before it is passed on; an error
// pinning one is yielded in its place.
func (p *pinner) pinning(ctx context.Context, tools iter.Seq2[Tool, error]) iter.Seq2[Tool, error] {
	return func(yield func(Tool, error) bool) {
		for t, err := range tools {
			if err == nil {
				err = p.pin(ctx, &t)
			}
			if !yield(t, err) || err != nil {
				return
			}
		}
	}
}

// pin runs the rule over one listed tool and stores its pin if it changed.
// A refused tool, or one with no Definition, is not pinned.
func (p *pinner) pin(ctx context.Context, t *Tool) error {
	if t.Definition == nil || t.Refusal != "" {
		return nil
	}
	var old *Pin
	stored, err := scanPin(p.read.QueryRowContext(ctx, p.server, t.Name))
	switch {
	case err == nil:
		old = &stored
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("reading the pin of %q: %w", t.Name, err)
	}
	pin := p.rule(old, t)
	pin.Server, pin.Tool = p.server, t.Name
	pin.PinnedAt = p.now // every pin of this listing that is new gets one time
	if old != nil {
		pin.PinnedAt = old.PinnedAt // the upsert keeps the stored one
	}
	if old != nil && samePin(old, &pin) {
		return nil
	}
	if _, err := p.upsert.ExecContext(ctx, pinArgs(&pin)...); err != nil {
		return fmt.Errorf("pinning tool %q: %w", t.Name, err)
	}
	return nil
}

// pinArgs are p's values in pinColumns order.
func pinArgs(p *Pin) []any {
	changed := p.Changed
	if changed == nil {
		changed = []string{}
	}
	list, _ := json.Marshal(changed) // a []string always encodes
	definition := p.Definition
	if definition == nil {
		definition = []byte{} // the column is NOT NULL
	}
	var pinnedAt int64
	if !p.PinnedAt.IsZero() {
		pinnedAt = p.PinnedAt.UnixMilli()
	}
	return []any{p.Server, p.Tool, p.Hash, definition, p.ListedHash, p.Listed, p.Previous, string(list),
		millisOrNull(p.ChangedAt), p.Held, p.Reason, millisOrNull(p.ApprovedAt), pinnedAt}
}

func millisOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// samePin reports whether storing b over a would change nothing.
func samePin(a, b *Pin) bool {
	return a.Hash == b.Hash && a.ListedHash == b.ListedHash && a.Held == b.Held && a.Reason == b.Reason &&
		a.ChangedAt.UnixMilli() == b.ChangedAt.UnixMilli() && a.ApprovedAt.UnixMilli() == b.ApprovedAt.UnixMilli() &&
		slices.Equal(a.Changed, b.Changed) && bytes.Equal(a.Previous, b.Previous)
}

// Pins lists the pins of a server's tools by tool name; server "" lists
// every server's, by server and tool.
func (s *Store) Pins(ctx context.Context, server string) ([]Pin, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+pinColumns+
		" FROM pins WHERE ? = '' OR server = ? ORDER BY server, tool", server, server)
	if err != nil {
		return nil, s.wrap("listing pins", err)
	}
	defer rows.Close()
	var out []Pin
	for rows.Next() {
		p, err := scanPin(rows)
		if err != nil {
			return nil, s.wrap("listing pins", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("listing pins", err)
	}
	return out, nil
}

// Pin returns the pin of one tool, or an error wrapping ErrNotFound.
func (s *Store) Pin(ctx context.Context, server, tool string) (*Pin, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	p, err := scanPin(s.db.QueryRowContext(ctx, "SELECT "+pinColumns+
		" FROM pins WHERE server = ? AND tool = ?", server, tool))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("reading the pin of %s/%s: %w", server, tool, ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap(fmt.Sprintf("reading the pin of %s/%s", server, tool), err)
	}
	return &p, nil
}

// IsHeld reports whether one tool is held; a tool with no pin is not. It
// reads the held flag alone, through a prepared statement: runs call it
// every time.
func (s *Store) IsHeld(ctx context.Context, server, tool string) (bool, error) {
	if err := s.await(ctx); err != nil {
		return false, err
	}
	// Runs call this every time: the operation is named only on failure.
	op := func() string { return fmt.Sprintf("checking whether %s/%s is held", server, tool) }
	// The partial index pins_held answers without reading the pin's row,
	// whose held column lies past the definitions (overflow pages).
	rows, err := s.stmts.query(ctx, "SELECT 1 FROM pins INDEXED BY pins_held WHERE server = ? AND tool = ? AND held <> 0", server, tool)
	if err != nil {
		return false, s.wrap(op(), err)
	}
	defer rows.Close()
	held := rows.Next()
	if err := rows.Err(); err != nil {
		return false, s.wrap(op(), err)
	}
	return held, nil
}

// HeldTool names one held tool and why it is held.
type HeldTool struct {
	Server, Tool, Reason string
}

// Held lists the held tools of every server, by server and tool. It reads
// an index of held pins only: discoveries call it every time.
func (s *Store) Held(ctx context.Context) ([]HeldTool, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.stmts.query(ctx, "SELECT server, tool, reason FROM pins WHERE held <> 0 ORDER BY server, tool")
	if err != nil {
		return nil, s.wrap("listing held tools", err)
	}
	defer rows.Close()
	var out []HeldTool
	for rows.Next() {
		var h HeldTool
		if err := rows.Scan(&h.Server, &h.Tool, &h.Reason); err != nil {
			return nil, s.wrap("listing held tools", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("listing held tools", err)
	}
	return out, nil
}

// Approve makes the definition server lists now the pin of tool (of each
// of server's tools when tool is "") and releases the held ones. It
// returns the pins it changed, as they were before: Held and Reason say
// what was released. A server or tool with no pin is an error wrapping
// ErrNotFound; approving what is already the pin changes nothing.
func (s *Store) Approve(ctx context.Context, server, tool string) ([]Pin, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	op := fmt.Sprintf("approving %s", server)
	if tool != "" {
		op += "/" + tool
	}
	var approved []Pin
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		approved = nil // a retried transaction starts again
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pins WHERE server = ? AND (? = '' OR tool = ?)",
			server, tool, tool).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return ErrNotFound
		}
		rows, err := tx.QueryContext(ctx, "SELECT "+pinColumns+
			" FROM pins WHERE server = ? AND (? = '' OR tool = ?) AND (held <> 0 OR listed_hash <> '') ORDER BY tool",
			server, tool, tool)
		if err != nil {
			return err
		}
		for rows.Next() {
			p, err := scanPin(rows)
			if err != nil {
				rows.Close()
				return err
			}
			approved = append(approved, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		now := time.Now().UnixMilli()
		for _, p := range approved {
			hash, def := p.Current()
			if _, err := tx.ExecContext(ctx, `
UPDATE pins SET hash = ?, definition = ?, listed_hash = '', listed = NULL, held = 0, reason = '', approved_at = ?
WHERE server = ? AND tool = ?`, hash, def, now, p.Server, p.Tool); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return approved, nil
}
