package search

import "testing"

func TestForManyUnasked(t *testing.T) {
	docs := map[string]int{"file": 10, "files": 4, "log": 3}
	for _, tt := range []struct {
		name, intent string
		want         bool
	}{
		{"read_multiple_files", "read the whole log file big.log", true},
		{"read_multiple_files", "read the log files", false},                  // a plural the catalog holds
		{"read_multiple_files", "read package.json and tsconfig.json", false}, // two values
		{"read_multiple_files", "read both logs", false},                      // a quantifier
		{"batch_create_objects", "create a contact", true},
		{"read_text_file", "read the whole log file big.log", false}, // one file's tool
	} {
		if got := forManyUnasked(nameTerms(tt.name), tt.intent, docs); got != tt.want {
			t.Errorf("forManyUnasked(%s, %q) = %v, want %v", tt.name, tt.intent, got, tt.want)
		}
	}
}

func TestReadsWhenKept(t *testing.T) {
	for _, tt := range []struct {
		name, verb string
		want       bool
	}{
		{"read_graph", "remember", true},
		{"search_nodes", "note", true},
		{"add_observations", "remember", false},
		{"read_graph", "forget", false}, // forgetting is not keeping
		{"read_graph", "", false},
	} {
		if got := readsWhenKept(nameTerms(tt.name), tt.verb); got != tt.want {
			t.Errorf("readsWhenKept(%s, %q) = %v, want %v", tt.name, tt.verb, got, tt.want)
		}
	}
}
