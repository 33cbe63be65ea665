package upstream

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
			msg := []byte(tt.answer)
			got := tap.received(msg)
			if string(got) != tt.wantStub {
				t.Errorf("received = %s, want %q", got, tt.wantStub)
			}
			// The reader reuses its line buffer: the tap must keep no part of it.
			for i := range msg {
				msg[i] = 'x'
			}
			page, stubbed, ok := tap.take()
			if stubbed != (tt.wantStub != "") {
				t.Errorf("take: stubbed %v, want %v", stubbed, tt.wantStub != "")
			}
			if tt.wantStub == "" {
				return
			}
			// The tap keeps the page as sent, each tool's bytes as they were.
			var full struct {
				Result struct {
					Tools      []json.RawMessage
					NextCursor string
				}
			}
			if err := json.Unmarshal([]byte(tt.answer), &full); err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Fatal("take: no page")
			}
			if page.NextCursor != full.Result.NextCursor || len(page.Tools) != len(full.Result.Tools) {
				t.Fatalf("take = %d tools, cursor %q; want %d, %q", len(page.Tools), page.NextCursor, len(full.Result.Tools), full.Result.NextCursor)
			}
			for i := range page.Tools {
				if string(page.Tools[i]) != string(full.Result.Tools[i]) {
					t.Errorf("tool %d = %s, want %s as sent", i, page.Tools[i], full.Result.Tools[i])
				}
			}
		})
	}
}
