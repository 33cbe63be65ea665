package cli

// Tests of the commands that show the catalog: servers and stats.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/store"
)

func TestServersAndStatsWithoutAnything(t *testing.T) {
	s := newSandbox(t)
	for _, cmd := range []string{"servers", "stats"} {
		r := s.mustRun(1, cmd)
		for _, want := range []string{"capbridge import", "capbridge add", s.configPath()} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s with no config and no catalog: stderr lacks %q:\n%s", cmd, want, r.stderr)
			}
		}
		if _, err := os.Stat(s.dbPath()); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s created the catalog %s", cmd, s.dbPath())
		}
	}
}

func TestServersAndStatsOnAnEmptyCatalog(t *testing.T) {
	s := newSandbox(t)
	st, err := store.Open(context.Background(), s.dbPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	s.mustRun(0, "add", "files", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp")

	r := s.mustRun(0, "servers")
	if !regexp.MustCompile(`(?m)^files\s+configured\s+stdio\s+0\s+0\s`).MatchString(r.stdout) {
		t.Errorf("servers should list files as configured:\n%s", r.stdout)
	}
	r = s.mustRun(0, "stats")
	if !strings.Contains(r.stdout, "capbridge index") {
		t.Errorf("stats on an empty catalog should point at index:\n%s", r.stdout)
	}
	var report statsReport
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json").stdout), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Servers) != 0 || report.Direct.Bytes != 0 || report.Calls.Calls != 0 {
		t.Errorf("stats --json on an empty catalog = %+v", report)
	}
}

func TestServersOnAPopulatedCatalog(t *testing.T) {
	s := newSandbox(t)
	catalog := storeDemoCatalog(t, s.dbPath())
	var servers []string
	for name := range catalog.tools {
		servers = append(servers, name)
	}
	slices.Sort(servers)
	configured, orphan := servers[0], servers[1]
	s.mustRun(0, "add", configured, "--", "capbridge-demo-never-started")
	s.mustRun(0, "add", "later", "--url", "http://127.0.0.1:1/mcp", "--header", "X-Key: ${CAPBRIDGE_TEST_UNSET_VAR}")
	// A refused tool, with its reason, as index stores one.
	st, err := store.Open(context.Background(), s.dbPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const reason = "input schema is 300 KiB, over the 256 KiB limit"
	err = st.ReplaceCatalog(context.Background(), store.Server{Name: "huge"}, storeTools(store.Tool{Name: "bulk_import", Refusal: reason}))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	var got struct {
		Config, DB string
		Servers    []serverStatus
	}
	if err := json.Unmarshal([]byte(s.mustRun(0, "servers", "--json").stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Config != s.configPath() || got.DB != s.dbPath() {
		t.Errorf("paths = %s, %s", got.Config, got.DB)
	}
	byName := map[string]serverStatus{}
	for _, srv := range got.Servers {
		byName[srv.Name] = srv
	}
	for _, name := range servers {
		srv := byName[name]
		if srv.Tools != catalog.tools[name] || srv.Refused != len(catalog.refused[name]) || srv.Bytes == 0 || srv.LastListed == nil {
			t.Errorf("%s = %+v, want %d tools, %d refused, bytes and a listing time", name, srv, catalog.tools[name], len(catalog.refused[name]))
		}
	}
	wantStates := map[string]string{configured: "stored", orphan: stateNotInConfig, "later": stateConfigured, "huge": stateNotInConfig}
	for name, want := range wantStates {
		if byName[name].State != want {
			t.Errorf("state of %s = %q, want %q", name, byName[name].State, want)
		}
	}
	if rt := byName["huge"].RefusedTools; len(rt) != 1 || rt[0].Name != "bulk_import" || rt[0].Reason != reason {
		t.Errorf("refused tools of huge = %+v", rt)
	}

	text := s.mustRun(0, "servers").stdout
	for _, want := range []string{"bulk_import: " + reason, "SERVER", "LAST ERROR", "CAPBRIDGE_TEST_UNSET_VAR"} {
		if !strings.Contains(text, want) {
			t.Errorf("servers lacks %q:\n%s", want, text)
		}
	}

	s.mustRun(0, "remove", configured)
	if err := json.Unmarshal([]byte(s.mustRun(0, "servers", "--json").stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, srv := range got.Servers {
		if srv.Name == configured {
			t.Errorf("after remove, %s is still listed: %+v", configured, srv)
		}
	}
	r := s.mustRun(0, "remove", orphan)
	if !strings.Contains(r.stdout, "dropped its tools") {
		t.Errorf("removing a stored-only server: %s", r.stdout)
	}
}

func TestStatsOnAPopulatedCatalog(t *testing.T) {
	s := newSandbox(t)
	catalog := storeDemoCatalog(t, s.dbPath())
	st, err := store.Open(context.Background(), s.dbPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := []store.Call{
		{Server: "crm", Tool: "search_contacts", BytesIn: 48_000, BytesOut: 5_200, TokensIn: 12_000, TokensOut: 1_300, Outcome: store.OutcomeOK},
		{Server: "crm", Tool: "get_contact", BytesIn: 4_000, BytesOut: 900, TokensIn: 1_000, TokensOut: 225, Outcome: "upstream_error"},
		{Server: "helpdesk", Tool: "list_tickets", BytesIn: 30_000, BytesOut: 6_000, TokensIn: 7_500, TokensOut: 1_500, Outcome: store.OutcomeOK},
		{Server: "helpdesk", Tool: "create_ticket", Outcome: "needs_input"},
		{Server: "helpdesk", Tool: "create_ticket", Outcome: "invalid_params"},
	}
	for _, c := range calls {
		if err := st.RecordCalls(context.Background(), []store.Call{c}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	htmlPath := filepath.Join(s.wd, "stats.html")
	var report statsReport
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json", "--html", htmlPath).stdout), &report); err != nil {
		t.Fatal(err)
	}
	// What registering every tool directly costs, computed here from the
	// raw tools: one JSON array per server, and one for all of them.
	var allTools [][]byte
	for _, srv := range report.Servers {
		raws := catalog.raws[srv.Name]
		allTools = append(allTools, raws...)
		want := costOfArray(raws)
		if srv.Direct != want || srv.Tools != len(raws) {
			t.Errorf("%s: direct = %+v over %d tools, want %+v over %d", srv.Name, srv.Direct, srv.Tools, want, len(raws))
		}
	}
	if len(report.Servers) != len(catalog.raws) {
		t.Errorf("stats lists %d servers, the catalog has %d", len(report.Servers), len(catalog.raws))
	}
	if want := costOfArray(allTools); report.Direct != want {
		t.Errorf("direct total = %+v, want %+v", report.Direct, want)
	}
	b := report.Bridge
	defs, err := json.Marshal(bridge.Definitions())
	if err != nil {
		t.Fatal(err)
	}
	if b.Definitions.Bytes != int64(len(defs)) || b.Definitions.Bytes >= 4000 {
		t.Errorf("bridge definitions = %+v, want the %d bytes of tools/list's tools array, under 4,000", b.Definitions, len(defs))
	}
	if b.Cards != bridge.DefaultLimit || b.MedianCardBytes <= 0 || b.Discovery.Bytes < 3*b.MedianCardBytes || b.Discovery.Bytes > 6000 {
		t.Errorf("typical discovery = %+v: want %d median cards, within the 6,000-byte result budget", b, bridge.DefaultLimit)
	}
	if b.Total.Bytes != b.Definitions.Bytes+b.Discovery.Bytes || report.Saved.Bytes != report.Direct.Bytes-b.Total.Bytes {
		t.Errorf("sums do not add up: %+v", report)
	}

	c := report.Calls
	// needs_input and invalid_params never reached a server: they are
	// refused before calling, not failed calls.
	if c.Calls != len(calls) || c.Failures != 1 || c.Refused != 2 {
		t.Errorf("calls = %d (%d refused, %d failed), want %d (2 refused, 1 failed upstream)", c.Calls, c.Refused, c.Failures, len(calls))
	}
	var before, after contextCost
	for _, call := range calls {
		before.Bytes += call.BytesIn
		before.EstTokens += call.TokensIn
		after.Bytes += call.BytesOut
		after.EstTokens += call.TokensOut
	}
	if c.Before != before || c.After != after || len(c.Servers) != 2 {
		t.Errorf("call totals = %+v, want before %+v after %+v over 2 servers", c, before, after)
	}

	text := s.mustRun(0, "stats").stdout
	for _, want := range []string{"est. tokens", "all servers", thousands(report.Direct.Bytes), thousands(c.Before.Bytes), "2 refused before calling, 1 failed upstream"} {
		if !strings.Contains(text, want) {
			t.Errorf("stats lacks %q:\n%s", want, text)
		}
	}

	page := s.readFile(htmlPath)
	for _, want := range append([]string{"<svg", "</html>", thousands(report.Direct.EstTokens), "2 refused before calling", "1 failed upstream"}, slices.Collect(maps.Keys(catalog.raws))...) {
		if !strings.Contains(page, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "http://", "https://"} {
		if strings.Contains(page, banned) {
			t.Errorf("HTML report is not self-contained: it holds %q", banned)
		}
	}
}

// costOfArray is what a JSON array of these compact values costs.
func costOfArray(values [][]byte) contextCost {
	joined := append(append([]byte("["), bytes.Join(values, []byte(","))...), ']')
	return contextCost{Bytes: int64(len(joined)), EstTokens: int64((utf8.RuneCount(joined) + 3) / 4)}
}

// TestIndexedDemoServers goes the way a user does: add servers, index them
// (the demo server, run by this binary, is a real MCP server over stdio),
// then look at them with servers and stats, and remove one.
func TestIndexedDemoServers(t *testing.T) {
	s := newSandbox(t)
	bin := capbridgeBinary(t)
	s.mustRun(0, "add", "helpdesk", "--", bin, "demo-server", "--server", "helpdesk")
	s.mustRun(0, "add", "crm", "--", bin, "demo-server", "--server", "crm")
	const secret = "planted-secret-4f9a"
	s.mustRun(0, "add", "broken", "--env", "TOKEN="+secret, "--", filepath.Join(s.wd, "no-such-server"))
	s.mustRun(0, "add", "remote", "--url", "http://127.0.0.1:1/mcp", "--header", "Authorization: Bearer "+secret)
	s.writeFile(filepath.Join(s.wd, "off.json"), `{"mcpServers": {"off": {"command": "x", "disabled": true}}}`)
	s.mustRun(0, "import", "off.json")
	r := s.mustRun(1, "index") // broken and remote fail; the others are indexed
	outputs := []result{r, s.mustRun(0, "servers"), s.mustRun(0, "servers", "--json"), s.mustRun(0, "stats"), s.mustRun(0, "stats", "--json")}
	for _, out := range outputs {
		if strings.Contains(out.stdout+out.stderr, secret) {
			t.Errorf("a secret from env or headers was printed:\n%s%s", out.stdout, out.stderr)
		}
	}

	servers := func() map[string]serverStatus {
		var got struct{ Servers []serverStatus }
		if err := json.Unmarshal([]byte(s.mustRun(0, "servers", "--json").stdout), &got); err != nil {
			t.Fatal(err)
		}
		m := map[string]serverStatus{}
		for _, srv := range got.Servers {
			m[srv.Name] = srv
		}
		return m
	}
	byName := servers()
	for _, name := range []string{"helpdesk", "crm"} {
		if srv := byName[name]; srv.State != "stored" || srv.Tools == 0 || srv.Bytes == 0 || srv.Transport != "stdio" {
			t.Errorf("%s = %+v, want stored stdio with tools", name, srv)
		}
	}
	if srv := byName["broken"]; srv.State != "failing" || !strings.Contains(srv.LastError, "no-such-server") {
		t.Errorf("broken = %+v, want failing with its error", srv)
	}
	if srv := byName["off"]; srv.State != stateDisabled {
		t.Errorf("off = %+v, want disabled", srv)
	}

	var report statsReport
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json").stdout), &report); err != nil {
		t.Fatal(err)
	}
	for _, srv := range report.Servers {
		if srv.Tools != byName[srv.Name].Tools || srv.Direct.Bytes == 0 {
			t.Errorf("stats for %s = %+v, servers says %d tools", srv.Name, srv, byName[srv.Name].Tools)
		}
	}
	if len(report.Servers) != 2 || report.Saved.Bytes <= 0 {
		t.Errorf("stats = %+v, want two servers and a saving", report)
	}

	s.mustRun(0, "remove", "helpdesk")
	if _, ok := servers()["helpdesk"]; ok {
		t.Error("helpdesk still listed after remove")
	}
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json").stdout), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Servers) != 1 || report.Servers[0].Name != "crm" {
		t.Errorf("stats after removing helpdesk still counts it: %+v", report.Servers)
	}
}

// storeTools is tools as store.ReplaceCatalog reads them.
func storeTools(tools ...store.Tool) iter.Seq2[store.Tool, error] {
	return func(yield func(store.Tool, error) bool) {
		for _, t := range tools {
			if !yield(t, nil) {
				return
			}
		}
	}
}
