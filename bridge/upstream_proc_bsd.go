//go:build unix && !linux

package bridge

import "syscall"

// dieWithParent is a no-op where there is no parent-death signal: the child
// still sees EOF on its stdin when the bridge dies.
func dieWithParent(*syscall.SysProcAttr) {}
