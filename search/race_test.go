//go:build race

package search

// raceEnabled: the race detector slows SQLite (transpiled C) about tenfold.
const raceEnabled = true
