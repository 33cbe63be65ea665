//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// lockRecovery takes an exclusive advisory lock that serializes moving a
// damaged catalog aside between processes, so that two capbridges that
// find the same damaged file never both move it. The lock file stays
// beside the catalog (removing it would reopen the race it closes).
func lockRecovery(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path+".recover-lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking %s for recovery: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s for recovery: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
