package store

// This file fixes the API other packages build against. The bodies are
// placeholders until the store lands; signatures change only by agreement.

import (
	"context"
	"errors"
	"time"
)

// Errors callers branch on.
var (
	ErrNotFound    = errors.New("store: not found")
	ErrNotCatalog  = errors.New("store: file is not a capbridge database")
	ErrNewerSchema = errors.New("store: database was written by a newer capbridge")
	ErrLocked      = errors.New("store: database is locked by another process")
)

var errTODO = errors.New("store: not implemented yet")

// Options configure Open. A nil *Options means defaults.
type Options struct {
	BusyTimeout time.Duration // default 5s
	// Logger *slog.Logger   // default discard
}

// Store is an open catalog database.
type Store struct{}

// Open opens (creating if needed) the catalog at path and migrates it.
func Open(ctx context.Context, path string, opts *Options) (*Store, error) { return nil, errTODO }

// Close closes the database.
func (s *Store) Close() error { return nil }

// Server is one configured upstream server's stored state.
type Server struct {
	Name        string
	Fingerprint string    // hash of the transport config (command/args/url), no secrets
	State       string    // e.g. "stored", "failing"
	LastListed  time.Time // zero if never listed
	LastError   string
	Tools       int   // stored (not refused) tools; filled by Servers
	Refused     int   // refused tools; filled by Servers
	Bytes       int64 // bytes of the raw catalog as listed
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
}

// ReplaceCatalog replaces srv's whole catalog in one transaction.
func (s *Store) ReplaceCatalog(ctx context.Context, srv Server, tools []Tool) error { return errTODO }

// RemoveServer removes a server and all its rows.
func (s *Store) RemoveServer(ctx context.Context, name string) error { return errTODO }

// SetServerState records a server's state and last error without touching its catalog.
func (s *Store) SetServerState(ctx context.Context, name, state, lastErr string) error { return errTODO }

// Servers lists stored servers with counts.
func (s *Store) Servers(ctx context.Context) ([]Server, error) { return nil, errTODO }

// Tool returns one non-refused tool by server and provider name.
func (s *Store) Tool(ctx context.Context, server, name string) (*Tool, error) { return nil, errTODO }

// ToolsByID returns the tools with these ids (missing ids are skipped).
func (s *Store) ToolsByID(ctx context.Context, ids []int64) ([]Tool, error) { return nil, errTODO }

// Tools lists a server's tools, refused ones included; server "" lists all.
func (s *Store) Tools(ctx context.Context, server string) ([]Tool, error) { return nil, errTODO }
