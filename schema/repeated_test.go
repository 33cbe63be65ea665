package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestRepeatedSplit(t *testing.T) {
	r := repeatedSentences{"Acme API: the public Acme REST API.": true, "Error Responses:": true}
	tests := []struct {
		desc, own, repeated string
	}{
		{"Acme API: the public  Acme REST API. Create a call.", "Create a call.", "Acme API: the public  Acme REST API."},
		{"Create a page\nError Responses:\n400: Bad request", "Create a page\n400: Bad request", "Error Responses:"},
		// Nothing else said: the description is kept whole.
		{"Acme API: the public Acme REST API.", "Acme API: the public Acme REST API.", ""},
		{"Nothing shared here.", "Nothing shared here.", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		own, repeated := r.split(tt.desc)
		if own != tt.own || repeated != tt.repeated {
			t.Errorf("split(%q) = %q, %q; want %q, %q", tt.desc, own, repeated, tt.own, tt.repeated)
		}
	}
	if own, rep := repeatedSentences(nil).split("A b. C d."); own != "A b. C d." || rep != "" {
		t.Errorf("nil set split = %q, %q", own, rep)
	}
}

// TestRepeatedCounts: a sentence is repeated when at least half the
// listing's tools, and at least minRepeatHolders, hold it, in a listing
// of at least minRepeatTools tools; a tool holding it twice counts once.
func TestRepeatedCounts(t *testing.T) {
	shared := "Uses the Acme REST API."
	tests := []struct {
		name    string
		holders int
		tools   int
		want    bool
	}{
		{"every tool", 4, 4, true},
		{"half", 3, 6, true},
		{"under half", 3, 7, false},
		{"too few holders", 2, 4, false},
		{"small listing", 3, 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c sentenceCounter
			for i := range tt.tools {
				desc := fmt.Sprintf("Tool number %d does its own thing.", i)
				if i < tt.holders {
					desc += " " + shared + " " + shared
				}
				c.add(desc)
			}
			if got := c.repeated()[shared]; got != tt.want {
				t.Errorf("repeated = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCatalogRepeatedSentences: over the real catalogs, a sentence or a
// sentence-ending aside most of a server's tools repeat reaches none of
// their cards (unless it is all a tool says), every record keeps its
// description exactly, and Described splits it without losing a sentence.
func TestCatalogRepeatedSentences(t *testing.T) {
	_, servers, listed := listedByServer(t, "laptop.jsonl")
	split, summaries, alone, asides := 0, 0, 0, 0
	before, after := 0, 0 // card summary bytes, each tool normalized alone and in its catalog
	for _, server := range servers {
		raws := listed[server]
		_, repeated := readListing(raws)
		tools, _ := normalizeAll(server, raws)
		for _, tool := range tools {
			single, err := Normalize(server, tool.Record.Raw)
			if err != nil {
				t.Fatalf("%s/%s: normalized alone: %v", server, tool.Record.Name, err)
			}
			before += len(single.Card.Summary)
			after += len(tool.Card.Summary)
			desc := tool.Record.Description
			if own, _ := tool.Described(); repeated.trimAsides(own) != own {
				asides++
			}
			var probe struct{ Description string }
			_ = json.Unmarshal(tool.Record.Raw, &probe)
			if desc != probe.Description {
				t.Fatalf("%s/%s: record description differs from the one listed", server, tool.Record.Name)
			}
			own, rep := tool.Described()
			if ownWords(own, repeated) {
				summaries++
				summary := strings.Join(strings.Fields(tool.Card.Summary), " ")
				for k := range repeated {
					if strings.Contains(summary, strings.TrimSpace(k)) {
						t.Errorf("%s/%s: card summary holds the repeated %q", server, tool.Record.Name, k)
					}
				}
			}
			if rep == "" {
				if own != desc {
					t.Errorf("%s/%s: nothing repeated, but Described changed the description", server, tool.Record.Name)
				}
				continue
			}
			split++
			if got, want := sentenceKeys(own+"\n"+rep), sentenceKeys(desc); !sameSet(got, want) {
				t.Errorf("%s/%s: own and repeated sentences %v differ from the description's %v", server, tool.Record.Name, got, want)
			}
			for _, seg := range splitSegments(rep) {
				if k := sentenceKey(rep[seg.start:seg.end]); !repeated[k] {
					t.Errorf("%s/%s: %q taken out, but not repeated", server, tool.Record.Name, k)
				}
			}
		}
		if len(repeated) == 0 {
			alone++
		}
	}
	if split == 0 {
		t.Fatal("no description of the real catalogs was split: the test proves nothing")
	}
	t.Logf("%d servers, %d with repeated sentences; %d descriptions split, %d card summaries checked", len(servers), len(servers)-alone, split, summaries)
	t.Logf("card summaries: %d bytes with each tool normalized alone, %d in their catalogs", before, after)
	if asides == 0 {
		t.Fatal("no card of the real catalogs lost a repeated aside: the test proves nothing")
	}
}

// ownWords reports whether some sentence of own, less its trailing aside,
// is not in repeated: the tool says something of its own.
func ownWords(own string, repeated repeatedSentences) bool {
	for _, seg := range splitSegments(own) {
		s := own[seg.start:seg.end]
		if at, _ := trailingAside(s); at >= 0 {
			s = s[:at]
		}
		if k := sentenceKey(s); k != "" && !repeated[k] {
			return true
		}
	}
	return false
}

// sentenceKeys returns the keys of s's sentences.
func sentenceKeys(s string) map[string]bool {
	out := make(map[string]bool)
	for _, seg := range splitSegments(s) {
		if k := sentenceKey(s[seg.start:seg.end]); k != "" {
			out[k] = true
		}
	}
	return out
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// FuzzRepeatedSplit: trimAsides never adds text, and split keeps every
// sentence it does not take out, in order.
func FuzzRepeatedSplit(f *testing.F) {
	f.Add("First one. Second one.\nThird one!", "Second one.")
	f.Add("Acme API: the public Acme REST API. Create a call.", "Acme API: the public Acme REST API.")
	f.Add("", "")
	f.Add("...\n\n. ? !", ". ?")
	f.Add("Create a call (Uses a default (Sid)). Then more.", "(Uses a default (Sid))")
	f.Fuzz(func(t *testing.T, desc, shared string) {
		r := repeatedSentences{sentenceKey(shared): true, asideKey(shared): true}
		if trimmed := r.trimAsides(desc); len(trimmed) > len(desc) {
			t.Fatalf("trimAsides(%q) grew it to %q", desc, trimmed)
		}
		own, rep := r.split(desc)
		if rep == "" {
			if own != desc {
				t.Fatalf("split(%q) changed it to %q and took nothing", desc, own)
			}
			return
		}
		var kept []string
		for _, seg := range splitSegments(desc) {
			if k := sentenceKey(desc[seg.start:seg.end]); !r[k] {
				kept = append(kept, strings.TrimSpace(desc[seg.start:seg.end]))
			}
		}
		rest := own
		for _, s := range kept {
			i := strings.Index(rest, s)
			if i < 0 {
				t.Fatalf("split(%q) lost %q: own %q", desc, s, own)
			}
			rest = rest[i+len(s):]
		}
	})
}

func TestTrimAsides(t *testing.T) {
	r := repeatedSentences{asideKey("(Uses default Sid: AC00 if not provided)"): true}
	tests := []struct{ in, want string }{
		{"Create a call (Uses default Sid: AC00 if not provided)", "Create a call"},
		{"Create a call (Uses default  Sid: AC00 if not provided). Then more.", "Create a call. Then more."},
		{"Create a call (for a test)", "Create a call (for a test)"},
		{"Create (Uses default Sid: AC00 if not provided) a call.", "Create (Uses default Sid: AC00 if not provided) a call."},
		{"Delete a call. (Uses default Sid: AC00 if not provided)", "Delete a call. "},
		// Nothing else said: kept whole.
		{"(Uses default Sid: AC00 if not provided)", "(Uses default Sid: AC00 if not provided)"},
		{"Unclosed (Uses default Sid: AC00 if not provided", "Unclosed (Uses default Sid: AC00 if not provided"},
		{"Nested (see (Uses default Sid: AC00 if not provided))", "Nested (see (Uses default Sid: AC00 if not provided))"},
	}
	for _, tt := range tests {
		if got := r.trimAsides(tt.in); got != tt.want {
			t.Errorf("trimAsides(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRepeatedBounded: a listing of long descriptions made of distinct
// sentences holds at most maxSentenceKeys of them, and still finds the
// sentence every tool repeats.
func TestRepeatedBounded(t *testing.T) {
	var c sentenceCounter
	const shared = "Uses the Acme REST API."
	for tool := range 1000 {
		var b strings.Builder
		b.WriteString(shared)
		for i := 0; b.Len() < 2*MaxProseChars; i++ {
			fmt.Fprintf(&b, " Sentence %d of tool %d.", i, tool)
		}
		c.add(b.String())
	}
	if len(c.counts) != maxSentenceKeys {
		t.Errorf("%d sentences held, want the bound, %d", len(c.counts), maxSentenceKeys)
	}
	if !c.repeated()[shared] {
		t.Errorf("the shared sentence is not found among %d", len(c.counts))
	}
}
