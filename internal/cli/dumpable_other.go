//go:build !linux

package cli

// keepEnvironPrivate does nothing beyond Linux, which alone has
// PR_SET_DUMPABLE. On macOS a process of the same user may still read
// capbridge's environment (as `ps -E` does); README says so.
func keepEnvironPrivate() error { return nil }
