package store

import (
	"context"
	"sync"
)

// ServerWords says what a catalog's servers are about, for some tokens
// (as stem.Words makes them): how many of each server's searchable tools
// hold each token in their name or description, beside how many
// searchable tools each server has.
type ServerWords struct {
	// Tools counts each server's searchable tools.
	Tools map[string]int
	// Holding counts, for each token, the tools of each server that hold
	// it in their name or description.
	Holding map[string]map[string]int
}

// ServerWords reads the posting lists of toks and counts their tools by
// server.
func (s *Store) ServerWords(ctx context.Context, toks []string) (ServerWords, error) {
	if err := s.await(ctx); err != nil {
		return ServerWords{}, err
	}
	lists, _, _, version, err := s.readPostings(ctx, toks)
	if err != nil {
		return ServerWords{}, err
	}
	byTool, tools, err := s.toolServers(ctx, version)
	if err != nil {
		return ServerWords{}, err
	}
	out := ServerWords{Tools: tools, Holding: make(map[string]map[string]int, len(lists))}
	for tok, ps := range lists {
		per := make(map[string]int)
		for _, p := range ps {
			if p.counts[0] == 0 && p.counts[1] == 0 {
				continue // in its parameters only
			}
			if server, ok := byTool[p.id]; ok {
				per[server]++
			}
		}
		out.Holding[tok] = per
	}
	return out, nil
}

// serverCache keeps each searchable tool's server and each server's
// count of them, for one catalog version.
type serverCache struct {
	mu      sync.Mutex
	version string
	byTool  map[int64]string
	tools   map[string]int
}

// toolServers returns each searchable tool's server and each server's
// count of them, read again when the catalog's version is not version.
// The maps are shared: callers only read them.
func (s *Store) toolServers(ctx context.Context, version string) (map[int64]string, map[string]int, error) {
	c := &s.servers
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byTool != nil && c.version == version {
		return c.byTool, c.tools, nil
	}
	const op = "reading tools' servers"
	rows, err := s.stmts.query(ctx, `SELECT id, server FROM tools WHERE refusal = ''`)
	if err != nil {
		return nil, nil, s.wrap(op, err)
	}
	defer rows.Close()
	byTool := make(map[int64]string)
	tools := make(map[string]int)
	for rows.Next() {
		var id int64
		var server string
		if err := rows.Scan(&id, &server); err != nil {
			return nil, nil, s.wrap(op, err)
		}
		byTool[id] = server
		tools[server]++
	}
	if err := rows.Err(); err != nil {
		return nil, nil, s.wrap(op, err)
	}
	c.version, c.byTool, c.tools = version, byTool, tools
	return byTool, tools, nil
}
