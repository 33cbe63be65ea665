//go:build unix

package config

import (
	"path/filepath"
	"testing"
	"time"
)

func TestLockConfigExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "config.json")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		u, err := Lock(path)
		if err != nil {
			t.Error(err)
		} else {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("a second lock was granted while the first was held")
	case <-time.After(200 * time.Millisecond):
	}
	unlock()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the second lock was not granted after the first was released")
	}
}
