package config

import "fmt"

// What becomes of a tool result that the poisoning detector flags, the
// values of "bridge": {"results": ...}. Every result reaches the model
// framed as its server's data whatever the mode.
const (
	// ResultsWarn serves the result whole, with a warning line before it
	// that names the rules and says to treat it as data. The default.
	ResultsWarn = "warn"
	// ResultsStrip cuts the flagged passages and says so.
	ResultsStrip = "strip"
	// ResultsOff does not run the detector on results.
	ResultsOff = "off"
)

// resultsMode checks bridge.results; "" is the default. A value that is
// none of the modes names the nearest.
func resultsMode(s string) (string, error) {
	modes := []string{ResultsWarn, ResultsStrip, ResultsOff}
	switch s {
	case "":
		return ResultsWarn, nil
	case ResultsWarn, ResultsStrip, ResultsOff:
		return s, nil
	}
	known := map[string]bool{}
	for _, m := range modes {
		known[m] = true
	}
	hint := ""
	if near := nearestKey(s, known); near != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", near)
	}
	return "", fmt.Errorf("bridge.results: unknown mode %q (want %q, %q or %q)%s", s, ResultsWarn, ResultsStrip, ResultsOff, hint)
}
