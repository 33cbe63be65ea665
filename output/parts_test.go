package output

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"ééé", 1},      // 3 code points, 6 bytes
		{"🙂🙂🙂🙂🙂", 2},    // 5 code points, 20 bytes
		{"\xff\xfe", 1}, // invalid bytes count one each
	}
	for _, tt := range tests {
		if got := EstimateTokens(tt.in); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		in, cell, line string
	}{
		{"plain", "plain", "plain"},
		{"a|b", `a\|b`, "a|b"},
		{"two\nlines", `two\nlines`, `two\nlines`},
		{"cr\r", `cr\r`, `cr\r`},
		{`back\slash`, `back\\slash`, `back\\slash`},
		{`\n literal`, `\\n literal`, `\\n literal`},
		{"ü|\n", `ü\|\n`, `ü|\n`},
	}
	for _, tt := range tests {
		if got := escapeCell(tt.in); got != tt.cell {
			t.Errorf("escapeCell(%q) = %q, want %q", tt.in, got, tt.cell)
		}
		if got := escapeLine(tt.in); got != tt.line {
			t.Errorf("escapeLine(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}

func TestMasks(t *testing.T) {
	const records = `[{"id":1,"title":"a","status":"open","user":{"login":"ana","id":7},"tags":[{"name":"x","color":"red"}],"_id":"i"}]`
	const wrapper = `{"total":1,"cursor":"c","items":` + records + `}`
	tests := []struct {
		name   string
		in     string
		fields []string
		keep   []string
		want   string
	}{
		{"dot path", records, []string{"user.login"}, nil, `[{"id":1,"status":"open","user":{"login":"ana"}}]`},
		{"whole subtree", records, []string{"user"}, nil, `[{"id":1,"status":"open","user":{"login":"ana","id":7}}]`},
		{"implied through arrays", records, []string{"tags.name"}, nil, `[{"id":1,"status":"open","tags":[{"name":"x"}]}]`},
		{"explicit []", records, []string{"[].tags[].color"}, nil, `[{"id":1,"status":"open","tags":[{"color":"red"}]}]`},
		{"mask keeps an internal key", records, []string{"_id"}, nil, `[{"id":1,"status":"open","_id":"i"}]`},
		{"no keep keys", records, []string{"title"}, []string{}, `[{"title":"a"}]`},
		{"unknown field", records, []string{"nope"}, nil, `[{"id":1,"status":"open"}]`},
		{"empty paths ignored", records, []string{"", ".", "[]"}, nil, `[{"id":1,"title":"a","status":"open","user":{"login":"ana","id":7},"tags":[{"name":"x","color":"red"}]}]`},
		{"wrapper by path", wrapper, []string{"items.title", "total"}, nil, `{"total":1,"items":[{"id":1,"title":"a","status":"open"}]}`},
		{"wrapper by record field", wrapper, []string{"title"}, nil, `{"items":[{"id":1,"title":"a","status":"open"}]}`},
		{"nested wrapper by record field", `{"data":{"issues":{"count":1,"nodes":` + records + `}}}`, []string{"title", "data.issues.count"}, nil,
			`{"data":{"issues":{"count":1,"nodes":[{"id":1,"title":"a","status":"open"}]}}}`},
		{"wrapper whole list", wrapper, []string{"items"}, nil,
			`{"items":[{"id":1,"title":"a","status":"open","user":{"login":"ana","id":7},"tags":[{"name":"x","color":"red"}],"_id":"i"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := resolve(&Options{Fields: tt.fields, Keep: tt.keep})
			if err != nil {
				t.Fatal(err)
			}
			v, err := decodeOrdered([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := compactJSON(s.project(v)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestStrip(t *testing.T) {
	const in = `{"id":"x","_id":"y","__v":1,"hash":"h","created_at":"t","updated_at":"t","label_ids":[1],"owner_ids":"not an array",` +
		`"nested":{"_id":"z","keep":1},"list":[{"hash":"h","n":1}]}`
	tests := []struct {
		name string
		opts *Options
		want string
	}{
		{"defaults", nil, `{"id":"x","owner_ids":"not an array","nested":{"keep":1},"list":[{"n":1}]}`},
		{"no strip", &Options{NoStrip: true}, in},
		{"custom list", &Options{Strip: []string{"hash", "*_at"}}, `{"id":"x","_id":"y","__v":1,"created_at":"t","updated_at":"t","label_ids":[1],"owner_ids":"not an array",` +
			`"nested":{"_id":"z","keep":1},"list":[{"n":1}]}`},
		{"keep wins", &Options{Keep: []string{"_id"}}, `{"id":"x","_id":"y","owner_ids":"not an array","nested":{"_id":"z","keep":1},"list":[{"n":1}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := resolve(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			v, err := decodeOrdered([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if got := compactJSON(s.project(v)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestShapeSkipsNilContent(t *testing.T) {
	sh, err := Shape(&mcp.CallToolResult{Content: []mcp.Content{nil, &mcp.TextContent{Text: "kept"}, nil}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := NewPager(nil).First(nil, sh)
	if len(res.Content) != 1 || res.Content[0] == nil {
		t.Fatalf("content %#v, want the one text", res.Content)
	}
}

func TestShapeRefusesBadInput(t *testing.T) {
	if _, err := Shape(nil, nil); err == nil {
		t.Error("Shape(nil) succeeded")
	}
	if _, err := Shape(jsonResult(t, issueRecords(1)), &Options{MaxTokens: -1}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative ceiling: %v", err)
	}
}

func TestShapeDropsStructuredContentThatRepeatsText(t *testing.T) {
	const file = "line one\nline two | with a pipe\n"
	tests := []struct {
		name       string
		structured any
		wantTwice  bool
	}{
		{"object of the same text", map[string]any{"content": file}, false},
		{"the same text alone", file, false},
		{"other data", map[string]any{"content": file, "size": 31.0}, true},
		{"a different string", map[string]any{"content": "elsewhere"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sh, err := Shape(&mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: file}},
				StructuredContent: tt.structured,
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := sh.Text()
			twice := strings.Count(text, "line one") > 1 || strings.Contains(text, "elsewhere")
			if twice != tt.wantTwice {
				t.Errorf("structured content shown again: %v, want %v; text:\n%s", twice, tt.wantTwice, text)
			}
			if !strings.Contains(text, file) {
				t.Errorf("the file text is not kept byte for byte:\n%q", text)
			}
		})
	}
}

// Text returns the whole shaped text: every section's header and units, the
// sections joined by line breaks, media left out. Pages hold exactly this
// text's units, with headers repeated and a footer added.
func (sh *Shaped) Text() string { return wholeText(sh.Sections) }

// A text content serializing data that structuredContent wraps under one
// name (server-memory's create_entities) is shown once, in the structured
// form, in the text's key order.
func TestShapeKeepsStructuredFormOfWrappedText(t *testing.T) {
	const text = `[
  {"name": "Alice", "entityType": "person", "observations": ["works at Acme"]}
]`
	structured := map[string]any{"entities": []any{map[string]any{
		"entityType": "person", "name": "Alice", "observations": []any{"works at Acme"},
	}}}
	tests := []struct {
		name       string
		structured any
		wantOnce   bool // else the text and the structured form (Bob) are both shown
	}{
		{"wrapped under one name", structured, true},
		{"wrapped beside other data", map[string]any{"entities": structured["entities"], "count": 1.0}, true},
		{"other data only", map[string]any{"entities": []any{"Bob"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sh, err := Shape(&mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: text}},
				StructuredContent: tt.structured,
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			out := sh.Text()
			if n := strings.Count(out, "Alice"); n != 1 {
				t.Errorf("Alice shown %d times; text:\n%s", n, out)
			}
			if !tt.wantOnce && !strings.Contains(out, "Bob") {
				t.Errorf("the structured form's other data is lost:\n%s", out)
			}
			if tt.wantOnce && !strings.Contains(out, "entities") {
				t.Errorf("the structured form's name is lost:\n%s", out)
			}
			if tt.wantOnce && strings.Index(out, "Alice") > strings.Index(out, "person") {
				t.Errorf("the text's key order is lost (name before entityType):\n%s", out)
			}
		})
	}
}

// A mask naming no field of the result says so and lists the fields that
// exist, instead of a page of {}.
func TestShapeMaskMatchingNothing(t *testing.T) {
	tests := []struct {
		name   string
		fields []string
		want   []string // substrings of the text
		absent []string
	}{
		{"no field exists", []string{"nope", "user.nothing"},
			[]string{`no field matched fields ["nope" "user.nothing"]`, "number", "title", "user.login"}, []string{"{}"}},
		{"one field exists", []string{"nope", "title"}, []string{"title"}, []string{"no field matched"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sh, err := Shape(jsonResult(t, issueRecords(3)), &Options{Fields: tt.fields})
			if err != nil {
				t.Fatal(err)
			}
			text := sh.Text()
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(text, a) {
					t.Errorf("text holds %q:\n%s", a, text)
				}
			}
		})
	}
}

func TestNoMatchNoteIsBounded(t *testing.T) {
	var obj object
	for i := range 100 {
		obj = append(obj, member{key: fmt.Sprintf("field%03d", i), val: 1.0})
	}
	note := noMatchNote([]string{"x"}, obj)
	if !strings.Contains(note, "field039") || strings.Contains(note, "field040") || !strings.Contains(note, "(and 60 more)") {
		t.Errorf("note not bounded to %d fields: %s", maxListedFields, note)
	}
}
