package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Servers lists stored servers with counts, by name.
func (s *Store) Servers(ctx context.Context) ([]Server, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, listServers)
	if err != nil {
		return nil, s.wrap("listing servers", err)
	}
	defer rows.Close()
	var out []Server
	for rows.Next() {
		var srv Server
		var listed sql.NullInt64
		if err := rows.Scan(&srv.Name, &srv.Fingerprint, &srv.State, &listed, &srv.LastError, &srv.Bytes,
			&srv.Listing, &srv.Tools, &srv.Refused, &srv.Held); err != nil {
			return nil, s.wrap("listing servers", err)
		}
		if listed.Valid {
			srv.LastListed = time.UnixMilli(listed.Int64)
		}
		out = append(out, srv)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("listing servers", err)
	}
	return out, nil
}

// listServers lists the servers with their counts of tools, refusals and
// held tools. Discovery asks for it whenever no card is close, so every
// count comes from an index that holds no records or cards: a join
// counting the tools table itself read all of a 5,000-tool catalog's
// pages, tens of milliseconds a discovery.
const listServers = `
SELECT s.name, s.fingerprint, s.state, s.last_listed, s.last_error, s.bytes, s.listing,
	(SELECT count(*) FROM tools t WHERE t.server = s.name AND t.refusal = ''),
	(SELECT count(*) FROM tools t WHERE t.server = s.name AND t.refusal <> ''),
	(SELECT count(*) FROM pins p WHERE p.server = s.name AND p.held <> 0
		AND EXISTS (SELECT 1 FROM tools h WHERE h.server = p.server AND h.name = p.tool AND h.refusal = ''))
FROM servers s ORDER BY s.name`

const toolColumns = `id, server, name, hash, record, card, refusal, content_hash,
	doc_name, doc_desc, doc_params, doc_param_descs, doc_enums, card_sum`

func scanTool(sc interface{ Scan(...any) error }) (Tool, error) {
	var t Tool
	err := sc.Scan(&t.ID, &t.Server, &t.Name, &t.Hash, &t.Record, &t.Card, &t.Refusal, &t.ContentHash,
		&t.Doc.Name, &t.Doc.Desc, &t.Doc.Params, &t.Doc.ParamDescs, &t.Doc.Enums, &t.CardSum)
	return t, err
}

// Tool returns one non-refused tool by server and provider name, or an
// error wrapping ErrNotFound.
func (s *Store) Tool(ctx context.Context, server, name string) (*Tool, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	row := s.db.QueryRowContext(ctx, "SELECT "+toolColumns+
		" FROM tools WHERE server = ? AND name = ? AND refusal = ''", server, name)
	t, err := scanTool(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("reading tool %s/%s: %w", server, name, ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap(fmt.Sprintf("reading tool %s/%s", server, name), err)
	}
	return &t, nil
}

// ToolsByID returns the tools with these ids, in the order asked (missing
// ids are skipped; an id asked twice comes back twice). A refused tool
// comes back too, with its Refusal set.
func (s *Store) ToolsByID(ctx context.Context, ids []int64) ([]Tool, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	return s.byID(ctx, "reading tools by id", toolColumns, scanTool, ids)
}

// docColumns are what ToolDocs reads.
const docColumns = `id, server, name, refusal, doc_name, doc_desc`

// ToolDocs is ToolsByID reading only what ranking needs: each Tool has its
// ID, Server, Name, Refusal, Doc.Name and Doc.Desc, and nothing else.
// Ranking reads a few dozen candidates per search and shows a handful;
// records and cards run to kilobytes.
func (s *Store) ToolDocs(ctx context.Context, ids []int64) ([]Tool, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	return s.byID(ctx, "reading tool texts by id", docColumns, scanDoc, ids)
}

func scanDoc(sc interface{ Scan(...any) error }) (Tool, error) {
	var t Tool
	err := sc.Scan(&t.ID, &t.Server, &t.Name, &t.Refusal, &t.Doc.Name, &t.Doc.Desc)
	return t, err
}

// byID reads columns of the tools with these ids through scan, in the
// order asked.
func (s *Store) byID(ctx context.Context, op, columns string, scan func(interface{ Scan(...any) error }) (Tool, error), ids []int64) ([]Tool, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	rows, err := s.stmts.query(ctx, "SELECT "+columns+
		" FROM tools WHERE id IN (SELECT value FROM json_each(?))", string(list))
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	byID := make(map[int64]Tool, len(ids))
	for rows.Next() {
		t, err := scan(rows)
		if err != nil {
			return nil, s.wrap(op, err)
		}
		byID[t.ID] = t
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	out := make([]Tool, 0, len(byID))
	for _, id := range ids {
		if t, ok := byID[id]; ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// Tools lists a server's tools, refused ones included, by server and name;
// server "" lists all.
func (s *Store) Tools(ctx context.Context, server string) ([]Tool, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+toolColumns+
		" FROM tools WHERE ? = '' OR server = ? ORDER BY server, name", server, server)
	if err != nil {
		return nil, s.wrap("listing tools", err)
	}
	return collectTools(rows, s, "listing tools")
}

func collectTools(rows *sql.Rows, s *Store, op string) ([]Tool, error) {
	defer rows.Close()
	var out []Tool
	for rows.Next() {
		t, err := scanTool(rows)
		if err != nil {
			return nil, s.wrap(op, err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// ToolNames lists the names of each server's searchable tools that are
// not held for review, by server and name.
func (s *Store) ToolNames(ctx context.Context) (map[string][]string, error) {
	const op = "listing tool names"
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `
SELECT t.server, t.name FROM tools AS t LEFT JOIN pins AS p ON p.server = t.server AND p.tool = t.name
WHERE t.refusal = '' AND ifnull(p.held, 0) = 0 ORDER BY t.server, t.name`)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out := make(map[string][]string)
	for rows.Next() {
		var server, name string
		if err := rows.Scan(&server, &name); err != nil {
			return nil, s.wrap(op, err)
		}
		out[server] = append(out[server], name)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}
