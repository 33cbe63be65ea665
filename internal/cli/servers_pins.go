package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/capbridge/capbridge/store"
)

// heldTool is a tool of `capbridge servers` held for review.
type heldTool struct {
	Name      string     `json:"name"`
	Reason    string     `json:"reason"`
	Changed   []string   `json:"changed,omitempty"` // what changed since the pin; none for a tool held on first sight
	ChangedAt *time.Time `json:"changedAt,omitempty"`
}

// changedTool is a tool of `capbridge servers` whose definition changed
// since it was first pinned, the change accepted or approved.
type changedTool struct {
	Name       string     `json:"name"`
	Changed    []string   `json:"changed"`
	ChangedAt  *time.Time `json:"changedAt,omitempty"`
	ApprovedAt *time.Time `json:"approvedAt,omitempty"` // nil: accepted without review
}

// newTool is a tool of `capbridge servers` that the server listed after
// its tools were first pinned.
type newTool struct {
	Name     string    `json:"name"`
	PinnedAt time.Time `json:"pinnedAt"`
	Held     bool      `json:"held,omitempty"`
}

// pinStatuses reads the held, the changed and the new tools of server:
// those the server lists now (a pin outlives its tool's listing, to catch
// it coming back changed).
func pinStatuses(ctx context.Context, st *store.Store, server string) ([]heldTool, []changedTool, []newTool, error) {
	pins, err := st.Pins(ctx, server)
	if err != nil || len(pins) == 0 {
		return nil, nil, nil, err
	}
	tools, err := st.Tools(ctx, server)
	if err != nil {
		return nil, nil, nil, err
	}
	first := pins[0].PinnedAt
	for _, p := range pins {
		if p.PinnedAt.Before(first) {
			first = p.PinnedAt
		}
	}
	listed := make(map[string]bool, len(tools))
	for _, t := range tools {
		if t.Refusal == "" {
			listed[t.Name] = true
		}
	}
	var held []heldTool
	var changed []changedTool
	var added []newTool
	for _, p := range pins {
		if listed[p.Tool] && p.PinnedAt.After(first) {
			added = append(added, newTool{Name: p.Tool, PinnedAt: p.PinnedAt, Held: p.Held})
		}
		switch {
		case !listed[p.Tool]:
		case p.Held:
			held = append(held, heldTool{Name: p.Tool, Reason: p.Reason, Changed: p.Changed, ChangedAt: timeOrNil(p.ChangedAt)})
		case len(p.Changed) > 0:
			changed = append(changed, changedTool{Name: p.Tool, Changed: p.Changed,
				ChangedAt: timeOrNil(p.ChangedAt), ApprovedAt: timeOrNil(p.ApprovedAt)})
		}
	}
	return held, changed, added, nil
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// printPins writes the held and changed tools of each server, and how to
// release the held ones.
func printPins(w io.Writer, statuses []serverStatus) {
	for _, s := range statuses {
		if len(s.HeldTools) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nHeld for review on %s (not offered or run until approved: 'capbridge approve %s/TOOL', or 'capbridge approve %s' for all):\n",
			s.Name, s.Name, s.Name)
		for _, t := range s.HeldTools {
			fmt.Fprintf(w, "  %s: %s\n", terminalText(t.Name), terminalText(t.Reason))
			if len(t.Changed) > 0 {
				fmt.Fprintf(w, "    changed since pinned%s: %s\n", when(t.ChangedAt), fieldList(t.Changed))
			}
		}
	}
	for _, s := range statuses {
		if len(s.NewTools) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nNew on %s since its tools were first pinned:\n", s.Name)
		for _, t := range s.NewTools {
			state := ""
			if t.Held {
				state = " (held)"
			}
			fmt.Fprintf(w, "  %s%s%s\n", terminalText(t.Name), when(&t.PinnedAt), state)
		}
	}
	for _, s := range statuses {
		if len(s.ChangedTools) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nChanged since pinned on %s (the listed definition is the pin now):\n", s.Name)
		for _, t := range s.ChangedTools {
			how := "accepted"
			if t.ApprovedAt != nil {
				how = "approved " + t.ApprovedAt.Local().Format("2006-01-02 15:04")
			}
			fmt.Fprintf(w, "  %s%s: %s (%s)\n", terminalText(t.Name), when(t.ChangedAt), fieldList(t.Changed), how)
		}
	}
}

func when(t *time.Time) string {
	if t == nil {
		return ""
	}
	return " " + t.Local().Format("2006-01-02 15:04")
}

func fieldList(fields []string) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = terminalText(f)
	}
	return strings.Join(out, ", ")
}

// terminalText is a provider's text as a terminal may print it: quoted
// when it holds a character that is not a printable one (an escape
// sequence, a bidi control).
func terminalText(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			return strconv.Quote(s)
		}
	}
	return s
}
