package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Label is what a line of a labelled corpus (testdata/poison) says of its
// tool, in keys beside the tool's own: how it attacks, where, in which
// language, and the spans that carry the attack, exactly as the tool's
// text holds them. A benign line's technique is [TechniqueBenign] and it
// has no lure.
type Label struct {
	Technique string   `json:"technique"`
	Field     string   `json:"field,omitempty"`
	Lang      string   `json:"lang,omitempty"`
	Lure      []string `json:"lure,omitempty"`
}

// TechniqueBenign labels a tool that attacks nothing.
const TechniqueBenign = "benign"

// labelKeys are the keys of a corpus line that are labels, not tool fields.
var labelKeys = []string{"technique", "field", "lang", "lure"}

// takeLabel removes the label keys from a catalog line and returns them;
// nil when the line has no technique.
func takeLabel(obj map[string]json.RawMessage) (*Label, error) {
	if _, ok := obj["technique"]; !ok {
		return nil, nil
	}
	var l Label
	for _, key := range labelKeys {
		raw, ok := obj[key]
		if !ok {
			continue
		}
		var err error
		switch key {
		case "technique":
			err = json.Unmarshal(raw, &l.Technique)
		case "field":
			err = json.Unmarshal(raw, &l.Field)
		case "lang":
			err = json.Unmarshal(raw, &l.Lang)
		case "lure":
			err = json.Unmarshal(raw, &l.Lure)
		}
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", key, err)
		}
		delete(obj, key)
	}
	return &l, nil
}

// Figures are the detector's measures over a labelled catalog.
//
// A poisoned tool is held when the detector flags it or the normalizer
// refuses it (a name no one can read safely): either way no model is
// offered it until the user approves it. Its lure reaches a card when any
// of its lure spans is found in any text of the card a model reads (name,
// summary, note, input names, descriptions and enum values), as the card
// was built whether the tool is held or not: approving a tool shows that
// card. Both sides are compared with format characters removed and case,
// width and spacing folded, over any 24 characters of the span in a row
// (all of it when shorter), so a lure cut short on the card still counts.
// A benign tool is held the same way, and loses text when its card leaves
// out text that addressed the model.
type Figures struct {
	Poisoned     int               `json:"poisoned"`
	PoisonedHeld int               `json:"poisonedHeld"`
	LureOnCard   int               `json:"lureOnCard"`
	Benign       int               `json:"benign"`
	BenignHeld   int               `json:"benignHeld"`
	BenignLost   int               `json:"benignLost"`
	ByTechnique  map[string]*Tally `json:"byTechnique"`
	// Misses are the poisoned tools not held or whose lure reached a
	// card, and the benign ones held or trimmed, in catalog order.
	Misses []Miss `json:"misses,omitempty"`
}

// Tally counts the tools of one technique.
type Tally struct {
	Tools      int `json:"tools"`
	Held       int `json:"held"`
	LureOnCard int `json:"lureOnCard"`
	Lost       int `json:"lost"`
}

// Miss is one tool a labelled figure counts against the detector.
type Miss struct {
	Server    string `json:"server"`
	Name      string `json:"name"`
	Technique string `json:"technique"`
	Field     string `json:"field"`
	What      string `json:"what"` // "not held", "lure on card", "held", "lost text"
}

// lureWindow is how many characters of a lure in a row must be on a
// card for the lure to count as there.
const lureWindow = 24

func (f *Figures) add(l scanLine, res scanned) {
	lab := l.label
	tally := f.ByTechnique[lab.Technique]
	if tally == nil {
		tally = &Tally{}
		f.ByTechnique[lab.Technique] = tally
	}
	tally.Tools++
	held := res.tool == nil || len(res.tool.Record.Flags) > 0
	name := res.refusal.Tool
	if res.tool != nil {
		name = res.tool.Record.Name
	}
	miss := func(what string) {
		f.Misses = append(f.Misses, Miss{Server: l.server, Name: SanitizeName(name, MaxNameChars), Technique: lab.Technique, Field: lab.Field, What: what})
	}
	if held {
		tally.Held++
	}
	if lab.Technique == TechniqueBenign {
		f.Benign++
		if held {
			f.BenignHeld++
			miss("held")
		}
		if res.tool != nil && len(res.tool.Withheld()) > 0 {
			f.BenignLost++
			tally.Lost++
			miss("lost text")
		}
		return
	}
	f.Poisoned++
	if held {
		f.PoisonedHeld++
	} else {
		miss("not held")
	}
	if res.tool != nil && lureOnCard(res.tool.Card, lab.Lure) {
		f.LureOnCard++
		tally.LureOnCard++
		miss("lure on card")
	}
}

// lureOnCard reports whether any lure span reaches a text of the card.
func lureOnCard(c Card, lures []string) bool {
	texts := []string{c.Name, c.Summary, c.Note}
	for _, in := range c.Inputs {
		texts = append(texts, in.Name, in.Description)
		texts = append(texts, in.Enum...)
	}
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(foldLure(t))
		b.WriteString("\n")
	}
	card := b.String()
	for _, l := range lures {
		span := []rune(foldLure(l))
		if len(span) == 0 {
			continue
		}
		w := min(lureWindow, len(span))
		for i := 0; i+w <= len(span); i++ {
			if strings.Contains(card, string(span[i:i+w])) {
				return true
			}
		}
	}
	return false
}

// foldLure is the form lures and card texts are compared in: NFKC, hidden
// characters removed, lower case, whitespace collapsed.
func foldLure(s string) string {
	return collapseSpace(strings.ToLower(stripHidden(norm.NFKC.String(s))))
}

func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// write prints the figures: the totals, a line per technique, then the
// misses.
func (f *Figures) write(b *strings.Builder) {
	fmt.Fprintf(b, "labelled: %d poisoned, %d held (%.1f%%), %d put a lure on a card (%.1f%%); %d benign, %d held (%.1f%%), %d lose text (%.1f%%)\n",
		f.Poisoned, f.PoisonedHeld, percent(f.PoisonedHeld, f.Poisoned), f.LureOnCard, percent(f.LureOnCard, f.Poisoned),
		f.Benign, f.BenignHeld, percent(f.BenignHeld, f.Benign), f.BenignLost, percent(f.BenignLost, f.Benign))
	techniques := make([]string, 0, len(f.ByTechnique))
	width := 0
	for t := range f.ByTechnique {
		techniques = append(techniques, t)
		width = max(width, utf8.RuneCountInString(t))
	}
	slices.Sort(techniques)
	for _, t := range techniques {
		c := f.ByTechnique[t]
		if t == TechniqueBenign {
			fmt.Fprintf(b, "  %-*s %3d held of %3d, %3d lose text\n", width, t, c.Held, c.Tools, c.Lost)
			continue
		}
		fmt.Fprintf(b, "  %-*s %3d held of %3d, %3d lure on card\n", width, t, c.Held, c.Tools, c.LureOnCard)
	}
	for _, m := range f.Misses {
		fmt.Fprintf(b, "  %s: %s/%s (%s, %s)\n", m.What, m.Server, m.Name, m.Technique, m.Field)
	}
}
