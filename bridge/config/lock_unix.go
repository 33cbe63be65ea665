//go:build unix

package config

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock takes an exclusive advisory lock on the directory of the
// config file at path, creating the directory, and returns its release.
// `capbridge add`, `remove` and `import` hold it from reading the file to
// saving it, so two of them run at once cannot lose one's edit. The
// directory is locked, not the file: saving renames a new file over the
// old one, and a lock on the old file would not keep out a process that
// opens the new one.
func Lock(path string) (unlock func(), err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("locking config %s: %w", path, err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("locking config %s: %w", path, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking config %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
