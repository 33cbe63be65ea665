package output

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestContextFigures measures what shaping saves on a 500-record result and
// on a single object, with default options. Run with -v to read the
// figures: bytes, and tokens estimated as code points / 4.
func TestContextFigures(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{"500 records", issueRecords(500)},
		{"500 records wrapped", object{{"total", issueRecords(1)[0].(object)[0].val}, {"items", issueRecords(500)}}},
		{"single object", issueRecord(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sh, err := Shape(jsonResult(t, tt.v), nil)
			if err != nil {
				t.Fatal(err)
			}
			first := p1Text(NewPager(nil).First(nil, sh))
			body, _, _ := strings.Cut(unframe(t, first), "\n[truncated:")
			t.Logf("raw: %d B, %d tokens (est.) | shaped: %d B, %d tokens | first page: %d B, %d tokens (%d B, %d tokens without frame and footer) | %d pages, %d units",
				sh.BytesIn, sh.TokensIn, sh.BytesOut, sh.TokensOut,
				len(first), EstimateTokens(first), len(body), EstimateTokens(body), sh.PageCount(), sh.Units())
			if sh.TokensOut >= sh.TokensIn {
				t.Errorf("shaping did not shrink: %d tokens in, %d out", sh.TokensIn, sh.TokensOut)
			}
			if got := EstimateTokens(body); got > DefaultMaxTokens {
				t.Errorf("first page holds %d tokens, over the %d ceiling", got, DefaultMaxTokens)
			}
			for _, internal := range []string{"_id", "__v", "created_at", "updated_at", "hash", "label_ids"} {
				if strings.Contains(sh.Text(), internal) {
					t.Errorf("internal key %s is visible", internal)
				}
			}
		})
	}
}

func p1Text(res *mcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func BenchmarkShape500(b *testing.B) {
	res := jsonResult(b, issueRecords(500))
	var sh *Shaped
	for b.Loop() {
		var err error
		if sh, err = Shape(res, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sh.BytesIn), "bytes_in/op")
	b.ReportMetric(float64(sh.BytesOut), "bytes_out/op")
	b.ReportMetric(float64(sh.TokensOut), "tokens_out/op")
}

func BenchmarkFirstPage500(b *testing.B) {
	sh, err := Shape(jsonResult(b, issueRecords(500)), nil)
	if err != nil {
		b.Fatal(err)
	}
	p := NewPager(nil)
	for b.Loop() {
		p.First(nil, sh)
	}
}

// BenchmarkScan500 measures what the poisoning detector adds to a
// 500-record result, in each mode: shaping it (which reads the first page)
// and serving it to the end (every later page read as it is served).
func BenchmarkScan500(b *testing.B) {
	res := jsonResult(b, issueRecords(500))
	for _, mode := range []struct {
		name string
		scan ScanMode
	}{{"off", ScanOff}, {"warn", ScanWarn}, {"strip", ScanStrip}} {
		opts := &Options{Scan: mode.scan, Source: "tracker"}
		b.Run("shape/"+mode.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Shape(res, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("all-pages/"+mode.name, func(b *testing.B) {
			var pages int
			for b.Loop() {
				sh, err := Shape(res, opts)
				if err != nil {
					b.Fatal(err)
				}
				pages = len(servedPages(b, sh))
			}
			b.ReportMetric(float64(pages), "pages")
		})
	}
}
