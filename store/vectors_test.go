package store

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

// storedTools returns the tools of server keyed by name.
func storedTools(t *testing.T, s *Store, server string) map[string]Tool {
	t.Helper()
	tools, err := s.Tools(context.Background(), server)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]Tool, len(tools))
	for _, tl := range tools {
		out[tl.Name] = tl
	}
	return out
}

func TestVectorsNearestAndCache(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "m", tool("north", "Go north"), tool("east", "Go east"), tool("up", "Go up"),
		refused("down", "too big"))
	if _, err := s.NearestVectors(ctx, []float32{1, 0, 0}, 3); !errors.Is(err, ErrNoVectors) {
		t.Errorf("NearestVectors before EnsureVectors: %v, want ErrNoVectors", err)
	}
	if err := s.EnsureVectors(ctx, 3); err != nil {
		t.Fatal(err)
	}
	tools := storedTools(t, s, "m")
	missing, err := s.ToolsWithoutVectors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(missing); !slices.Equal(got, []string{"north", "east", "up"}) {
		t.Errorf("ToolsWithoutVectors = %v", got)
	}
	vec := map[string][]float32{"north": {0, 1, 0}, "east": {1, 0, 0}, "up": {0, 0, 1}}
	var vs []Vector
	for name, v := range vec {
		vs = append(vs, Vector{ToolID: tools[name].ID, ContentHash: tools[name].ContentHash, Vec: v})
	}
	if err := s.PutVectors(ctx, "toy", vs); err != nil {
		t.Fatal(err)
	}
	if missing, _ := s.ToolsWithoutVectors(ctx); len(missing) != 0 {
		t.Errorf("still without vectors: %v", names(missing))
	}
	hits, err := s.NearestVectors(ctx, []float32{0.9, 0.1, 0}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].ID != tools["east"].ID || hits[1].ID != tools["north"].ID {
		t.Fatalf("NearestVectors = %v, want east then north", hits)
	}
	wantCos := 0.9 / math.Sqrt(0.82)
	if math.Abs(hits[0].Score-wantCos) > 1e-5 {
		t.Errorf("score %v, want cosine similarity %v", hits[0].Score, wantCos)
	}
	got, ok, err := s.CachedVector(ctx, "toy", tools["up"].ContentHash)
	if err != nil || !ok || !slices.Equal(got, vec["up"]) {
		t.Errorf("CachedVector = %v %v %v", got, ok, err)
	}
	if _, ok, _ := s.CachedVector(ctx, "other-model", tools["up"].ContentHash); ok {
		t.Error("cache hit for another model")
	}

	if err := s.PutVectors(ctx, "toy", []Vector{{ToolID: tools["up"].ID, Vec: []float32{1, 2}}}); !errors.Is(err, ErrDimension) {
		t.Errorf("PutVectors of 2 dims into 3: %v, want ErrDimension", err)
	}
	if _, err := s.NearestVectors(ctx, []float32{1}, 2); !errors.Is(err, ErrDimension) {
		t.Errorf("NearestVectors of 1 dim: %v, want ErrDimension", err)
	}
}

func TestVectorsFollowCatalogChanges(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.EnsureVectors(ctx, 2); err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, "m", tool("keep", "Stays the same"), tool("edit", "Changes"), tool("drop", "Goes away"))
	tools := storedTools(t, s, "m")
	var vs []Vector
	for _, tl := range tools {
		vs = append(vs, Vector{ToolID: tl.ID, ContentHash: tl.ContentHash, Vec: []float32{1, float32(tl.ID)}})
	}
	if err := s.PutVectors(ctx, "toy", vs); err != nil {
		t.Fatal(err)
	}
	mustReplace(t, s, "m", tool("keep", "Stays the same"), tool("edit", "Changed text"))
	missing, err := s.ToolsWithoutVectors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(missing); !slices.Equal(got, []string{"edit"}) {
		t.Errorf("ToolsWithoutVectors after refresh = %v, want [edit]", got)
	}
	if n := count(t, s, "SELECT count(*) FROM tool_vectors"); n != 1 {
		t.Errorf("%d vector rows, want 1 (keep)", n)
	}
	// A vector for the old text of edit is cached but not attached.
	stale := Vector{ToolID: tools["edit"].ID, ContentHash: tools["edit"].ContentHash, Vec: []float32{0, 1}}
	if err := s.PutVectors(ctx, "toy", []Vector{stale}); err != nil {
		t.Fatal(err)
	}
	if missing, _ := s.ToolsWithoutVectors(ctx); len(missing) != 1 {
		t.Errorf("stale vector attached to a changed tool")
	}
	// Another model replaces every vector.
	keep := storedTools(t, s, "m")["keep"]
	if err := s.PutVectors(ctx, "bigger-model", []Vector{{ToolID: keep.ID, ContentHash: keep.ContentHash, Vec: []float32{1, 1}}}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM tool_vectors"); n != 1 {
		t.Errorf("%d vector rows after a model change, want 1", n)
	}
	if n := count(t, s, "SELECT count(*) FROM embeddings"); n != 4 {
		t.Errorf("%d cached embeddings, want 4 (3 toy + 1 bigger-model)", n)
	}
}

func TestEnsureVectorsRecreatesOnDimensionChange(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustReplace(t, s, "m", tool("a", "Alpha"))
	a := storedTools(t, s, "m")["a"]
	tests := []struct {
		dim      int
		wantRows int
	}{
		{4, 0}, {4, 1}, {8, 0},
	}
	for i, tt := range tests {
		if err := s.EnsureVectors(ctx, tt.dim); err != nil {
			t.Fatal(err)
		}
		if n := count(t, s, "SELECT count(*) FROM tool_vectors"); n != tt.wantRows {
			t.Errorf("step %d: EnsureVectors(%d) left %d rows, want %d", i, tt.dim, n, tt.wantRows)
		}
		v := make([]float32, tt.dim)
		v[0] = 1
		if err := s.PutVectors(ctx, "m", []Vector{{ToolID: a.ID, ContentHash: a.ContentHash, Vec: v}}); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	s.Close()
	s2, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if dim, err := s2.vectorDim(ctx, s2.db); err != nil || dim != 8 {
		t.Errorf("dimension after reopen %d %v, want 8", dim, err)
	}
	if err := s2.EnsureVectors(ctx, 0); !errors.Is(err, ErrDimension) {
		t.Errorf("EnsureVectors(0): %v, want ErrDimension", err)
	}
}
