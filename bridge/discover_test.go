package bridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/schema"
)

// bigCard builds a card with n inputs, the first required of them required,
// each with a description of descLen characters and enumLen enum values.
func bigCard(n, required, descLen, enumLen int) card {
	c := card{
		ActionID: handlePrefix + strings.Repeat("x", handleChars),
		Name:     "create_ticket", Summary: strings.Repeat("Creates a ticket. ", 20),
		Provider: "helpdesk", Risk: schema.RiskWrite, Confidence: 0.82, Complete: true,
	}
	for i := range n {
		in := schema.Input{
			Name: fmt.Sprintf("param_%02d", i+1), Type: "string", Required: i < required,
			Description: strings.Repeat("d", descLen),
		}
		for j := range enumLen {
			in.Enum = append(in.Enum, fmt.Sprintf("value_%d", j))
		}
		c.Inputs = append(c.Inputs, in)
	}
	return c
}

func TestShrinkCard(t *testing.T) {
	tests := []struct {
		name         string
		in           card
		wantComplete bool
		wantInputs   int // -1: any
		wantEnums    bool
	}{
		{"small card unchanged", bigCard(2, 1, 40, 3), true, 2, true},
		{"enums dropped first", bigCard(8, 2, 20, 30), true, 8, false},
		{"long descriptions shortened", bigCard(12, 3, 400, 0), true, 12, false},
		{"optional inputs dropped", bigCard(32, 2, 200, 10), true, -1, false},
		{"required inputs dropped, card says so", bigCard(60, 60, 100, 5), false, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shrinkCard(tt.in, MaxCardBytes)
			size := len(compactJSON(got))
			if size > MaxCardBytes {
				t.Fatalf("card is %d bytes after shrinking, budget %d", size, MaxCardBytes)
			}
			if got.Complete != tt.wantComplete {
				t.Fatalf("complete %v, want %v (note %q)", got.Complete, tt.wantComplete, got.Note)
			}
			if !got.Complete && got.Note == "" {
				t.Fatal("an incomplete card has no note")
			}
			if tt.wantInputs >= 0 && len(got.Inputs) != tt.wantInputs {
				t.Fatalf("%d inputs, want %d", len(got.Inputs), tt.wantInputs)
			}
			required := 0
			for _, in := range got.Inputs {
				if (len(in.Enum) > 0) != tt.wantEnums && len(tt.in.Inputs[0].Enum) > 0 {
					t.Fatalf("input %s enum %v, want enums kept: %v", in.Name, in.Enum, tt.wantEnums)
				}
				if in.Required {
					required++
				}
			}
			wantRequired := 0
			for _, in := range tt.in.Inputs {
				if in.Required {
					wantRequired++
				}
			}
			if got.Complete && required != wantRequired {
				t.Fatalf("a complete card shows %d of %d required inputs", required, wantRequired)
			}
			if tt.in.Inputs[0].Enum != nil && len(tt.in.Inputs[0].Enum) == 0 {
				t.Fatal("shrinking changed the caller's card")
			}
		})
	}
}

func TestShrinkCardLeavesCallerUntouched(t *testing.T) {
	in := bigCard(40, 5, 300, 20)
	before := string(compactJSON(in))
	shrinkCard(in, MaxCardBytes)
	if after := string(compactJSON(in)); after != before {
		t.Fatal("shrinkCard changed the card it was given")
	}
}

func TestFitDiscoveryBudget(t *testing.T) {
	tests := []struct {
		name        string
		matches     int
		inputs      int
		descLen     int
		wantOmitted bool
	}{
		{"small cards all fit", 5, 3, 10, false},
		{"big cards overflow the answer", 5, 20, 400, true},
		{"one big card fits", 1, 20, 400, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Server{handles: newHandles(newClock().now, nil)}
			var ms []match
			for i := range tt.matches {
				c := bigCard(tt.inputs, 2, tt.descLen, 8)
				c.ActionID = ""
				c.Name = fmt.Sprintf("tool_%d", i)
				ms = append(ms, match{card: c, act: action{server: "s", tool: c.Name, hash: "h"}})
			}
			ans, err := b.fitDiscovery("session", ms, 0)
			if err != nil {
				t.Fatal(err)
			}
			text := compactJSON(ans)
			if len(text) > maxAnswerBytes {
				t.Fatalf("answer is %d bytes, budget %d", len(text), maxAnswerBytes)
			}
			if got := len(ans.Matches) + ans.Omitted; got != tt.matches {
				t.Fatalf("%d shown + %d omitted, want %d ranked", len(ans.Matches), ans.Omitted, tt.matches)
			}
			if (ans.Omitted > 0) != tt.wantOmitted {
				t.Fatalf("omitted %d, want some: %v", ans.Omitted, tt.wantOmitted)
			}
			for _, c := range ans.Matches {
				if len(compactJSON(c)) > MaxCardBytes {
					t.Fatalf("card %s is %d bytes", c.Name, len(compactJSON(c)))
				}
				a, err := b.handles.resolve("session", c.ActionID)
				if err != nil || a.tool != c.Name {
					t.Fatalf("card %s: its action id resolves to %+v, %v", c.Name, a, err)
				}
			}
			if n := len(b.handles.acts); n != len(ans.Matches) {
				t.Fatalf("ids issued for %d actions, %d cards shown", n, len(ans.Matches))
			}
		})
	}
}

func TestDiscoveryAnswerShapes(t *testing.T) {
	b := &Server{handles: newHandles(newClock().now, nil)}
	full := bigCard(3, 1, 30, 2)
	full.Summary = "Creates a helpdesk ticket."
	incomplete := bigCard(1, 1, 20, 0)
	incomplete.Name, incomplete.Complete, incomplete.Note = "bulk_import", false, "2 required inputs are not shown"
	noInputs := card{Name: "list_tickets", Summary: "Lists tickets.", Provider: "helpdesk", Risk: schema.RiskReadOnly, Confidence: 0.5, Complete: true}
	tests := []struct {
		name    string
		matches []card
	}{
		{"discover_empty.json", nil},
		{"discover_cards.json", []card{full, incomplete, noInputs}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms []match
			for _, c := range tt.matches {
				ms = append(ms, match{card: c, act: action{tool: c.Name}})
			}
			ans, err := b.fitDiscovery("s", ms, 0)
			if err != nil {
				t.Fatal(err)
			}
			res := textAnswer(ans, false)
			text := answerText(t, res)
			var back map[string]json.RawMessage
			if err := json.Unmarshal([]byte(text), &back); err != nil {
				t.Fatal(err)
			}
			if _, ok := back["matches"]; !ok {
				t.Fatal(`no "matches" key`)
			}
			golden(t, tt.name, []byte(text+"\n"))
		})
	}
}

// shrinkCard makes c's compact JSON fit max bytes, losing the least useful
// first: enum values, then input descriptions, then the summary's tail, then
// optional inputs, then required inputs (and then c says it is incomplete).
func shrinkCard(c card, max int) card {
	c, _ = fitCard(c, max)
	return c
}

// TestNoteOrder: a card placed above one of higher confidence says why;
// cards in confidence order say nothing, and a card's own note is kept.
func TestNoteOrder(t *testing.T) {
	ms := []match{
		{card: card{Name: "a", Confidence: 0.84}},
		{card: card{Name: "b", Confidence: 0.38, Note: "requester needs nested fields (email)"}},
		{card: card{Name: "c", Confidence: 0.53}},
		{card: card{Name: "d", Confidence: 0.53}},
	}
	noteOrder(ms)
	want := []string{"", "requester needs nested fields (email). " + orderNote, "", ""}
	for i, m := range ms {
		if m.card.Note != want[i] {
			t.Errorf("card %s: note %q, want %q", m.card.Name, m.card.Note, want[i])
		}
	}
}
