package search

import (
	"slices"
	"testing"

	"github.com/capbridge/capbridge/store"
)

func TestQueryWordsExpansion(t *testing.T) {
	tests := []struct {
		intent string
		want   []string
	}{
		{"a customer who can't log in", []string{"customer", "login"}},
		{"signed in users", []string{"login", "users"}},
		{"set up a call", []string{"setup", "call"}},
		{"log the call in the CRM", []string{"log", "call", "crm"}},
		{"who is jane@acme.com", []string{"email"}}, // a value, not the topic
		{"tweet @handle", []string{"tweet", "handle"}},
		{"how many pods are running", []string{"count", "pods", "running"}},
		{"many files", []string{"many", "files"}},
		{"how big is this file", []string{"size", "file"}},
		{"how far is it to Lyon", []string{"distance", "lyon"}},
		{"a big file", []string{"big", "file"}},
		// An abbreviation keeps its place; its long form follows it.
		{"merge the PR", []string{"merge", "pr", "pull", "request"}},
		{"list k8s pods in the repo", []string{"list", "k8s", "kubernetes", "pods", "repo", "repository"}},
		{"pull request", []string{"pull", "request"}},
	}
	for _, tt := range tests {
		if got := queryWords(tt.intent); !slices.Equal(got, tt.want) {
			t.Errorf("queryWords(%q) = %q, want %q", tt.intent, got, tt.want)
		}
	}
}

func TestSynonymsExpand(t *testing.T) {
	syn := newSynonyms([][]string{{"case", "ticket"}, {"meeting", "event"}, {"directory", "folder"}})
	tests := []struct {
		words, want []string
	}{
		{[]string{"case"}, []string{"ticket"}},
		{[]string{"case", "ticket"}, nil},
		{[]string{"meetings"}, []string{"event"}},
		{[]string{"directories"}, []string{"folder"}},
		{[]string{"weather"}, nil},
	}
	for _, tt := range tests {
		if got := syn.expand(tt.words); !slices.Equal(got, tt.want) {
			t.Errorf("expand(%q) = %q, want %q", tt.words, got, tt.want)
		}
	}
}

func TestAddHits(t *testing.T) {
	a := []store.Hit{{ID: 1, Score: 5}, {ID: 2, Score: 4}}
	b := []store.Hit{{ID: 2, Score: 20}, {ID: 3, Score: 10}}
	got := addHits(a, b, 0.1, 2)
	want := []store.Hit{{ID: 2, Score: 6}, {ID: 1, Score: 5}}
	if !slices.Equal(got, want) {
		t.Errorf("addHits = %v, want %v", got, want)
	}
}

func TestCoverage(t *testing.T) {
	syn := newSynonyms([][]string{{"open", "create"}, {"case", "ticket"}})
	tests := []struct {
		name   string
		intent []string
		want   float64
	}{
		{"create_ticket", []string{"open", "case"}, 1},
		{"get_customer", []string{"open", "case", "customer"}, 0.5},
		{"log_call", []string{"login"}, 0},
		{"calculate_area", []string{"calc", "areas"}, 1},
	}
	for _, tt := range tests {
		// Names compared alone: every word weighs the same.
		if got := nameCoverage(nameTerms(tt.name), tt.intent, syn, nil, 1); got != tt.want {
			t.Errorf("nameCoverage(%q, %q) = %v, want %v", tt.name, tt.intent, got, tt.want)
		}
	}
	// Among 20 names of one family, the words all of them hold weigh
	// little: "create service" covers most of CreateService's name, and
	// little of CreateRateLimit's.
	family := map[string]int{"twilio": 20, "verify": 20, "v2": 20, "create": 10, "service": 2, "rate": 1, "limit": 1}
	service := nameCoverage(nameTerms("TwilioVerifyV2--CreateService"), []string{"create", "verify", "service"}, syn, family, 20)
	rate := nameCoverage(nameTerms("TwilioVerifyV2--CreateRateLimit"), []string{"create", "verify", "service"}, syn, family, 20)
	if service < 0.7 || rate > 0.3 {
		t.Errorf("nameCoverage in a family: CreateService %.2f (want >= 0.7), CreateRateLimit %.2f (want <= 0.3)", service, rate)
	}
	doc := store.Doc{Name: "create ticket", Desc: "Open a new support ticket (a case) for a customer."}
	descTests := []struct {
		intent  []string
		weights []float64
		want    float64
	}{
		{[]string{"open", "case"}, []float64{1, 3}, 1},
		{[]string{"case", "login"}, []float64{3, 1}, 0.75},
		{[]string{"customers"}, []float64{1}, 1},
		{[]string{"tomorrow"}, []float64{0}, 0},
	}
	for _, tt := range descTests {
		if got := descCoverageOf(doc, tt.intent, tt.weights, make([][]string, len(tt.intent))); got != tt.want {
			t.Errorf("descCoverage(%q) = %v, want %v", tt.intent, got, tt.want)
		}
	}
	// A word held only by a synonym (a phrase: all its words) counts
	// synonymCover as much.
	memory := store.Doc{Name: "add observations", Desc: "Add new observations to existing entities in the knowledge graph"}
	table := newSynonyms(synonymGroups)
	intent := []string{"remember", "fact"}
	if got := descCoverageOf(memory, intent, []float64{1, 1}, [][]string{table.of("remember"), table.of("fact")}); got != synonymCover {
		t.Errorf("descCoverage(%q) by synonyms = %v, want %v", intent, got, synonymCover)
	}
}

// descCoverageOf is descCoverage with syns, intent word by intent word,
// indexed as boostNames indexes them.
func descCoverageOf(d store.Doc, intent []string, weights []float64, syns [][]string) float64 {
	forms := newFormIndex()
	slots := forms.addSynonyms(syns, func(int) bool { return true })
	return descCoverage(d, intent, weights, forms, slots)
}

// TestJoinedCoversPhrasalVerbs keeps joined's list in step with the table.
func TestJoinedCoversPhrasalVerbs(t *testing.T) {
	for pair, j := range phrasalVerbs {
		if !joined(j) {
			t.Errorf("joined(%q) = false for %q", j, pair)
		}
	}
	if joined("log") {
		t.Error(`joined("log") = true`)
	}
}

func TestSynonymsWithin(t *testing.T) {
	docs := map[string]int{"ticket": 40, "issue": 10, "case": 5, "sign": 30, "out": 12, "office": 8}
	tests := []struct {
		name   string
		syns   []string
		kept   []string
		budget int
		want   []string
	}{
		{"rarest first within what is left", []string{"ticket", "issue"}, []string{"case"}, 120, []string{"issue"}},
		{"at most a share of the budget", []string{"ticket", "issue"}, nil, 80, []string{"issue"}},
		{"no budget keeps all known", []string{"ticket", "issue", "incident"}, nil, 0, []string{"issue", "ticket"}},
		{"phrase counts as its rarest long word", []string{"out of office", "sign in", "log out"}, nil, 80, []string{"out of office"}},
		{"budget spent by the intent's words", []string{"issue"}, []string{"ticket"}, 45, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := synonymsWithin(tt.syns, docs, tt.kept, tt.budget); !slices.Equal(got, tt.want) {
				t.Errorf("synonymsWithin = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKnownForm(t *testing.T) {
	docs := map[string]int{"meeting": 3, "close": 2, "directory": 4}
	tests := []struct {
		word string
		want bool
	}{
		{"meeting", true},
		{"meetings", true},
		{"closing", true},
		{"closed", true},
		{"directories", true},
		{"meetng", false},
	}
	for _, tt := range tests {
		if got := knownForm(tt.word, docs); got != tt.want {
			t.Errorf("knownForm(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

func TestTypoCandidate(t *testing.T) {
	intent := "Weather in Melbourne next weeek, about 10cm of rain? ask NASA"
	named := writtenAsNames(intent)
	tests := []struct {
		word string
		want bool
	}{
		{"weeek", true},
		{"weather", true}, // capitalized first: says nothing
		{"melbourne", false},
		{"nasa", false},
		{"10cm", false},
		{"rain", false}, // too short to correct
	}
	for _, tt := range tests {
		if got := typoCandidate(tt.word, named); got != tt.want {
			t.Errorf("typoCandidate(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

func TestCompoundCandidates(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"who is on call now", []string{"oncall", "callnow"}}, // "who is": stop words
		{"the grafana data source", []string{"thegrafana", "grafanadata", "datasource"}},
		{"set the user-name", []string{"setthe", "theuser", "username"}},
		{"what to do", nil},                      // stop words only
		{"log in to page 2", []string{"topage"}}, // a phrasal pair, a number
		{"a bc", nil},                            // under five runes
	}
	for _, tt := range tests {
		if got := compoundCandidates(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("compoundCandidates(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// A synonym holds in the plural the intent writes: "facts" holds
// observations as "fact" does.
func TestSynonymsHoldPlurals(t *testing.T) {
	syn := newSynonyms(synonymGroups)
	for _, intent := range []string{"store a fact", "store facts"} {
		if !syn.holds(words(intent), "observations") {
			t.Errorf("%q does not hold observations", intent)
		}
	}
	if syn.holds(words("store a factor"), "observations") {
		t.Error(`"factor" holds observations`)
	}
}
