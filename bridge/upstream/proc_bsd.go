//go:build unix && !linux

package upstream

import "syscall"

// dieWithParent is a no-op where there is no parent-death signal: the child
// still sees EOF on its stdin when the bridge dies.
func dieWithParent(*syscall.SysProcAttr) {}

// exitedNow answers only through the child's Wait here (process.exited).
func exitedNow(int) bool { return false }
