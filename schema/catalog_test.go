package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRealCatalogs normalizes every tool real servers sent: each is stored
// or refused with a reason, every card fits its limits, every record keeps
// the tool object exactly.
func TestRealCatalogs(t *testing.T) {
	for _, name := range []string{"laptop.jsonl", "twilio-all.jsonl"} {
		t.Run(name, func(t *testing.T) {
			lines := readLines(t, sharedPath("catalogs", name))
			reasons := map[string]int{}
			var sizes []int
			rawTotal, cardTotal, stored, incomplete := 0, 0, 0, 0
			for _, line := range lines {
				server, raw := catalogTool(t, line)
				rawTotal += len(raw)
				tool, err := Normalize(server, raw)
				if err != nil {
					var re *RefusalError
					if !errors.As(err, &re) || re.Reason == "" {
						t.Fatalf("Normalize(%.80s) = %v, want a *RefusalError with a reason", raw, err)
					}
					reasons[re.Reason]++
					continue
				}
				stored++
				card := mustJSON(t, tool.Card)
				if len(card) > MaxCardBytes {
					t.Errorf("%s: card is %d bytes, over %d", tool.Record.Name, len(card), MaxCardBytes)
				}
				if len(tool.Card.Inputs) > MaxCardInputs {
					t.Errorf("%s: %d inputs on the card", tool.Record.Name, len(tool.Card.Inputs))
				}
				if !tool.Card.Complete {
					incomplete++
				}
				if got, want := decodeExact(t, tool.Record.Raw), decodeExact(t, raw); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Record.Raw differs from the tool sent", tool.Record.Name)
				}
				if got, want := decodeExact(t, tool.Record.InputSchema), decodeExact(t, raw).(map[string]any)["inputSchema"]; !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Record.InputSchema differs from the schema sent", tool.Record.Name)
				}
				sizes = append(sizes, len(card))
				cardTotal += len(card)
			}
			if stored+sumCounts(reasons) != len(lines) {
				t.Fatalf("%d stored + %d refused != %d tools", stored, sumCounts(reasons), len(lines))
			}
			slices.Sort(sizes)
			t.Logf("%s: %d tools, %d stored (%d incomplete cards), %d refused", name, len(lines), stored, incomplete, sumCounts(reasons))
			for reason, n := range reasons {
				t.Logf("  refused %d: %s", n, reason)
			}
			if len(sizes) > 0 {
				t.Logf("card bytes: median %d, p95 %d, max %d", sizes[len(sizes)/2], sizes[len(sizes)*95/100], sizes[len(sizes)-1])
			}
			t.Logf("raw tool bytes %d vs card bytes %d (%.1f%% smaller)", rawTotal, cardTotal, 100*(1-float64(cardTotal)/float64(rawTotal)))
		})
	}
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// TestRealCatalogsAsOneCatalog runs NormalizeCatalog over each real catalog
// and checks it agrees with Normalize tool by tool.
func TestRealCatalogsAsOneCatalog(t *testing.T) {
	lines := readLines(t, sharedPath("catalogs", "twilio-all.jsonl"))
	raws := make([]json.RawMessage, len(lines))
	for i, line := range lines {
		_, raws[i] = catalogTool(t, line)
	}
	tools, refused := NormalizeCatalog("twilio", raws)
	if len(tools)+len(refused) != len(raws) {
		t.Fatalf("%d tools + %d refused != %d listed", len(tools), len(refused), len(raws))
	}
	for _, r := range refused {
		if strings.TrimSpace(r.Reason) == "" {
			t.Errorf("tool %q refused without a reason", r.Tool)
		}
	}
}
