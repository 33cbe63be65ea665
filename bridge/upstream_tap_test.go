package bridge

import (
	"encoding/json"
	"testing"
)

func TestListTapStub(t *testing.T) {
	const page = `{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"c2","ttlMs":60000,"resultType":"complete"}}`
	tests := []struct {
		name     string
		stub     bool
		answer   string
		wantStub string // "" when the message passes as it is
	}{
		{"stubbed page", true, page, `{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","tools":[],"nextCursor":"c2"}}`},
		{"last page", true, `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`, `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`},
		{"not armed to stub", false, page, ""},
		{"another request's answer", true, `{"jsonrpc":"2.0","id":8,"result":{"tools":[]}}`, ""},
		{"tools not an array", true, `{"jsonrpc":"2.0","id":7,"result":{"tools":{"a":1}}}`, ""},
		{"no tools", true, `{"jsonrpc":"2.0","id":7,"result":{}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tap listTap
			tap.arm(tt.stub)
			tap.sent([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`))
			got := tap.received([]byte(tt.answer))
			if string(got) != tt.wantStub {
				t.Errorf("received = %s, want %q", got, tt.wantStub)
			}
			raw, stubbed, ok := tap.take()
			if stubbed != (tt.wantStub != "") {
				t.Errorf("take: stubbed %v, want %v", stubbed, tt.wantStub != "")
			}
			if tt.wantStub == "" {
				return
			}
			// The tap keeps the page as sent, tools and all.
			var full struct{ Result json.RawMessage }
			if err := json.Unmarshal([]byte(tt.answer), &full); err != nil {
				t.Fatal(err)
			}
			if !ok || string(raw) != string(full.Result) {
				t.Errorf("take = %s, %v; want the result as sent", raw, ok)
			}
		})
	}
}
