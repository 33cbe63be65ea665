package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRealCatalogs normalizes every tool real servers sent, server by
// server through NormalizeCatalog: each is stored or refused with a reason,
// every card fits its limits, every record keeps the tool object exactly.
func TestRealCatalogs(t *testing.T) {
	for _, name := range []string{"laptop.jsonl", "twilio-all.jsonl"} {
		t.Run(name, func(t *testing.T) {
			lines, servers, listed := listedByServer(t, name)
			reasons := map[string]int{}
			var sizes []int
			rawTotal, cardTotal, stored, incomplete := 0, 0, 0, 0
			for _, server := range servers {
				raws := listed[server]
				sent := map[string]json.RawMessage{}
				for _, raw := range raws {
					rawTotal += len(raw)
					var probe struct{ Name string }
					_ = json.Unmarshal(raw, &probe)
					sent[probe.Name] = raw
				}
				tools, refused := normalizeAll(server, raws)
				if len(tools)+len(refused) != len(raws) {
					t.Fatalf("%s: %d stored + %d refused != %d listed", server, len(tools), len(refused), len(raws))
				}
				for _, r := range refused {
					if strings.TrimSpace(r.Reason) == "" {
						t.Errorf("%s: tool %q refused without a reason", server, r.Tool)
					}
					reasons[r.Reason]++
				}
				for _, tool := range tools {
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
					raw := sent[tool.Record.Name]
					want := decodeExact(t, raw)
					if got := decodeExact(t, tool.Record.Raw); !reflect.DeepEqual(got, want) {
						t.Errorf("%s: Record.Raw differs from the tool sent", tool.Record.Name)
					}
					if got := decodeExact(t, tool.Record.InputSchema); !reflect.DeepEqual(got, want.(map[string]any)["inputSchema"]) {
						t.Errorf("%s: Record.InputSchema differs from the schema sent", tool.Record.Name)
					}
					sizes = append(sizes, len(card))
					cardTotal += len(card)
				}
			}
			slices.Sort(sizes)
			t.Logf("%s: %d tools from %d servers, %d stored (%d incomplete cards), %d refused", name, len(lines), len(servers), stored, incomplete, sumCounts(reasons))
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

// TestIndexesTaskTools: a tool that must be called as a task
// (execution.taskSupport "required", everything/simulate-research-query in
// the laptop catalog) is indexed as the others are, and its record says it
// needs a task; "optional" and "forbidden" do not.
func TestIndexesTaskTools(t *testing.T) {
	var everything []json.RawMessage
	for _, line := range readLines(t, dataPath("catalogs", "laptop.jsonl")) {
		if server, raw := catalogTool(t, line); server == "everything" {
			everything = append(everything, raw)
		}
	}
	tools, refused := normalizeAll("everything", everything)
	if len(refused) != 0 || len(tools) != len(everything) {
		t.Fatalf("%d of %d tools stored, refused %+v", len(tools), len(everything), refused)
	}
	var tasks []string
	for _, tool := range tools {
		rec, err := json.Marshal(tool.Record)
		if err != nil {
			t.Fatal(err)
		}
		if NeedsTask(rec) {
			tasks = append(tasks, tool.Record.Name)
		}
	}
	if len(tasks) != 1 || tasks[0] != "simulate-research-query" {
		t.Errorf("tools that need a task: %q, want simulate-research-query", tasks)
	}
	for _, support := range []string{"optional", "forbidden", ""} {
		raw := `{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"` + support + `"}}`
		tool, err := Normalize("s", json.RawMessage(raw))
		if err != nil {
			t.Fatalf("taskSupport %q: %v", support, err)
		}
		if rec, _ := json.Marshal(tool.Record); NeedsTask(rec) {
			t.Errorf("taskSupport %q needs a task", support)
		}
	}
}
