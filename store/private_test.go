package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCatalogPrivate: a new catalog, its -wal and -shm files are 0600 and
// its folder 0700; a catalog opened with wider modes says so, with the fix.
func TestCatalogPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "data", "capbridge", "catalog.db")
	st, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.ReplaceCatalog(ctx, Server{Name: "s"}, func(func(Tool, error) bool) {}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != FileMode {
			t.Errorf("%s is mode %04o, want %04o", filepath.Base(p), fi.Mode().Perm(), FileMode)
		}
	}
	for _, dir := range []string{filepath.Dir(path), filepath.Dir(filepath.Dir(path))} {
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != DirMode {
			t.Errorf("%s is mode %04o, want %04o", dir, fi.Mode().Perm(), DirMode)
		}
	}
	if got := st.Exposure(); len(got) != 0 {
		t.Errorf("a private catalog: %q", got)
	}

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(st.Exposure(), "\n")
	for _, want := range []string{"catalog.db is mode 0644", "chmod 600 " + path, "folder " + filepath.Dir(path) + " is mode 0777", "chmod 700"} {
		if !strings.Contains(got, want) {
			t.Errorf("exposure lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "-wal") {
		t.Errorf("the -wal file is private, yet: %s", got)
	}
	// A sticky folder (/tmp) lets no one else replace the file.
	if err := os.Chmod(filepath.Dir(path), 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(st.Exposure(), "\n"); strings.Contains(got, "folder") {
		t.Errorf("a sticky folder: %s", got)
	}
}
