//go:build !unix

package store

// lockRecovery has no inter-process lock here; OpenChecked's re-check of
// the file before moving it is what keeps two processes apart.
func lockRecovery(string) (unlock func(), err error) { return func() {}, nil }
