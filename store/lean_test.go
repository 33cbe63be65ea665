package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestLeanPageMemory: a lean store's connections read without a memory
// map and with a small page cache, and keep them after a check (which
// sets its own for its run).
func TestLeanPageMemory(t *testing.T) {
	tests := []struct {
		name      string
		lean      bool
		wantMmap  int64
		wantCache int64
	}{
		{"default", false, mmapBytes, -cacheKiB},
		{"lean", true, 0, -leanCacheKiB},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, filepath.Join(t.TempDir(), "catalog.db"), &Options{Lean: tt.lean})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.check(ctx); err != nil {
				t.Fatal(err)
			}
			// Every pooled connection, the one the check ran on included.
			conns := make([]interface{ Close() error }, 0, maxConns)
			for range maxConns {
				c, err := s.db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				var mmap, cache int64
				if err := c.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&mmap); err != nil {
					t.Fatal(err)
				}
				if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil {
					t.Fatal(err)
				}
				if mmap != tt.wantMmap || cache != tt.wantCache {
					t.Errorf("connection: mmap_size %d, cache_size %d; want %d, %d", mmap, cache, tt.wantMmap, tt.wantCache)
				}
			}
			for _, c := range conns {
				c.Close()
			}
		})
	}
}
