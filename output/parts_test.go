package output

import (
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
