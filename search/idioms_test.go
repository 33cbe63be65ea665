package search

import "testing"

// TestAsRemember: asking to keep something in memory is "remember".
func TestAsRemember(t *testing.T) {
	tests := []struct{ intent, want string }{
		{"Store in memory that the deploy moved", "remember  the deploy moved"},
		{"please save to your memory: Alice prefers email", "remember : Alice prefers email"},
		{"add to memories that I use vim", "remember  I use vim"},
		{"save to long-term memory my address", "remember  my address"},
		{"store the file in memory", "store the file in memory"},         // what to store comes first: no request to remember
		{"check memory usage", "check memory usage"},                     // RAM
		{"save memory snapshot to disk", "save memory snapshot to disk"}, // no "in" or "to" before it
	}
	for _, tt := range tests {
		if got := asRemember(tt.intent); got != tt.want {
			t.Errorf("asRemember(%q) = %q, want %q", tt.intent, got, tt.want)
		}
	}
}

// TestAsRecall: a question to the assistant's memory is "recall", and
// what it asks about is looked up, but for "what do you know about ...",
// which may ask what is known at large.
func TestAsRecall(t *testing.T) {
	tests := []struct {
		intent, want string
		recall       bool
		about        string
	}{
		{"What did I tell you about the staging password?", "recall  the staging password?", true, " the staging password?"},
		{"do you remember my favorite color", "recall  my favorite color", true, " my favorite color"},
		{"recall what I said about the project", "recall  the project", true, " the project"},
		{"what do you know about Alice", "recall  Alice", true, ""},
		{"I want to know the weather", "I want to know the weather", false, ""},
		{"tell me about the pods", "tell me about the pods", false, ""},
	}
	for _, tt := range tests {
		got, recall, about := asRecall(tt.intent)
		if got != tt.want || recall != tt.recall || about != tt.about {
			t.Errorf("asRecall(%q) = %q, %v, %q; want %q, %v, %q", tt.intent, got, recall, about, tt.want, tt.recall, tt.about)
		}
	}
}

// TestAsTextMessage: a text message asked for is an sms message.
func TestAsTextMessage(t *testing.T) {
	tests := []struct{ intent, want string }{
		{"text mom that I'm late", "send an sms message to mom that I'm late"},
		{"Please text my wife", "Please send an sms message to my wife"},
		{"text +14155550100 the code", "send an sms message to +14155550100 the code"},
		{"send a text to mom", "send an sms message to mom"},
		{"Send her a text message saying hi", "Send her an sms message saying hi"},
		{"text extraction from a PDF", "text extraction from a PDF"},
		{"send the text of the page", "send the text of the page"},
		{"send a text file to the printer", "send a text file to the printer"},
		{"Send a text message to Bob", "Send an sms message to Bob"},
	}
	for _, tt := range tests {
		if got := asTextMessage(tt.intent); got != tt.want {
			t.Errorf("asTextMessage(%q) = %q, want %q", tt.intent, got, tt.want)
		}
	}
}
