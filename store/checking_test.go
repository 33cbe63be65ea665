package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
)

// TestOpenChecking: a store opened with OpenChecking answers every catalog
// method from a file that passed the check: a damaged catalog is moved
// aside, kept byte for byte, and the methods find the new empty one.
func TestOpenChecking(t *testing.T) {
	for _, tt := range catalogDamages {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path, size := filledCatalog(t)
			tt.damage(t, path, size)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			st, err := OpenChecking(ctx, path, nil)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("OpenChecking = %v, want %v", err, tt.wantErr)
				}
				if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
					t.Fatal("the refused file changed")
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenChecking: %v", err)
			}
			defer st.Close()
			// Read before asking how the check went: the read must wait.
			servers, err := st.Servers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{false: 1, true: 0}[tt.moved]; len(servers) != want {
				t.Fatalf("%d servers in the catalog, want %d", len(servers), want)
			}
			moved, err := st.Checked(ctx)
			if err != nil {
				t.Fatalf("Checked: %v", err)
			}
			if (moved != "") != tt.moved {
				t.Fatalf("moved = %q, want moved %v", moved, tt.moved)
			}
			if tt.moved {
				if kept, err := os.ReadFile(moved); err != nil || !bytes.Equal(kept, before) {
					t.Fatalf("the damaged file was not kept as it was at %s (%v)", moved, err)
				}
				mustReplace(t, st, "srv", tool("after", "a tool stored in the new catalog"))
				if err := st.check(ctx); err != nil {
					t.Fatalf("the new catalog: %v", err)
				}
			}
		})
	}
}

// TestOpenCheckingClose: closing a store while its check runs stops the
// check; later calls fail rather than hang.
func TestOpenCheckingClose(t *testing.T) {
	path, _ := filledCatalog(t)
	st, err := OpenChecking(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Servers(context.Background()); err == nil {
		t.Fatal("Servers after Close succeeded")
	}
}
