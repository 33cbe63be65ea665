//go:build race

package cli

// raceEnabled: the test binary (and so every child it runs) is built with
// -race, which multiplies memory use.
const raceEnabled = true
