package schema

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Card budgets. A typical card (summary and a handful of inputs) renders
// within the 1,800 bytes a discovery result allows one card; the stored card
// never exceeds MaxCardBytes.
const (
	MaxNameChars    = 64  // characters of a tool name on a card
	summaryChars    = 280 // characters of summary before shrinking
	inputDescChars  = 80  // characters of one input description before shrinking
	noteChars       = 240 // characters of the card note
	maxEnumValues   = 8   // enum values shown per input
	maxEnumChars    = 40  // characters of one enum value shown
	shrunkSummary   = 120 // summary characters once inputs had to shrink
	shrunkInputDesc = 32  // input description characters at the second shrinking step
)

// buildCard projects a normalized tool onto a card and reports how many
// characters of provider prose it left out.
// description is the tool's description already cut to MaxProseChars; root
// is its input schema.
// Flagged sentences and names (cut) never reach the card; when any were
// found, the note says text was removed.
func buildCard(server string, tool *node, description string, root *node, s shape, shown map[string]string, cut *spanCutter) (Card, int) {
	name := tool.get("name").str()
	shownName := name
	if cut.flagged(name) {
		shownName = withheldName
	}
	card := Card{
		Name:     SanitizeName(shownName, MaxNameChars),
		Provider: SanitizeName(server, MaxNameChars),
		Risk:     riskOf(tool.get("annotations")),
		Complete: true,
	}
	prose := description
	if strings.TrimSpace(prose) == "" {
		prose = cut.cut(tool.get("title").str())
	}
	summary, proseCut := sanitize(prose, summaryChars, cut.lureIn(prose), true)
	if summary == "" {
		summary, _ = Sanitize(nameWords(shownName), summaryChars)
	}
	card.Summary = summary

	var notes []string
	ordered := s.ordered()
	requiredTotal := 0
	var inputs []Input
	for _, p := range ordered {
		if p.required {
			requiredTotal++
		}
		if len(inputs) == MaxCardInputs {
			continue
		}
		in, inCut := projectInput(root, p, shown[p.name], cut)
		proseCut += inCut
		inputs = append(inputs, in)
		if p.required {
			if fields := nestedRequired(root, p.schema); len(fields) > 0 {
				notes = append(notes, fmt.Sprintf("%s needs nested fields (%s)", in.Name, listNames(fields, 4)))
			}
		}
	}
	if s.alternatives > 0 {
		notes = append(notes, fmt.Sprintf("required inputs depend on which of %d alternatives is used", s.alternatives))
	}
	card.Inputs = inputs
	notice := ""
	if cut != nil && (len(cut.spans) > 0 || len(cut.left) > 0) {
		notice = removedNote
	}
	fitCard(&card, notes, notice, requiredTotal)
	return card, proseCut
}

// withheldName stands on a card for a tool name the detector flagged.
const withheldName = "name_withheld"

// projectInput writes one property as a card input. An input shown under
// an alias (param_01) has a description that starts with its provider
// name ("cc-emails: ..."), so the card says what it is, unless the
// detector flagged that name.
func projectInput(root *node, p property, alias string, cut *spanCutter) (Input, int) {
	target := resolve(root, p.schema)
	raw := target.get("description").str()
	if raw == "" {
		raw = p.schema.get("description").str()
	}
	if raw == "" {
		raw = target.get("title").str()
	}
	raw = cut.cut(raw)
	if alias != p.name && !cut.flagged(p.name) {
		if label, _ := Sanitize(p.name, MaxNameChars); label != "" {
			raw = strings.TrimSuffix(label+": "+raw, ": ")
		}
	}
	desc, n := sanitize(raw, inputDescChars, cut.lureIn(raw), true)
	return Input{
		Name:        alias,
		Type:        typeName(root, p.schema, 0),
		Required:    p.required,
		Description: desc,
		Enum:        inputEnum(root, target, cut),
	}, n
}

// inputEnum lists the enum values of an input, or of its items when it is an
// array of enumerated values.
func inputEnum(root, n *node, cut *spanCutter) []string {
	if n.get("enum") == nil && n.get("items") != nil {
		n = resolve(root, n.get("items"))
	}
	return enumValues(n, cut)
}

// enumValues lists up to maxEnumValues enum values as strings, skipping any
// that sanitizing would change (a card never shows a value it altered),
// any the detector flagged and any that addresses the model (recorded as
// left out).
func enumValues(n *node, cut *spanCutter) []string {
	var out []string
	for _, v := range arrayItems(n.get("enum")) {
		if len(out) == maxEnumValues {
			break
		}
		text := v.text
		switch v.kind {
		case kindString:
			if cut.flagged(text) || cut.addressed(text) {
				continue
			}
			if clean, _ := Sanitize(text, maxEnumChars); clean != text {
				continue
			}
		case kindNumber:
			if len(text) > maxEnumChars {
				continue
			}
		case kindBool:
			text = fmt.Sprint(v.truth)
		case kindNull:
			text = "null"
		default:
			continue
		}
		out = append(out, text)
	}
	return out
}

// fitCard writes the note and shrinks the card until its compact JSON fits
// MaxCardBytes: shorter input descriptions, no enums, a shorter summary, then
// fewer inputs, optional ones first. notice, when set, ends the note without
// making the card incomplete.
func fitCard(card *Card, notes []string, notice string, requiredTotal int) {
	setNote := func() {
		shownRequired := 0
		for _, in := range card.Inputs {
			if in.Required {
				shownRequired++
			}
		}
		all := notes
		if missing := requiredTotal - shownRequired; missing > 0 {
			all = append([]string{fmt.Sprintf("%d of %d required inputs are not on this card", missing, requiredTotal)}, notes...)
		}
		card.Complete = len(all) == 0
		if notice != "" {
			all = append(all, notice)
		}
		card.Note = cutWords(strings.Join(all, "; "), noteChars)
	}
	setNote()
	steps := []func(){
		func() { shrinkDescriptions(card, shrunkInputDesc) },
		func() { dropEnums(card) },
		func() { shrinkSummary(card, shrunkSummary) },
		func() { shrinkDescriptions(card, 0) },
		func() { shrinkSummary(card, 0) },
	}
	for _, step := range steps {
		if cardBytes(card) <= MaxCardBytes {
			return
		}
		step()
	}
	for cardBytes(card) > MaxCardBytes && len(card.Inputs) > 0 {
		card.Inputs = card.Inputs[:len(card.Inputs)-1]
		setNote()
	}
}

// shrinkDescriptions cuts every input description to chars characters;
// 0 removes them.
func shrinkDescriptions(card *Card, chars int) {
	for i := range card.Inputs {
		card.Inputs[i].Description = cutWords(card.Inputs[i].Description, chars)
		if chars == 0 {
			card.Inputs[i].Description = ""
		}
	}
}

func dropEnums(card *Card) {
	for i := range card.Inputs {
		card.Inputs[i].Enum = nil
	}
}

// shrinkSummary cuts the summary to chars characters; 0 replaces it with
// the words of the tool name.
func shrinkSummary(card *Card, chars int) {
	if chars == 0 {
		card.Summary = cutWords(nameWords(card.Name), MaxNameChars)
		return
	}
	card.Summary = cutWords(card.Summary, chars)
}

// cardBytes is the size of the card as compact JSON.
func cardBytes(card *Card) int {
	b, err := json.Marshal(card)
	if err != nil {
		return MaxCardBytes + 1
	}
	return len(b)
}

// riskOf reads MCP annotations: readOnlyHint true is read-only,
// destructiveHint true is destructive, any other behaviour hint is a write,
// and no hints at all leave the risk unknown.
func riskOf(annotations *node) Risk {
	if annotations == nil || annotations.kind != kindObject {
		return RiskUnknown
	}
	if h := annotations.get("readOnlyHint"); h != nil && h.kind == kindBool && h.truth {
		return RiskReadOnly
	}
	if h := annotations.get("destructiveHint"); h != nil && h.kind == kindBool && h.truth {
		return RiskDestructive
	}
	for _, key := range annotations.keys {
		if strings.HasSuffix(key, "Hint") {
			return RiskWrite
		}
	}
	return RiskUnknown
}

// listNames joins up to n clear names for a note, counting the rest; a
// provider name that is not clear is counted, never shown.
func listNames(names []string, n int) string {
	shown := make([]string, 0, n)
	for _, name := range names {
		if len(shown) < n && clearName.MatchString(name) && len(name) <= 32 {
			shown = append(shown, name)
		}
	}
	out := strings.Join(shown, ", ")
	if rest := len(names) - len(shown); rest > 0 {
		if out != "" {
			out += " and "
		}
		out += fmt.Sprintf("%d more", rest)
	}
	return out
}
