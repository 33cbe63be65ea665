package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Vector is one tool's embedding. ContentHash is the Tool.ContentHash of
// the text embedded: the embedding cache's key.
type Vector struct {
	ToolID      int64
	ContentHash string
	Vec         []float32
}

// meta keys of the vector table.
const (
	metaVectorDim   = "vector_dim"
	metaVectorModel = "vector_model"
)

// EnsureVectors makes the vec0 table tool_vectors hold dim-dimension
// vectors. A table of another dimension is dropped and created again,
// empty; the embedding cache is kept.
func (s *Store) EnsureVectors(ctx context.Context, dim int) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	if dim <= 0 {
		return fmt.Errorf("creating vector table: dimension %d: %w", dim, ErrDimension)
	}
	if have, err := s.vectorDim(ctx, s.db); err == nil && have == dim {
		return nil // the common case: no write lock taken
	}
	return s.write(ctx, "creating vector table", func(tx *sql.Tx) error {
		have, err := s.vectorDim(ctx, tx)
		if err == nil && have == dim {
			return nil
		}
		if err != nil && !errors.Is(err, ErrNoVectors) {
			return err
		}
		stmts := []string{
			"DROP TABLE IF EXISTS tool_vectors",
			fmt.Sprintf("CREATE VIRTUAL TABLE tool_vectors USING vec0(embedding float[%d] distance_metric=cosine)", dim),
			"DELETE FROM meta WHERE key = '" + metaVectorModel + "'",
		}
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		s.logger.Debug("vector table created", "dim", dim, "previous", have)
		return setMeta(ctx, tx, metaVectorDim, strconv.Itoa(dim))
	})
}

// vectorDim returns the dimension of tool_vectors, or ErrNoVectors.
func (s *Store) vectorDim(ctx context.Context, q querier) (int, error) {
	exists, err := hasVectorTable(ctx, q)
	if err != nil {
		return 0, err
	}
	if !exists {
		return 0, ErrNoVectors
	}
	v, err := getMeta(ctx, q, metaVectorDim)
	if err != nil {
		return 0, err
	}
	dim, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("reading vector dimension %q: %w", v, err)
	}
	return dim, nil
}

// PutVectors stores embeddings made by model in the cache and, for each
// Vector with a ToolID whose tool is still searchable with that content
// hash, in tool_vectors (others are cached only: the tool changed since).
// All vectors share one model: vectors of another model in tool_vectors are
// dropped first. Needs EnsureVectors; every Vec must have its dimension.
func (s *Store) PutVectors(ctx context.Context, model string, vs []Vector) error {
	if err := s.await(ctx); err != nil {
		return err
	}
	return s.write(ctx, "storing vectors", func(tx *sql.Tx) error {
		dim, err := s.vectorDim(ctx, tx)
		if err != nil {
			return err
		}
		for _, v := range vs {
			if len(v.Vec) != dim {
				return fmt.Errorf("vector of tool %d has %d dimensions, the table %d: %w", v.ToolID, len(v.Vec), dim, ErrDimension)
			}
		}
		prev, err := getMeta(ctx, tx, metaVectorModel)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if prev != model {
			if _, err := tx.ExecContext(ctx, "DELETE FROM tool_vectors"); err != nil {
				return fmt.Errorf("dropping vectors of model %q: %w", prev, err)
			}
			if err := setMeta(ctx, tx, metaVectorModel, model); err != nil {
				return err
			}
		}
		cache, err := tx.PrepareContext(ctx, `
INSERT INTO embeddings (model, content_hash, dim, vec) VALUES (?, ?, ?, ?)
ON CONFLICT (model, content_hash) DO UPDATE SET dim = excluded.dim, vec = excluded.vec`)
		if err != nil {
			return err
		}
		defer cache.Close()
		current, err := tx.PrepareContext(ctx,
			"SELECT count(*) FROM tools WHERE id = ? AND refusal = '' AND content_hash = ?")
		if err != nil {
			return err
		}
		defer current.Close()
		del, err := tx.PrepareContext(ctx, "DELETE FROM tool_vectors WHERE rowid = ?")
		if err != nil {
			return err
		}
		defer del.Close()
		ins, err := tx.PrepareContext(ctx, "INSERT INTO tool_vectors (rowid, embedding) VALUES (?, ?)")
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, v := range vs {
			blob := encodeVector(v.Vec)
			if _, err := cache.ExecContext(ctx, model, v.ContentHash, dim, blob); err != nil {
				return fmt.Errorf("caching vector %s: %w", v.ContentHash, err)
			}
			if v.ToolID == 0 {
				continue
			}
			var n int
			if err := current.QueryRowContext(ctx, v.ToolID, v.ContentHash).Scan(&n); err != nil {
				return fmt.Errorf("checking tool %d: %w", v.ToolID, err)
			}
			if n == 0 {
				continue
			}
			if _, err := del.ExecContext(ctx, v.ToolID); err != nil {
				return fmt.Errorf("replacing vector of tool %d: %w", v.ToolID, err)
			}
			if _, err := ins.ExecContext(ctx, v.ToolID, blob); err != nil {
				return fmt.Errorf("storing vector of tool %d: %w", v.ToolID, err)
			}
		}
		return nil
	})
}

// CachedVector returns the embedding model made of the text with this
// content hash, if the cache holds it.
func (s *Store) CachedVector(ctx context.Context, model, contentHash string) ([]float32, bool, error) {
	if err := s.await(ctx); err != nil {
		return nil, false, err
	}
	var blob []byte
	err := s.db.QueryRowContext(ctx, "SELECT vec FROM embeddings WHERE model = ? AND content_hash = ?",
		model, contentHash).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.wrap("reading cached vector", err)
	}
	vec, err := decodeVector(blob)
	if err != nil {
		return nil, false, fmt.Errorf("reading cached vector %s: %w", contentHash, err)
	}
	return vec, true, nil
}

// NearestVectors returns the k tools whose vectors are nearest vec by
// cosine distance, nearest first, with Score = 1 - distance: the cosine
// similarity, in [-1, 1].
func (s *Store) NearestVectors(ctx context.Context, vec []float32, k int) ([]Hit, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	dim, err := s.vectorDim(ctx, s.db)
	if err != nil {
		return nil, s.wrap("searching vectors", err)
	}
	if len(vec) != dim {
		return nil, fmt.Errorf("searching vectors: query has %d dimensions, the table %d: %w", len(vec), dim, ErrDimension)
	}
	if k <= 0 {
		return nil, nil
	}
	rows, err := s.stmts.query(ctx,
		"SELECT rowid, distance FROM tool_vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance",
		encodeVector(vec), k)
	if err != nil {
		return nil, s.wrap("searching vectors", err)
	}
	hits, err := s.collectHits(rows, "searching vectors", false)
	for i := range hits {
		hits[i].Score = 1 + hits[i].Score // collectHits negated the distance
	}
	return hits, err
}

// ToolsWithoutVectors lists the searchable tools with no row in
// tool_vectors: the ones to embed. Record and Card are left empty.
func (s *Store) ToolsWithoutVectors(ctx context.Context) ([]Tool, error) {
	if err := s.await(ctx); err != nil {
		return nil, err
	}
	if _, err := s.vectorDim(ctx, s.db); err != nil {
		return nil, s.wrap("listing tools without vectors", err)
	}
	rows, err := s.db.QueryContext(ctx, `
SELECT id, server, name, hash, NULL, NULL, refusal, content_hash,
	doc_name, doc_desc, doc_params, doc_param_descs, doc_enums, ''
FROM tools WHERE refusal = '' AND id NOT IN (SELECT rowid FROM tool_vectors) ORDER BY id`)
	if err != nil {
		return nil, s.wrap("listing tools without vectors", err)
	}
	return collectTools(rows, s, "listing tools without vectors")
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVector(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes is not float32s", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

func getMeta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("reading meta %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("reading meta %s: %w", key, err)
	}
	return v, nil
}

func setMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, `
INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("writing meta %s: %w", key, err)
	}
	return nil
}
