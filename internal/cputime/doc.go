// Package cputime reads the CPU time the process has used. The benchmarks
// report it beside wall time because the machines they run on are shared:
// wall time there measures the neighbours too.
package cputime
