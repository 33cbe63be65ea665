package cli

// This file renders `capbridge stats --html`: one self-contained page, inline
// CSS and SVG, no scripts.

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"time"
)

// chartBar is one horizontal bar, laid out in SVG units.
type chartBar struct {
	Label, Value string
	Y, Width     int
	Class        string
}

// barChart is one SVG chart of horizontal bars on a shared linear scale.
type barChart struct {
	Title, Caption string
	Height         int
	Bars           []chartBar
}

const (
	chartLabelWidth = 220
	chartBarsWidth  = 620
	chartRowHeight  = 30
)

// newBarChart lays out bars of values; the longest bar takes the full width.
func newBarChart(title, caption string, labels []string, values []int64, classes []string, format func(int64) string) barChart {
	c := barChart{Title: title, Caption: caption, Height: len(values)*chartRowHeight + 10}
	var top int64 = 1
	for _, v := range values {
		top = max(top, v)
	}
	for i, v := range values {
		w := int(float64(v) / float64(top) * chartBarsWidth)
		if v > 0 {
			w = max(w, 2)
		}
		c.Bars = append(c.Bars, chartBar{Label: labels[i], Value: format(v), Y: i*chartRowHeight + 5, Width: w, Class: classes[i]})
	}
	return c
}

func estTokens(n int64) string { return thousands(n) + " est. tokens" }

// statsCharts builds the definitions chart (each server registered directly,
// all of them, capbridge) and, when calls were recorded, the results chart
// (before and after shaping, per server).
func statsCharts(r statsReport) []barChart {
	var labels, classes []string
	var values []int64
	for _, s := range r.Servers {
		labels, values, classes = append(labels, s.Name), append(values, s.Direct.EstTokens), append(classes, "direct")
	}
	labels = append(labels, "all servers, directly", "through capbridge")
	values = append(values, r.Direct.EstTokens, r.Bridge.Total.EstTokens)
	classes = append(classes, "total", "bridge")
	charts := []barChart{newBarChart("Tool definitions in the context",
		"Each server's tools registered directly, all of them together, and capbridge's two definitions plus a typical discovery.",
		labels, values, classes, estTokens)}
	if r.Calls.Calls == 0 {
		return charts
	}
	labels, values, classes = nil, nil, nil
	for _, s := range r.Calls.Servers {
		labels = append(labels, s.Name+" before", s.Name+" after")
		values = append(values, s.Before.EstTokens, s.After.EstTokens)
		classes = append(classes, "direct", "bridge")
	}
	return append(charts, newBarChart("Tool results, before and after shaping",
		fmt.Sprintf("%d recorded calls.", r.Calls.Calls), labels, values, classes, estTokens))
}

var statsPage = template.Must(template.New("stats").Funcs(template.FuncMap{
	"thousands": thousands,
	"labelX":    func() int { return chartLabelWidth - 10 },
	"barX":      func() int { return chartLabelWidth },
	"valueX":    func(b chartBar) int { return chartLabelWidth + b.Width + 8 },
	"svgWidth":  func() int { return chartLabelWidth + chartBarsWidth + 200 },
	"textY":     func(b chartBar) int { return b.Y + 15 },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>capbridge stats</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; color: #1d2330; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #5b6475; font-size: .85rem; margin-top: 0; }
.headline { font-size: 1.25rem; background: #eef6ee; border-left: 4px solid #2e8b57; padding: .6rem 1rem; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { padding: .25rem .8rem; border-bottom: 1px solid #e3e6ec; }
th { text-align: left; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.sum td { font-weight: 600; }
svg text { font: 13px system-ui, sans-serif; fill: #1d2330; }
svg .label { text-anchor: end; }
rect.direct { fill: #c0504d; } rect.total { fill: #8b1e1b; } rect.bridge { fill: #2e8b57; }
.note { color: #5b6475; font-size: .9rem; }
</style></head><body>
<h1>capbridge: context saved</h1>
<p class="meta">catalog {{.R.DB}} · {{.Generated}} · tokens are estimates, ceil(characters / 4); bytes are exact</p>
{{if .R.Servers}}
<p class="headline">Registering every tool directly: <b>{{thousands .R.Direct.EstTokens}}</b> est. tokens.
Through capbridge: <b>{{thousands .R.Bridge.Total.EstTokens}}</b> est. tokens. Saved <b>{{printf "%.1f" .R.SavedPercent}}%</b> of the tool-definition context.</p>
{{range .Charts}}
<h2>{{.Title}}</h2>
<p class="note">{{.Caption}}</p>
<svg width="{{svgWidth}}" height="{{.Height}}" viewBox="0 0 {{svgWidth}} {{.Height}}" role="img" aria-label="{{.Title}}">
{{range .Bars}}<text class="label" x="{{labelX}}" y="{{textY .}}">{{.Label}}</text>
<rect class="{{.Class}}" x="{{barX}}" y="{{.Y}}" width="{{.Width}}" height="20" rx="2"></rect>
<text x="{{valueX .}}" y="{{textY .}}">{{.Value}}</text>
{{end}}</svg>
{{end}}
<h2>Per server</h2>
<table><tr><th>server</th><th>tools</th><th>direct bytes</th><th>direct est. tokens</th></tr>
{{range .R.Servers}}<tr><td>{{.Name}}</td><td class="n">{{.Tools}}</td><td class="n">{{thousands .Direct.Bytes}}</td><td class="n">{{thousands .Direct.EstTokens}}</td></tr>
{{end}}<tr class="sum"><td>all servers</td><td class="n">{{.R.Tools}}</td><td class="n">{{thousands .R.Direct.Bytes}}</td><td class="n">{{thousands .R.Direct.EstTokens}}</td></tr>
</table>
<table><tr><th>through capbridge</th><th>bytes</th><th>est. tokens</th></tr>
<tr><td>two tool definitions</td><td class="n">{{thousands .R.Bridge.Definitions.Bytes}}</td><td class="n">{{thousands .R.Bridge.Definitions.EstTokens}}</td></tr>
<tr><td>a typical discovery ({{.R.Bridge.Cards}} cards, median card {{.R.Bridge.MedianCardBytes}} B)</td><td class="n">{{thousands .R.Bridge.Discovery.Bytes}}</td><td class="n">{{thousands .R.Bridge.Discovery.EstTokens}}</td></tr>
<tr class="sum"><td>total</td><td class="n">{{thousands .R.Bridge.Total.Bytes}}</td><td class="n">{{thousands .R.Bridge.Total.EstTokens}}</td></tr>
</table>
{{if .R.RefusedNotCounted}}<p class="note">{{.R.RefusedNotCounted}} refused tool(s) are not counted: their definitions are not stored.</p>{{end}}
{{if .R.Calls.Calls}}
<h2>Tool results</h2>
<p>{{.R.Calls.Calls}} recorded calls: {{.R.Calls.Refused}} refused before calling (the bridge answered needs_input, invalid_params or schema_changed without calling the server), {{.R.Calls.Failures}} failed upstream.</p>
<table><tr><th>server</th><th>calls</th><th>bytes before</th><th>bytes after</th><th>est. tokens before</th><th>est. tokens after</th></tr>
{{range .R.Calls.Servers}}<tr><td>{{.Name}}</td><td class="n">{{.Calls}}</td><td class="n">{{thousands .Before.Bytes}}</td><td class="n">{{thousands .After.Bytes}}</td><td class="n">{{thousands .Before.EstTokens}}</td><td class="n">{{thousands .After.EstTokens}}</td></tr>
{{end}}<tr class="sum"><td>all servers</td><td class="n">{{.R.Calls.Calls}}</td><td class="n">{{thousands .R.Calls.Before.Bytes}}</td><td class="n">{{thousands .R.Calls.After.Bytes}}</td><td class="n">{{thousands .R.Calls.Before.EstTokens}}</td><td class="n">{{thousands .R.Calls.After.EstTokens}}</td></tr>
</table>
{{if .R.Calls.FlaggedCalls}}<p>{{.R.Calls.FlaggedCalls}} answers held text that reads as instructions to the model ({{.R.Calls.FlaggedPassages}} passages, poisoning detector, <code>bridge.results</code>):</p>
<table><tr><th>tool</th><th>answers</th><th>passages</th></tr>
{{range .R.Calls.Flagged}}<tr><td>{{.Server}}/{{.Tool}}</td><td class="n">{{.Calls}}</td><td class="n">{{.Passages}}</td></tr>
{{end}}</table>{{end}}
{{else}}<p class="note">No calls recorded yet: 'capbridge serve' records every run_capability.</p>{{end}}
{{else}}<p>No stored tools yet: run <code>capbridge index</code>.</p>{{end}}
</body></html>
`))

// writeStatsHTML writes the report as one self-contained HTML file.
func writeStatsHTML(path string, r statsReport) error {
	var b bytes.Buffer
	err := statsPage.Execute(&b, struct {
		R         statsReport
		Charts    []barChart
		Generated string
	}{r, statsCharts(r), time.Now().Format("2006-01-02 15:04")})
	if err != nil {
		return fmt.Errorf("rendering HTML report: %w", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return nil
}
