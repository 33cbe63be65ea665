package upstream

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// dieWithParent has the kernel kill the child if the bridge dies without
// stopping it (SIGKILL, a crash). The signal is tied to the OS thread that
// started the child; Go only ends threads of goroutines that exit while
// locked to them, which the bridge never does.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// exitedNow reports whether the child pid has exited, asking the kernel at
// once and leaving the child for its Wait to reap. A child already reaped
// has exited too.
func exitedNow(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		switch err {
		case nil:
			// With WNOHANG the kernel writes si_signo 0 when the child is
			// still running, SIGCHLD when it has exited.
			return info.Signo == int32(unix.SIGCHLD)
		case unix.EINTR:
			continue
		case unix.ECHILD:
			return true
		default:
			return false
		}
	}
}
