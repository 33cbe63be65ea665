package bridge

import "syscall"

// dieWithParent has the kernel kill the child if the bridge dies without
// stopping it (SIGKILL, a crash). The signal is tied to the OS thread that
// started the child; Go only ends threads of goroutines that exit while
// locked to them, which the bridge never does.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
