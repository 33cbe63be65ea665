package upstream

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// blockLine returns msg as a line cut into blocks of size bytes.
func blockLine(msg string, size int) *line {
	l := &line{n: len(msg)}
	for len(msg) > 0 {
		k := min(size, len(msg))
		l.blocks = append(l.blocks, []byte(msg[:k]))
		msg = msg[k:]
	}
	return l
}

// watchingTap returns a tap armed with stub and watching the tools/list of
// id 7.
func watchingTap(stub bool) *listTap {
	tap := &listTap{}
	tap.arm(stub)
	tap.sent([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`))
	return tap
}

// The tap reads a long line from its blocks exactly as it reads the joined
// line: the same page, tool for tool and byte for byte, and the same
// message for go-sdk; or it leaves the line to be read whole.
func TestReceivedLineReadsAsReceived(t *testing.T) {
	tool := `{"name":"a","description":"braces } ] { [ and \"quotes\" \\ \u00e9","inputSchema":{"type":"object","properties":{"x":{"type":["string","null"],"enum":[1,2.5e3,true,false,null]}}}}`
	tests := []struct {
		name     string
		msg      string
		wantKept bool
	}{
		{"page", `{"jsonrpc":"2.0","id":7,"result":{"tools":[` + tool + `,` + tool + `],"nextCursor":"c2","ttlMs":60000,"resultType":"complete"}}`, true},
		{"spaces everywhere", " { \"jsonrpc\" : \"2.0\" ,\n\t\"id\" : 7 , \"result\" : { \"tools\" : [ " + tool + " , \r\n " + tool + " ] , \"nextCursor\" : \"c2\" } } ", true},
		{"id last, _meta and unknown members", `{"result":{"_meta":{"a":[1,{"b":null}]},"tools":[` + tool + `],"x":"y"},"jsonrpc":"2.0","id":7}`, true},
		{"tools that are not objects", `{"jsonrpc":"2.0","id":7,"result":{"tools":[null,"x",5,-1.5e-3,true,[],{}]}}`, true},
		{"empty tools", `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`, true},
		{"no tools", `{"jsonrpc":"2.0","id":7,"result":{"nextCursor":"c"}}`, true},
		{"escaped member name", `{"jsonrpc":"2.0","id":7,"result":{"t\u006fols":[` + tool + `]}}`, true},
		{"string id", `{"jsonrpc":"2.0","id":"7","result":{"tools":[]}}`, false},
		{"another request's answer", `{"jsonrpc":"2.0","id":8,"result":{"tools":[` + tool + `]}}`, false},
		{"an error", `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}`, false},
		{"not JSON-RPC 2.0", `{"jsonrpc":"1.0","id":7,"result":{"tools":[]}}`, false},
		{"no version", `{"id":7,"result":{"tools":[]}}`, false},
		{"member in another case", `{"jsonrpc":"2.0","ID":7,"result":{"tools":[]}}`, false},
		{"tools in another case", `{"jsonrpc":"2.0","id":7,"result":{"Tools":[` + tool + `]}}`, false},
		{"tools twice", `{"jsonrpc":"2.0","id":7,"result":{"tools":[` + tool + `],"tools":[]}}`, false},
		{"tools null", `{"jsonrpc":"2.0","id":7,"result":{"tools":null}}`, false},
		{"tools not an array", `{"jsonrpc":"2.0","id":7,"result":{"tools":{"a":1}}}`, false},
		{"result null", `{"jsonrpc":"2.0","id":7,"result":null}`, false},
		{"cursor not a string", `{"jsonrpc":"2.0","id":7,"result":{"tools":[],"nextCursor":5}}`, false},
		{"invalid JSON in a tool", `{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":}]}}`, false},
		{"invalid JSON in a skipped member", `{"jsonrpc":"2.0","id":7,"result":{"tools":[],"x":[1,]}}`, false},
		{"text after the message", `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}} x`, false},
		{"two messages", `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`, false},
		{"a batch", `[{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}]`, false},
		{"cut short", `{"jsonrpc":"2.0","id":7,"result":{"tools":[`, false},
	}
	for _, tt := range tests {
		for _, stub := range []bool{true, false} {
			for _, size := range []int{1, 3, 16, 100} {
				if size >= len(tt.msg) {
					continue
				}
				t.Run(fmt.Sprintf("%s/stub=%v/blocks of %d", tt.name, stub, size), func(t *testing.T) {
					tap := watchingTap(stub)
					got, kept := tap.receivedLine(blockLine(tt.msg, size))
					if kept != tt.wantKept {
						t.Fatalf("receivedLine kept %v, want %v", kept, tt.wantKept)
					}
					page, stubbed, ok := tap.take()
					if !kept {
						if got != nil || ok {
							t.Fatalf("receivedLine kept nothing but returned %q and the tap has a page: %v", got, ok)
						}
						return
					}

					// What the joined line gives, read as a line in one block is.
					whole := watchingTap(stub)
					msg := bytes.TrimSpace([]byte(tt.msg))
					if !isJSONRPC(msg) {
						t.Fatal("kept a line that is not JSON-RPC")
					}
					want := msg
					if stub := whole.received(msg); stub != nil {
						want = stub
					}
					wantPage, wantStubbed, wantOK := whole.take()
					if string(got) != string(want) {
						t.Errorf("go-sdk reads %s\nwant %s", got, want)
					}
					if !ok || !wantOK || stubbed != wantStubbed {
						t.Fatalf("take: page %v stubbed %v, want page %v stubbed %v", ok, stubbed, wantOK, wantStubbed)
					}
					if page.NextCursor != wantPage.NextCursor || string(page.ResultType) != string(wantPage.ResultType) ||
						(page.Tools == nil) != (wantPage.Tools == nil) || len(page.Tools) != len(wantPage.Tools) {
						t.Fatalf("page %+v\nwant %+v", page, wantPage)
					}
					for i := range page.Tools {
						if !bytes.Equal(page.Tools[i], wantPage.Tools[i]) {
							t.Errorf("tool %d = %s\nwant %s", i, page.Tools[i], wantPage.Tools[i])
						}
					}
				})
			}
		}
	}
}

func TestLineSlice(t *testing.T) {
	l := blockLine("abcdefghij", 4) // abcd efgh ij
	tests := []struct {
		start, end int
		want       string
		shared     bool // a slice of a block, not a copy
	}{
		{0, 4, "abcd", true},
		{5, 7, "fg", true},
		{8, 10, "ij", true},
		{3, 5, "de", false},
		{2, 10, "cdefghij", false},
		{0, 10, "abcdefghij", false},
	}
	for _, tt := range tests {
		got := l.slice(tt.start, tt.end)
		if string(got) != tt.want {
			t.Errorf("slice(%d, %d) = %q, want %q", tt.start, tt.end, got, tt.want)
		}
		if shared := &got[0] == &l.blocks[tt.start/4][tt.start%4]; shared != tt.shared {
			t.Errorf("slice(%d, %d) shares a block: %v, want %v", tt.start, tt.end, shared, tt.shared)
		}
		if cap(got) != len(got) {
			t.Errorf("slice(%d, %d) has room to append into the line: cap %d, len %d", tt.start, tt.end, cap(got), len(got))
		}
	}
}

// A listing page longer than a block is kept from the reader's blocks, and
// the lines read after it, long or short, do not write over it.
func TestJSONLineReaderKeepsPageBlocks(t *testing.T) {
	var tools []string
	for i := range 300 {
		tools = append(tools, fmt.Sprintf(`{"name":"t%03d","description":%q}`, i, strings.Repeat("x", 1000+i)))
	}
	page := `{"jsonrpc":"2.0","id":7,"result":{"tools":[` + strings.Join(tools, ",") + `]}}`
	other := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 400<<10) + `"}}`
	stream := "a banner\n" + page + "\n" + other + "\n" + `{"jsonrpc":"2.0","id":9,"result":{}}` + "\n"
	if len(page) < 2*firstBlockBytes {
		t.Fatalf("the page is %d bytes: too short to need blocks", len(page))
	}

	tap := watchingTap(true)
	j := newJSONLineReader(io.NopCloser(strings.NewReader(stream)), 1<<24, tap, testServer("s", "true"), slog.New(slog.DiscardHandler))
	var lines []string
	for {
		msg, err := j.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(msg))
	}
	want := []string{`{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`, other, `{"jsonrpc":"2.0","id":9,"result":{}}`}
	if len(lines) != len(want) {
		t.Fatalf("go-sdk read %d lines, want %d", len(lines), len(want))
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d = %.200s, want %.200s", i, lines[i], want[i])
		}
	}
	got, stubbed, ok := tap.take()
	if !ok || !stubbed {
		t.Fatalf("take: page %v, stubbed %v", ok, stubbed)
	}
	if len(got.Tools) != len(tools) {
		t.Fatalf("kept %d tools, want %d", len(got.Tools), len(tools))
	}
	for i := range tools {
		if string(got.Tools[i]) != tools[i] {
			t.Errorf("tool %d = %.80s, want %.80s", i, got.Tools[i], tools[i])
		}
	}
}

// A real stdio server's catalog listed in pages of many blocks (kept from
// the reader's blocks) is the catalog listed in pages of one block each
// (read whole and copied): the same tools, byte for byte.
func TestListToolsInBlocksAsInSmallPages(t *testing.T) {
	ctx := testContext(t)
	big := demoServer(t, "blocks", "--fault", "big-catalog:600", "--page-size", "300")
	small := demoServer(t, "lines", "--fault", "big-catalog:600", "--page-size", "5")
	u := newTestUpstreams(t, testConfig(big, small), nil)
	inBlocks, err := u.ListTools(ctx, "blocks")
	if err != nil {
		t.Fatal(err)
	}
	inLines, err := u.ListTools(ctx, "lines")
	if err != nil {
		t.Fatal(err)
	}
	if inBlocks.Lossy || inLines.Lossy || inBlocks.Refusal != "" || inLines.Refusal != "" {
		t.Fatalf("listings lossy %v/%v, refused %q/%q", inBlocks.Lossy, inLines.Lossy, inBlocks.Refusal, inLines.Refusal)
	}
	if perPage := inBlocks.Bytes / int64(inBlocks.Pages); perPage < 2*lineBlockBytes {
		t.Fatalf("pages of %d bytes: too short to need several blocks", perPage)
	}
	if len(inBlocks.Tools) != len(inLines.Tools) || len(inLines.Tools) < 600 {
		t.Fatalf("listed %d tools in blocks and %d in small pages, want the same 600 or more", len(inBlocks.Tools), len(inLines.Tools))
	}
	for i := range inLines.Tools {
		if !bytes.Equal(inBlocks.Tools[i], inLines.Tools[i]) {
			t.Fatalf("tool %d listed in blocks:\n%.300s\nin small pages:\n%.300s", i, inBlocks.Tools[i], inLines.Tools[i])
		}
	}
}
