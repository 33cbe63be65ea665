//go:build race

package store

// raceEnabled: the race detector slows SQLite (transpiled C) about tenfold.
const raceEnabled = true
