package store

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps the prepared statements of the queries every search
// runs, so that SQLite parses and plans each once per connection rather
// than once per search (database/sql re-prepares a *sql.Stmt on each
// pooled connection that first runs it, and keeps it there).
type stmtCache struct {
	db *sql.DB

	mu    sync.Mutex // guards stmts
	stmts map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: make(map[string]*sql.Stmt)}
}

// get returns the prepared statement for query, preparing it once.
func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = st
	return st, nil
}

// query runs query through its prepared statement.
func (c *stmtCache) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := c.get(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// close closes every prepared statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.stmts {
		st.Close()
		delete(c.stmts, q)
	}
}
