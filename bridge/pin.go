package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

// pinRule decides the pins of one server's tools as they are stored
// (package store keeps them; package schema compares definitions):
//
//   - a tool seen for the first time is pinned and usable, unless its
//     text is suspicious: then it is held. On a server whose tools were
//     pinned before (serverPinned), a new tool is held too when mode is
//     strict, or when it is risk and the tool's destructiveHint or
//     openWorldHint is on: a server that adds a tool able to delete or
//     reach out adds what the user never saw;
//   - a tool listed as its pin, or as the change already seen, keeps its
//     pin as it is, unless its text reads as suspicious now and was never
//     approved: then it is held;
//   - a new definition is compared with the pin: it is held when mode
//     holds it (strict: every change; risk: a change that raises the
//     tool's risk) or its text is suspicious, and otherwise becomes the
//     new pin. Either way the change is kept for `capbridge servers` and
//     logged once, at warn.
//
// Action ids made from an older definition answer schema_changed in
// every mode: their hash is not the tool's any more.
//
// With bridge.suspicious "strip", suspicious text holds nothing (the card
// has it cut out all the same).
func pinRule(bc config.Bridge, server string, serverPinned bool, logger *slog.Logger, now func() time.Time) store.PinRule {
	mode := bc.Pinning
	return func(pinned *store.Pin, t *store.Tool) store.Pin {
		suspicion := ""
		if bc.Suspicious != config.SuspiciousStrip {
			suspicion = suspicionOf(t)
		}
		if pinned == nil {
			p := store.Pin{Hash: t.Hash, Definition: t.Definition}
			reason := suspicion
			if reason == "" && serverPinned {
				reason = newToolHold(t.Definition, mode)
			}
			if reason != "" {
				p.Held, p.Reason = true, reason
				logger.Warn("new tool held for review", "server", server, "tool", t.Name, "reason", reason)
			}
			return p
		}
		if hash, _ := pinned.Current(); hash == t.Hash {
			// Listed as already seen. A pin that is not held, though its
			// text is suspicious and was never approved, was not written
			// by this rule (the catalog was edited), or its text reads as
			// suspicious only now (the detector knows other servers'
			// tools, or has new rules): it is held again.
			if !pinned.Held && suspicion != "" && pinned.ApprovedAt.IsZero() {
				p := *pinned
				p.Held, p.Reason = true, suspicion
				logger.Warn("tool held again: its pin said not held, though its text is suspicious and was never approved", "server", server, "tool", t.Name, "reason", suspicion)
				return p
			}
			return *pinned
		}
		p := *pinned
		if t.Hash == pinned.Hash {
			// The change was withdrawn: the pin is listed again. It stays
			// held only if its own text is suspicious and was never approved.
			p.ListedHash, p.Listed = "", nil
			p.Held = suspicion != "" && pinned.ApprovedAt.IsZero()
			p.Reason = ""
			if p.Held {
				p.Reason = suspicion
			}
			logger.Info("tool listed as pinned again", "server", server, "tool", t.Name, "held", p.Held)
			return p
		}
		changed, reason := compare(pinned.Definition, t.Definition, mode)
		if suspicion != "" {
			reason = suspicion
		}
		p.Previous, p.Changed, p.ChangedAt = pinned.Definition, changed, now()
		p.Held, p.Reason = reason != "", reason
		if p.Held {
			p.ListedHash, p.Listed = t.Hash, t.Definition
		} else {
			p.Hash, p.Definition, p.ListedHash, p.Listed = t.Hash, t.Definition, "", nil
		}
		logger.Warn("tool definition changed since pinned", "server", server, "tool", t.Name,
			"changed", strings.Join(changed, ","), "held", p.Held, "reason", reason)
		return p
	}
}

// newToolHold says why mode holds a tool that appears, defined as def, on
// a server whose tools were pinned before, or "" when it does not.
func newToolHold(def []byte, mode string) string {
	switch mode {
	case config.PinningStrict:
		return "new since the server was first pinned (pinning is strict)"
	case config.PinningOff:
		return ""
	}
	hints, err := schema.RiskyHints(def)
	if err != nil {
		return "the new tool could not be read: " + err.Error()
	}
	if hints != "" {
		return "new since the server was first pinned, with " + hints + " on"
	}
	return ""
}

// compare names what changed from the pinned definition to the listed
// one, and why mode holds the change ("" when it does not). A pair that
// cannot be compared is held.
func compare(pinned, listed []byte, mode string) (changed []string, hold string) {
	changed, err := schema.Diff(pinned, listed)
	if err != nil {
		return []string{"definition"}, "the change could not be compared: " + err.Error()
	}
	switch mode {
	case config.PinningStrict:
		return changed, "changed since pinned (pinning is strict)"
	case config.PinningOff:
		return changed, ""
	}
	risk, err := schema.RiskRaised(pinned, listed)
	if err != nil {
		return changed, "the change could not be compared: " + err.Error()
	}
	if risk != "" {
		return changed, "riskier than pinned: " + risk
	}
	return changed, ""
}

// flagsKey is how a record that carries poisoning flags spells their key;
// a record without it has none, and is not decoded.
var flagsKey = []byte(`"flags":[`)

// suspicionOf says why a tool's text is suspicious, from the flags the
// normalizer set on its record, or "" when it is not.
func suspicionOf(t *store.Tool) string {
	if !bytes.Contains(t.Record, flagsKey) {
		return ""
	}
	var rec struct {
		Flags []schema.Flag `json:"flags"`
	}
	if err := json.Unmarshal(t.Record, &rec); err != nil {
		return "its record could not be read to check its text: " + err.Error()
	}
	if len(rec.Flags) == 0 {
		return ""
	}
	f := rec.Flags[0]
	reason := fmt.Sprintf("suspicious text: %s in %s: %q", f.Rule, f.Field, f.Span)
	if n := len(rec.Flags) - 1; n > 0 {
		reason += fmt.Sprintf(" (and %d more)", n)
	}
	return reason
}

// plainField matches the changed-field names a model-facing message may
// quote: the definition's own fields, and annotations of plain names.
var plainField = regexp.MustCompile(`^(annotations\.)?[A-Za-z][A-Za-z0-9_]{0,39}$`)

// changedFields words what changed for a message the model reads. Only
// plain names are quoted: an annotation's name is the provider's text.
func changedFields(changed []string) string {
	var out []string
	other := false
	for _, c := range changed {
		if plainField.MatchString(c) {
			out = append(out, c)
		} else {
			other = true
		}
	}
	if other {
		out = append(out, "other annotations")
	}
	return strings.Join(out, ", ")
}
