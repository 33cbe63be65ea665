package config

import "fmt"

// Pinning modes, the values of "bridge": {"pinning": ...}. Every mode pins
// a tool on first sight and answers schema_changed to action ids made
// from an older definition; they differ in which changes hold a tool
// until the user approves it (`capbridge approve`).
const (
	// PinningRisk holds a change that raises the tool's risk; other
	// changes become the new pin. The default.
	PinningRisk = "risk"
	// PinningStrict holds every change.
	PinningStrict = "strict"
	// PinningOff holds no change (suspicious text still holds a tool).
	PinningOff = "off"
)

// pinningMode checks bridge.pinning; "" is the default.
func pinningMode(s string) (string, error) {
	switch s {
	case "":
		return PinningRisk, nil
	case PinningRisk, PinningStrict, PinningOff:
		return s, nil
	}
	return "", fmt.Errorf("bridge.pinning: unknown mode %q (want %q, %q or %q)", s, PinningRisk, PinningStrict, PinningOff)
}

// What to do with a tool whose text the poisoning detector flags, the
// values of "bridge": {"suspicious": ...}. Either way its cards never carry
// the flagged text.
const (
	// SuspiciousHold holds the tool until the user approves it. The default.
	SuspiciousHold = "hold"
	// SuspiciousStrip offers the tool with the flagged text cut out.
	SuspiciousStrip = "strip"
)

// suspiciousMode checks bridge.suspicious; "" is the default.
func suspiciousMode(s string) (string, error) {
	switch s {
	case "":
		return SuspiciousHold, nil
	case SuspiciousHold, SuspiciousStrip:
		return s, nil
	}
	return "", fmt.Errorf("bridge.suspicious: unknown mode %q (want %q or %q)", s, SuspiciousHold, SuspiciousStrip)
}
