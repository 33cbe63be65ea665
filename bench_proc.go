package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// procStatusBytes reads one memory field of /proc/PID/status (VmRSS: resident
// now; VmHWM: the resident peak) in bytes. Linux only, as the figures are.
func procStatusBytes(pid int, field string) (int64, error) {
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

// exitedMaxRSS is the peak resident memory of an exited child, in bytes
// (getrusage's ru_maxrss, which Linux counts in KiB); 0 when unknown.
func exitedMaxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}

// selfMaxRSS is this process's peak resident memory in bytes.
func selfMaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
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

// percentile returns the p-th percentile (nearest rank) of ds; ds is
// sorted in place.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(float64(len(ds))*p/100+0.5) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

// mib formats bytes as MiB with one decimal.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// ms formats a duration in milliseconds, with three significant decimals
// under 10 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return strconv.FormatFloat(f, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " ms"
}
