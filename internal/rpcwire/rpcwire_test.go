package rpcwire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// seeds are lines of every shape: plain messages, which decodePlain
// reads, and the rest, which it leaves to go-sdk.
var seeds = []struct {
	line  string
	plain bool
}{
	{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":"}"}]}}}`, true},
	{` {"method":"ping","jsonrpc":"2.0","id":"a-1"} `, true},
	{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
	{`{"jsonrpc":"2.0","id":-7,"result":{"content":[{"type":"text","text":"\"q\" \\ \u00e9"}]}}`, true},
	{`{"jsonrpc":"2.0","id":1,"method":"","params":[]}`, true},
	{"{\n\t\"jsonrpc\" : \"2.0\" ,\"x\":{\"id\":2}, \"id\" : 3 , \"method\" : \"m\" }", true},
	{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`, false},
	{`{"jsonrpc":"2.0","id":1.5,"method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":1e3,"method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":1234567890123456789,"method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":null,"method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":true,"method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":"\u0041","method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"\u0061"}`, false},
	{`{"jsonrpc":"2.0","id":1,"meth\u006fd":"a"}`, false},
	{`{"jsonrpc":"1.0","id":1,"method":"a"}`, false},
	{`{"id":1,"method":"a"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":null}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"a","params":null}`, false},
	{`{"jsonrpc":"2.0","result":{}}`, false},
	{`{"jsonrpc":"2.0","id":1}`, false},
	{`{"jsonrpc":"2.0","id":1,"result":null}`, false},
	{`{"Jsonrpc":"2.0","ID":1,"Method":"a"}`, false},
	{`[{"jsonrpc":"2.0","id":1,"method":"a"}]`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"a"`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"a"} x`, false},
	{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", false},
	{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"\xff\":\"\xfe\"}}", true},
	{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":123456789012345678901234567890e400}}`, true},
	{strings.Repeat("[", 999) + strings.Repeat("]", 999), false},
	{`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`, true},    // depth 1,000: go-sdk's bound
	{`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, false}, // past it
	{``, false},
}

func TestDecodeAgreesWithGoSDK(t *testing.T) {
	for _, s := range seeds {
		plain := false
		if json.Valid([]byte(s.line)) {
			if m, err := Split([]byte(s.line)); err == nil {
				_, plain = m.plain()
			}
		}
		if plain != s.plain {
			t.Errorf("plain(%s): plain = %v, want %v", s.line, plain, s.plain)
		}
		agree(t, []byte(s.line))
	}
}

// A plain message stays whole when the reader's buffer is reused.
func TestDecodeCopies(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`)
	msg, err := Decode(line)
	if err != nil {
		t.Fatal(err)
	}
	for i := range line {
		line[i] = ' '
	}
	if got := string(msg.(*jsonrpc.Request).Params); got != `{"a":1}` {
		t.Errorf("params = %s after the line was overwritten", got)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s.line))
	}
	f.Fuzz(agree)
}

// agree fails when Decode and go-sdk's DecodeMessage differ on line: in
// whether it is refused, or in the message made of it.
func agree(t *testing.T, line []byte) {
	want, wantErr := jsonrpc.DecodeMessage(bytes.Clone(line))
	got, err := Decode(bytes.Clone(line))
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("Decode(%q): error %v, go-sdk's %v", line, err, wantErr)
	}
	if err != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode(%q) = %#v, go-sdk's %#v", line, got, want)
	}
}
