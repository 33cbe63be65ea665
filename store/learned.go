package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Learned is one run the model made after a discovery: the tool it chose
// for an intent. It is kept in the catalog file, on this machine only.
type Learned struct {
	At time.Time
	// Words are the intent's words as the search normalizes them; at
	// most MaxLearnedWords are kept.
	Words        []string
	Server, Tool string
	// Hash is the tool's definition hash when its card was shown: the
	// evidence holds for that definition only.
	Hash string
	// Weight is how much the run says, in (0, 1]: 1 for a run that
	// succeeded, less for one that failed or was soon asked again.
	Weight float64
}

// LearnedUse is a Learned whose tool is in the catalog today, with the
// definition it was chosen for.
type LearnedUse struct {
	Learned
	ToolID int64
}

// Bounds of what is learned.
const (
	// MaxLearned is the most runs kept: past it the oldest are dropped,
	// down to three quarters of it, so that readers holding the runs in
	// memory (see LearnedSince) read them all again seldom.
	MaxLearned = 2000
	// MaxLearnedWords is the most words kept of one intent.
	MaxLearnedWords = 32
)

// ErrBadLearned is returned for a Learned that cannot be stored: no
// words, no tool, or a weight outside (0, 1].
var ErrBadLearned = errors.New("store: learned run needs words, a tool and a weight in (0, 1]")

// metaLearnedEpoch is the meta key counting the deletions of learned
// runs: a reader's copy of the runs is whole while it and the catalog's
// version stay the same, and the newest run tells what it lacks (see
// LearnedVersion).
const metaLearnedEpoch = "learned_epoch"

// AddLearned stores runs, then drops the oldest past MaxLearned. A zero At
// means now.
func (s *Store) AddLearned(ctx context.Context, runs []Learned) error {
	for _, l := range runs {
		if len(l.Words) == 0 || l.Server == "" || l.Tool == "" || !(l.Weight > 0 && l.Weight <= 1) {
			return fmt.Errorf("learning %s/%s: %w", l.Server, l.Tool, ErrBadLearned)
		}
	}
	if err := s.await(ctx); err != nil {
		return err
	}
	now := time.Now()
	return s.write(ctx, "learning from runs", func(tx *sql.Tx) error {
		for _, l := range runs {
			if l.At.IsZero() {
				l.At = now
			}
			words := l.Words[:min(len(l.Words), MaxLearnedWords)]
			if _, err := tx.ExecContext(ctx, `INSERT INTO learned (at, words, server, tool, hash, weight) VALUES (?, ?, ?, ?, ?, ?)`,
				l.At.UnixMilli(), strings.Join(words, " "), l.Server, l.Tool, l.Hash, l.Weight); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM learned`).Scan(&n); err != nil {
			return err
		}
		if n <= MaxLearned {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `
DELETE FROM learned WHERE id <= (SELECT id FROM learned ORDER BY id DESC LIMIT 1 OFFSET ?)`, MaxLearned*3/4); err != nil {
			return err
		}
		return bumpEpoch(ctx, tx)
	})
}

// bumpEpoch counts a deletion of learned runs.
func bumpEpoch(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `
INSERT INTO meta (key, value) VALUES ('`+metaLearnedEpoch+`', '1')
ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`)
	return err
}

// ForgetLearned drops every learned run, or only server's when server is
// not "", and returns how many it dropped.
func (s *Store) ForgetLearned(ctx context.Context, server string) (int, error) {
	if err := s.await(ctx); err != nil {
		return 0, err
	}
	var n int64
	err := s.write(ctx, "forgetting learned runs", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM learned WHERE ? = '' OR server = ?`, server, server)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		return bumpEpoch(ctx, tx)
	})
	return int(n), err
}

// LearnedVersion is the state of the learned runs and of the catalog
// they are read against. Runs read at an equal Base are still whole and
// right; runs up to Newest are all there is.
type LearnedVersion struct {
	// Base changes when a run is deleted or the catalog changes.
	Base string
	// Newest is the id of the newest run, 0 for none.
	Newest int64
}

// learnedVersionQuery reads a LearnedVersion.
const learnedVersionQuery = `
SELECT ifnull((SELECT value FROM meta WHERE key = '` + metaLearnedEpoch + `'), '0') || '/' ||
	ifnull((SELECT value FROM meta WHERE key = '` + metaCatalogVersion + `'), '0'),
	ifnull((SELECT max(id) FROM learned), 0)`

// LearnedVersion reads the learned runs' version.
func (s *Store) LearnedVersion(ctx context.Context) (LearnedVersion, error) {
	var v LearnedVersion
	if err := s.await(ctx); err != nil {
		return v, err
	}
	rows, err := s.stmts.query(ctx, learnedVersionQuery)
	if err != nil {
		return v, s.wrap("reading the learned version", err)
	}
	defer rows.Close()
	if rows.Next() {
		err = rows.Scan(&v.Base, &v.Newest)
	}
	if err == nil {
		err = rows.Err()
	}
	if err != nil {
		return v, s.wrap("reading the learned version", err)
	}
	return v, nil
}

// LearnedSince returns the learned runs newer than the run with id after
// (0: all of them) whose tool the catalog holds, and can search, with the
// definition it was chosen for, oldest first, and the version they were
// read at.
func (s *Store) LearnedSince(ctx context.Context, after int64) (LearnedVersion, []LearnedUse, error) {
	const op = "reading learned runs"
	var v LearnedVersion
	if err := s.await(ctx); err != nil {
		return v, nil, err
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return v, nil, s.wrap(op, err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, learnedVersionQuery).Scan(&v.Base, &v.Newest); err != nil {
		return v, nil, s.wrap(op, err)
	}
	rows, err := tx.QueryContext(ctx, `
SELECT l.at, l.words, l.server, l.tool, l.hash, l.weight, t.id
FROM learned AS l JOIN tools AS t ON t.server = l.server AND t.name = l.tool AND t.hash = l.hash
WHERE l.id > ? AND t.refusal = '' ORDER BY l.id`, after)
	if err != nil {
		return v, nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []LearnedUse
	for rows.Next() {
		var u LearnedUse
		var at int64
		var words string
		if err := rows.Scan(&at, &words, &u.Server, &u.Tool, &u.Hash, &u.Weight, &u.ToolID); err != nil {
			return v, nil, s.wrap(op, err)
		}
		u.At = time.UnixMilli(at)
		u.Words = strings.Fields(words)
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return v, nil, s.wrap(op, err)
	}
	return v, out, nil
}
