package output

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// randomRecords returns n records with unique ids "r0".."rN" and random
// other keys, internal ones included. Strings are drawn from an alphabet
// that cannot spell an id or an internal key, so a test can search for them.
func randomRecords(rng *rand.Rand, n int) []any {
	keys := []string{"a", "b", "title", "user", "tags", "_id", "__v", "created_at", "hash", "label_ids"}
	recs := make([]any, n)
	for i := range recs {
		rec := object{{key: "id", val: fmt.Sprintf("r%d", i)}}
		for _, k := range keys {
			if rng.IntN(4) == 0 {
				continue
			}
			rec = append(rec, member{key: k, val: randomValue(rng, k, 2)})
		}
		recs[i] = rec
	}
	return recs
}

func randomValue(rng *rand.Rand, key string, depth int) any {
	switch {
	case key == "label_ids":
		return []any{json.Number("1"), json.Number("2")}
	case key == "user" && depth > 0:
		return object{{key: "login", val: randomString(rng)}, {key: "_id", val: randomString(rng)}}
	case key == "tags" && depth > 0:
		return []any{randomString(rng), randomValue(rng, "", depth-1)}
	}
	switch rng.IntN(5) {
	case 0:
		return json.Number(fmt.Sprint(rng.IntN(100000)))
	case 1:
		return nil
	case 2:
		return rng.IntN(2) == 0
	}
	return randomString(rng)
}

func randomString(rng *rand.Rand) string {
	alphabet := []rune("abcdefghijk  |\\\n\r\té漢🙂")
	var b strings.Builder
	for range rng.IntN(40) {
		b.WriteRune(alphabet[rng.IntN(len(alphabet))])
	}
	if rng.IntN(20) == 0 { // now and then one value longer than a small page
		b.WriteString(strings.Repeat("漢字 abc|", 80))
	}
	return b.String()
}

// idPattern finds a record id where a table row or a JSON record shows it.
var idPattern = regexp.MustCompile(`(?m)(?:^\| |"id":")(r\d+)(?: \||")`)

func TestPagesReproduceTheProjectedWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261130, 5))
	for iter := range 200 {
		n := rng.IntN(40)
		var v any = randomRecords(rng, n)
		if rng.IntN(3) == 0 {
			v = object{{key: "total", val: json.Number(fmt.Sprint(n))}, {key: "items", val: v}}
		}
		if rng.IntN(4) == 0 {
			v = object{{key: "data", val: v}, {key: "ok", val: true}}
		}
		opts := &Options{MaxTokens: 8 + rng.IntN(300)}
		if rng.IntN(3) == 0 {
			for _, f := range []string{"a", "title", "user.login", "items[].b", "tags"} {
				if rng.IntN(2) == 0 {
					opts.Fields = append(opts.Fields, f)
				}
			}
		}
		input := compactJSON(v)
		name := fmt.Sprintf("iter %d (%d records, max %d tokens, fields %q)", iter, n, opts.MaxTokens, opts.Fields)
		sh, err := Shape(&mcp.CallToolResult{Content: []mcp.Content{text(input)}}, opts)
		if err != nil {
			t.Fatalf("%s: Shape: %v", name, err)
		}
		bodies := followCursors(t, name, sh, NewPager(nil))
		for i, body := range bodies {
			if got := EstimateTokens(body); got > opts.MaxTokens {
				t.Errorf("%s: page %d holds %d estimated tokens, over %d", name, i+1, got, opts.MaxTokens)
			}
		}
		whole := sh.Text()
		if got := reassemble(sh, bodies); got != whole {
			t.Fatalf("%s: pages do not reassemble the whole\ngot:\n%s\nwant:\n%s", name, got, whole)
		}
		var ids []string
		for _, m := range idPattern.FindAllStringSubmatch(whole, -1) {
			ids = append(ids, m[1])
		}
		if len(ids) != n {
			t.Fatalf("%s: %d ids in the shaped whole, want %d:\n%s", name, len(ids), n, whole)
		}
		for i, id := range ids {
			if id != fmt.Sprintf("r%d", i) {
				t.Fatalf("%s: id %d is %s: records duplicated, dropped or reordered", name, i, id)
			}
		}
		if opts.Fields == nil {
			for _, internal := range []string{"_id", "__v", "created_at", "hash", "label_ids"} {
				if strings.Contains(whole, internal) {
					t.Fatalf("%s: internal key %s visible:\n%s", name, internal, whole)
				}
			}
		}
		s, err := resolve(opts)
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := decodeOrdered([]byte(input))
		if err != nil {
			t.Fatal(err)
		}
		if limit := len(compactJSON(s.project(decoded))); sh.BytesOut > limit {
			t.Errorf("%s: shaped %d bytes, more than the %d of compact JSON", name, sh.BytesOut, limit)
		}
	}
}

// followCursors reads every page of sh through the pager and returns their
// texts without frame lines and footers, checking each footer against the
// units shown.
func followCursors(t *testing.T, name string, sh *Shaped, p *Pager) []string {
	t.Helper()
	var bodies []string
	res, shown := p.First(nil, sh), 0
	for {
		var texts []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		if len(texts) != 1 {
			t.Fatalf("%s: page %d has %d text contents, want 1", name, len(bodies)+1, len(texts))
		}
		page := unframe(t, texts[0])
		matches := footerPattern.FindAllStringSubmatchIndex(page, -1)
		if len(matches) == 0 {
			bodies = append(bodies, page)
			if len(bodies) != sh.PageCount() {
				t.Fatalf("%s: %d pages served, %d cut", name, len(bodies), sh.PageCount())
			}
			return bodies
		}
		m := matches[len(matches)-1]
		if len(matches) > 1 || m[1] != len(page) || (m[0] > 0 && page[m[0]-1] != '\n') {
			t.Fatalf("%s: page %d does not end in exactly one footer line:\n%s", name, len(bodies)+1, page)
		}
		bodies = append(bodies, page[:max(m[0]-1, 0)])
		var n, total int
		fmt.Sscan(page[m[2]:m[3]], &n)
		fmt.Sscan(page[m[4]:m[5]], &total)
		if n <= shown || n >= total || total != sh.Units() {
			t.Fatalf("%s: footer says %d of %d after %d shown, of %d units", name, n, total, shown, sh.Units())
		}
		shown = n
		var err error
		if res, err = p.Next(nil, page[m[6]:m[7]]); err != nil {
			t.Fatalf("%s: Next: %v", name, err)
		}
	}
}

// reassemble joins page texts back into the whole: a page after the first
// drops the header its first section repeats (when an earlier page showed
// that section), and joins the page before
// without a line break when its first unit continues a split one.
func reassemble(sh *Shaped, bodies []string) string {
	var b strings.Builder
	for i, body := range bodies {
		if i == 0 {
			b.WriteString(body)
			continue
		}
		first := sh.pages[i][0]
		sec := sh.Sections[first.sec]
		if sec.Header != "" && first.from > 0 {
			body = strings.TrimPrefix(body, sec.Header+"\n")
		}
		if !sec.Units[first.from].Continues {
			b.WriteByte('\n')
		}
		b.WriteString(body)
	}
	return b.String()
}
