package search

import "testing"

func TestDestroysUnasked(t *testing.T) {
	tests := []struct {
		name, intent string
		want         bool
	}{
		{"delete_observations", "store a fact about a person", true},
		{"drop_table", "show me the orders table", true},
		{"delete_observations", "delete what I said about Bob", false},
		{"delete_observations", "remove a fact about Bob", false},
		{"remove_item", "deletion of an item", false},
		{"kill_process", "stop the server process", false},
		{"delete_cache", "clear the cache", false},
		{"remove_star", "unstar that repository", false},
		{"delete_webhook", "disable the webhook", false},
		{"add_observations", "store a fact about a person", false},
		{"list_deleted_items", "list items", false}, // "deleted" is no action
	}
	for _, tt := range tests {
		if got := destroysUnasked(nameWords(tt.name), words(tt.intent)); got != tt.want {
			t.Errorf("destroysUnasked(%q, %q) = %v, want %v", tt.name, tt.intent, got, tt.want)
		}
	}
}
