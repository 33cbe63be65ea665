package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"time"
)

// ProcStatusBytes reads one memory field of /proc/PID/status (VmRSS: resident
// now; VmHWM: the resident peak) in bytes. Linux only, as the figures are.
func ProcStatusBytes(pid int, field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("reading %s of process %d: %w", field, pid, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte(field+":"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 {
			break
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading %s of process %d: %w", field, pid, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("reading %s of process %d: no such field", field, pid)
}

// selfMaxRSS is this process's resident peak (VmHWM) in bytes; 0 when
// unknown.
func selfMaxRSS() int64 {
	hwm, _ := ProcStatusBytes(os.Getpid(), "VmHWM")
	return hwm
}

// procOpenFDs counts the open file descriptors of process pid.
func procOpenFDs(pid int) (int, error) {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0, fmt.Errorf("counting open files of process %d: %w", pid, err)
	}
	return len(ents), nil
}

// childPids lists the direct children of process pid.
func childPids(pid int) []int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range bytes.Fields(data) {
		if n, err := strconv.Atoi(string(f)); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// MiB formats bytes as MiB with one decimal.
func MiB(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// ms formats a duration in milliseconds, with three significant decimals
// under 10 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return strconv.FormatFloat(f, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " ms"
}

// peakWatch follows a running child's resident peak (VmHWM) until it
// exits. getrusage cannot be used for this: a Go parent starts children with
// vfork, so a child's ru_maxrss starts from the parent's own peak.
type peakWatch struct {
	peak atomic.Int64
	stop chan struct{}
	done chan struct{}
}

// watchPeak polls pid's VmHWM every 10 ms until Stop.
func watchPeak(pid int) *peakWatch {
	w := &peakWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if hwm, err := ProcStatusBytes(pid, "VmHWM"); err == nil && hwm > w.peak.Load() {
				w.peak.Store(hwm)
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// Stop ends the polling and returns the highest peak seen.
func (w *peakWatch) Stop() int64 {
	close(w.stop)
	<-w.done
	return w.peak.Load()
}

// RunWatched runs cmd to completion and returns its wall time and resident
// peak, read from /proc while it runs.
func RunWatched(cmd *exec.Cmd) (wall time.Duration, peak int64, err error) {
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	w := watchPeak(cmd.Process.Pid)
	err = cmd.Wait()
	wall = time.Since(start)
	return wall, w.Stop(), err
}
