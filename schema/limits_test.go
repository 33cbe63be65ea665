package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// refusal returns the reason Normalize refused raw, or fails the test when
// it did not refuse with a *RefusalError.
func refusal(t *testing.T, raw string) string {
	t.Helper()
	tool, err := Normalize("test", json.RawMessage(raw))
	var re *RefusalError
	if !errors.As(err, &re) {
		t.Fatalf("Normalize(%.100s) = %v, %v; want a *RefusalError", raw, tool, err)
	}
	return re.Reason
}

func mustNormalize(t *testing.T, raw string) *Tool {
	t.Helper()
	tool, err := Normalize("test", json.RawMessage(raw))
	if err != nil {
		t.Fatalf("Normalize(%.100s) = %v", raw, err)
	}
	return tool
}

// schemaOfSize returns an input schema whose canonical JSON is exactly n bytes.
func schemaOfSize(n int) string {
	frame := `{"description":"","type":"object"}`
	return `{"type":"object","description":"` + strings.Repeat("x", n-len(frame)) + `"}`
}

func TestSchemaBytesLimit(t *testing.T) {
	tool := mustNormalize(t, `{"name":"big","inputSchema":`+schemaOfSize(MaxSchemaBytes)+`}`)
	if len(tool.Record.InputSchema) != MaxSchemaBytes {
		t.Fatalf("schema at the limit is %d bytes, want %d", len(tool.Record.InputSchema), MaxSchemaBytes)
	}
	reason := refusal(t, `{"name":"big","inputSchema":`+schemaOfSize(MaxSchemaBytes+1)+`}`)
	if !strings.Contains(reason, "256 KiB") {
		t.Errorf("reason %q does not name the 256 KiB limit", reason)
	}
}

// schemaOfDepth returns an input schema nesting exactly depth containers.
func schemaOfDepth(depth int) string {
	return `{"type":"object","x-nest":` + strings.Repeat(`{"x-nest":`, depth-2) + `{}` + strings.Repeat(`}`, depth-2) + `}`
}

func TestSchemaDepthLimit(t *testing.T) {
	mustNormalize(t, `{"name":"deep","inputSchema":`+schemaOfDepth(MaxSchemaDepth)+`}`)
	reason := refusal(t, `{"name":"deep","inputSchema":`+schemaOfDepth(MaxSchemaDepth+1)+`}`)
	if !strings.Contains(reason, fmt.Sprint(MaxSchemaDepth+1)) || !strings.Contains(reason, fmt.Sprint(MaxSchemaDepth)) {
		t.Errorf("reason %q does not say how deep and what the limit is", reason)
	}
}

func TestProseLimit(t *testing.T) {
	words := func(n int) string { return strings.Repeat("word ", n/5+1)[:n] }
	for _, tc := range []struct {
		chars, want int
	}{
		{MaxProseChars, MaxProseChars - 1}, // the trailing space is collapsed
		{MaxProseChars + 1, MaxProseChars - 1},
		{MaxProseChars + 500, MaxProseChars - 1},
	} {
		clean, cut := Sanitize(words(tc.chars), 2*MaxProseChars)
		if got := utf8.RuneCountInString(clean); got != tc.want {
			t.Errorf("Sanitize(%d chars) kept %d, want %d", tc.chars, got, tc.want)
		}
		if cut != tc.chars-utf8.RuneCountInString(clean) {
			t.Errorf("Sanitize(%d chars) cut = %d, kept %d", tc.chars, cut, utf8.RuneCountInString(clean))
		}
	}
	long := strings.Repeat("A sentence about the tool. ", 400)
	tool := mustNormalize(t, fmt.Sprintf(`{"name":"wordy","description":%q,"inputSchema":{"type":"object"}}`, long))
	if tool.Record.Description != long {
		t.Errorf("Record.Description was changed; the record keeps prose exactly")
	}
	if want := utf8.RuneCountInString(long) - utf8.RuneCountInString(tool.Card.Summary); tool.Record.ProseCut != want {
		t.Errorf("ProseCut = %d, want %d", tool.Record.ProseCut, want)
	}
}

// toolWithInputs returns a tool with n string inputs, the first required of them required.
func toolWithInputs(n, required int) string {
	var props, req []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"in_%02d":{"type":"string","description":"Input number %d."}`, i, i))
		if i < required {
			req = append(req, fmt.Sprintf(`"in_%02d"`, i))
		}
	}
	return `{"name":"many","inputSchema":{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}}`
}

func TestCardInputsLimit(t *testing.T) {
	for _, tc := range []struct {
		inputs, required int
		complete         bool
	}{
		{MaxCardInputs, MaxCardInputs, true},
		{MaxCardInputs + 1, MaxCardInputs, true},
		{MaxCardInputs + 1, MaxCardInputs + 1, false},
		{MaxCardInputs + 10, 0, true},
	} {
		tool := mustNormalize(t, toolWithInputs(tc.inputs, tc.required))
		if got := len(tool.Card.Inputs); got != min(tc.inputs, MaxCardInputs) {
			t.Errorf("%d inputs (%d required): card shows %d", tc.inputs, tc.required, got)
		}
		if tool.Card.Complete != tc.complete || (tool.Card.Note == "") == !tc.complete {
			t.Errorf("%d inputs (%d required): complete %v note %q, want complete %v", tc.inputs, tc.required, tool.Card.Complete, tool.Card.Note, tc.complete)
		}
		for i, in := range tool.Card.Inputs {
			if want := i < tc.required; in.Required != want {
				t.Errorf("input %d %s required=%v; required ones come first", i, in.Name, in.Required)
			}
		}
	}
}

func TestCardBytesLimit(t *testing.T) {
	base := Card{Name: "t", Provider: "p", Risk: RiskWrite, Complete: true}
	for _, size := range []int{MaxCardBytes - 1, MaxCardBytes, MaxCardBytes + 1, 3 * MaxCardBytes} {
		card := base
		card.Summary = strings.Repeat("s", size-cardBytes(&base))
		before := card.Summary
		fitCard(&card, nil, "", 0)
		got := cardBytes(&card)
		switch {
		case got > MaxCardBytes:
			t.Errorf("card of %d bytes fitted to %d, over %d", size, got, MaxCardBytes)
		case size <= MaxCardBytes && card.Summary != before:
			t.Errorf("card of %d bytes was shrunk though it fits", size)
		}
	}
	// Many inputs with long enums: the card must shed detail to fit.
	var props []string
	for i := range 40 {
		var enum []string
		for j := range 8 {
			enum = append(enum, fmt.Sprintf(`"value_%02d_%02d_%s"`, i, j, strings.Repeat("v", 28)))
		}
		props = append(props, fmt.Sprintf(`"in_%02d":{"type":"string","description":%q,"enum":[%s]}`, i, strings.Repeat("Long words here. ", 10), strings.Join(enum, ",")))
	}
	tool := mustNormalize(t, `{"name":"wide","description":"`+strings.Repeat("Wide tool. ", 40)+`","inputSchema":{"type":"object","properties":{`+strings.Join(props, ",")+`}}}`)
	if got := len(mustJSON(t, tool.Card)); got > MaxCardBytes {
		t.Errorf("wide card is %d bytes, over %d", got, MaxCardBytes)
	}
}

// tinyTool returns a valid tool of exactly size bytes.
func tinyTool(name string, size int) json.RawMessage {
	frame := fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"},"_meta":{"pad":""}}`, name)
	return json.RawMessage(fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"},"_meta":{"pad":"%s"}}`, name, strings.Repeat("p", max(0, size-len(frame)))))
}

func TestCatalogToolsLimit(t *testing.T) {
	raws := make([]json.RawMessage, MaxCatalogTools+1)
	for i := range raws {
		raws[i] = tinyTool(fmt.Sprintf("tool_%04d", i), 0)
	}
	tools, refused := normalizeAll("s", raws[:MaxCatalogTools])
	if len(tools) != MaxCatalogTools || len(refused) != 0 {
		t.Fatalf("%d tools: %d kept, %d refused", MaxCatalogTools, len(tools), len(refused))
	}
	tools, refused = normalizeAll("s", raws)
	if len(tools) != MaxCatalogTools || len(refused) != 1 || refused[0].Tool != "tool_5000" {
		t.Fatalf("%d tools: %d kept, refused %+v", len(raws), len(tools), refused)
	}
	if !strings.Contains(refused[0].Reason, "5000") {
		t.Errorf("reason %q does not name the limit", refused[0].Reason)
	}
}

func TestCatalogBytesLimit(t *testing.T) {
	// Sixteen tools of 1 MiB make exactly 16 MiB and are all kept; a
	// seventeenth of one byte takes the catalog past the limit.
	const n = 16
	raws := make([]json.RawMessage, n, n+1)
	for i := range raws {
		raws[i] = tinyTool(fmt.Sprintf("tool_%02d", i), MaxCatalogBytes/n)
	}
	raws = append(raws, json.RawMessage(`1`))
	tools, refused := normalizeAll("s", raws)
	if len(tools) != n || len(refused) != 1 {
		t.Fatalf("%d tools of exactly 16 MiB and one byte more: %d kept, refused %+v", n, len(tools), refused)
	}
	if !strings.Contains(refused[0].Reason, "16 MiB") {
		t.Errorf("reason %q does not name the limit", refused[0].Reason)
	}
}

// TestCatalogDuplicateNames: a name listed with two definitions refuses
// every copy; identical copies (whatever their key order) count once.
func TestCatalogDuplicateNames(t *testing.T) {
	raws := []json.RawMessage{
		json.RawMessage(`{"name":"a","description":"first","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"b","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"a","description":"second","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"inputSchema":{"type":"object"},"name":"b"}`),
		json.RawMessage(`{"name":"a","description":"second","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"c","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"c","inputSchema":{"type":"string"}}`),
	}
	tools, refused := normalizeAll("s", raws)
	if len(tools) != 1 || tools[0].Record.Name != "b" {
		t.Fatalf("kept %d tools: %+v", len(tools), tools)
	}
	twice := map[string]int{}
	for _, r := range refused {
		if r.Reason == ReasonListedTwice {
			twice[r.Tool]++
		}
	}
	if len(refused) != 5 || twice["a"] != 2 || twice["c"] != 1 {
		t.Fatalf("refused %+v: want both copies of a, c listed twice (and its refused copy), the unnamed tool", refused)
	}
}

// TestCatalogDuplicateNamesHowever: a name counts as listed twice however
// the lenient name guess and the parser read a tool that spells its name
// key twice, so no copy is handed over before its duplicate is seen.
func TestCatalogDuplicateNamesHowever(t *testing.T) {
	raws := []json.RawMessage{
		json.RawMessage(`{"name":"a","NAME":"b","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"c","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"a","description":"another","inputSchema":{"type":"object"}}`),
	}
	tools, refused := normalizeAll("s", raws)
	if len(tools) != 1 || tools[0].Record.Name != "c" {
		t.Fatalf("kept %d tools: %+v", len(tools), tools)
	}
	if len(refused) != 2 || refused[0] != refused[1] || refused[0] != (Refusal{Tool: "a", Reason: ReasonListedTwice}) {
		t.Fatalf("refused %+v: want both copies of a listed twice", refused)
	}
}
