//go:build unix

package upstream

import (
	"errors"
	"os/exec"
	"syscall"
)

// inOwnGroup makes cmd's process the leader of a new process group, so that
// signalling the group reaches everything it starts (npx, sh, node...).
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// terminateGroup asks the process group led by pid to exit.
func terminateGroup(pid int) error { return signalGroup(pid, syscall.SIGTERM) }

// killGroup kills the process group led by pid. A group already gone is not
// an error.
func killGroup(pid int) error { return signalGroup(pid, syscall.SIGKILL) }

func signalGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return nil
	}
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
