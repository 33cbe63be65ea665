package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		secrets []string
		want    string
		count   int
	}{
		{"a secret, twice", "token tok_12345678 and tok_12345678", []string{"tok_12345678"}, "token [redacted] and [redacted]", 2},
		{"short values are not secrets", "mode noinit on server noinit-demo", []string{"noinit", "1234567"}, "mode noinit on server noinit-demo", 0},
		{"eight characters count, in runes", "pässwörd1 ok", []string{"pässwörd"}, "[redacted]1 ok", 1},
		{"the longer secret first", "key=abcdefgh-ijklmnop", []string{"abcdefgh", "abcdefgh-ijklmnop"}, "key=[redacted]", 1},
		{"duplicates count once", "s3cret-value", []string{"s3cret-value", "s3cret-value"}, "[redacted]", 1},
		{"none", "nothing here", nil, "nothing here", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Redact(tt.in, tt.secrets)
			if got != tt.want || n != tt.count {
				t.Errorf("Redact(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.count)
			}
		})
	}
}

// TestShapeRedactsSecrets runs results that carry a secret in every place a
// provider can put one through Shape and every page of a Pager: none of the
// model's text holds it, the marker survives shaping whole, and the count
// is right.
func TestShapeRedactsSecrets(t *testing.T) {
	const secret = `tok-"quoted"\value`
	escaped, _ := json.Marshal(secret)
	jsonText := string(escaped[1 : len(escaped)-1]) // the secret as JSON text carries it
	records := make([]string, 400)
	for i := range records {
		records[i] = fmt.Sprintf(`{"id":%d,"name":"record %d","auth":"Bearer %s"}`, i, i, jsonText)
	}
	tests := []struct {
		name  string
		res   *mcp.CallToolResult
		count int
	}{
		{"plain text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "your token is " + secret + "\nbye"}}}, 1},
		{"JSON text, escaped", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"token":"` + jsonText + `","user":"ann"}`}}}, 1},
		{"a key", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"` + jsonText + `":1}`}}}, 1},
		{"structured content only", &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: "done"}},
			StructuredContent: map[string]any{"env": map[string]any{"TOKEN": secret}, "list": []any{secret}},
		}, 2},
		{"structured content repeating the text, counted once", &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: `{"token":"` + jsonText + `"}`}},
			StructuredContent: map[string]any{"token": secret},
		}, 1},
		{"an error result", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "auth failed for " + secret}}}, 1},
		{"an error result in JSON", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: `{"error":"bad token ` + jsonText + `"}`}}}, 1},
		{"resource text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///x?k=" + secret, Text: "k=" + secret}}}}, 2},
		{"every page", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "[" + strings.Join(records, ",") + "]"}}}, 400},
		{"every page of plain lines", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("line with "+secret+" in it\n", 500)}}}, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sh, err := Shape(tt.res, &Options{Secrets: []string{secret, "short"}})
			if err != nil {
				t.Fatal(err)
			}
			if sh.Redactions != tt.count {
				t.Errorf("Redactions = %d, want %d", sh.Redactions, tt.count)
			}
			pages := allPages(t, NewPager(nil), sh)
			if strings.HasPrefix(tt.name, "every page") && len(pages) < 2 {
				t.Fatalf("%d page(s): the case must span pages", len(pages))
			}
			whole := strings.Join(pages, "\n")
			for _, leak := range []string{secret, jsonText, "tok-"} {
				if strings.Contains(whole, leak) {
					t.Errorf("the model reads %q:\n%s", leak, excerptAround(whole, leak))
				}
			}
			if got := strings.Count(whole, Redacted); got < tt.count {
				t.Errorf("%d markers %q in the pages, want at least %d:\n%.600s", got, Redacted, tt.count, whole)
			}
		})
	}
}

// allPages returns the text of every page of sh, following the cursors,
// media included as JSON.
func allPages(t *testing.T, p *Pager, sh *Shaped) []string {
	t.Helper()
	var pages []string
	res := p.First(nil, sh)
	for range 1000 {
		b, _ := json.Marshal(res.Content)
		pages = append(pages, string(b))
		last := res.Content[len(res.Content)-1]
		text, _ := last.(*mcp.TextContent)
		if text == nil {
			return pages
		}
		_, cursor, ok := strings.Cut(text.Text, `{"cursor":"`)
		if !ok {
			return pages
		}
		cursor, _, _ = strings.Cut(cursor, `"`)
		var err error
		if res, err = p.Next(nil, cursor); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("more than 1000 pages")
	return nil
}

func excerptAround(s, sub string) string {
	i := strings.Index(s, sub)
	return s[max(0, i-100):min(len(s), i+len(sub)+100)]
}

// FuzzRedact shapes arbitrary text holding a secret (letters, digits, "_"
// and "-", 8 or more: what ${VAR} tokens are made of) and reads every page:
// the secret never shows, however the text is shaped, and each replacement
// is counted.
func FuzzRedact(f *testing.F) {
	f.Add(`[{"token":"sk_live_0123456789","n":1},{"token":"x"}]`, "sk_live_0123456789")
	f.Add(`{"a\u0062cdefgh":"abcdefgh","list":["abcdefgh",{"abcdefgh":true}]}`, "abcdefgh")
	f.Add("line one abcdefgh\nabcdefghabcdefgh", "abcdefgh")
	f.Fuzz(func(t *testing.T, content, secret string) {
		if len(secret) < MinSecretChars || strings.Trim(secret, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" ||
			strings.Contains(Redacted, secret) { // without brackets, only "redacted" itself can overlap the marker
			return
		}
		sh, err := Shape(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: content}}}, &Options{Secrets: []string{secret}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(content, secret) && sh.Redactions == 0 {
			t.Errorf("the text holds the secret; no redaction counted")
		}
		for i, page := range allPages(t, NewPager(nil), sh) {
			// What the model reads is each text as decoded: the JSON of a
			// page escapes control characters, and "\u0000" followed by
			// zeros is no secret of "00000000".
			var items []struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal([]byte(page), &items); err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				if strings.Contains(it.Text, secret) {
					t.Fatalf("page %d shows the secret %q:\n%s", i+1, secret, page)
				}
			}
		}
	})
}
