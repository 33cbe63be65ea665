package search

import "testing"

func TestRetired(t *testing.T) {
	tests := []struct {
		desc string
		want retirement
	}{
		{"Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.", toolRetired},
		{"Deprecated compatibility entry point. Use firecrawl_scrape once per URL.", toolRetired},
		{"NOTE: This CircleCI MCP server (@circleci/mcp-server-circleci) is deprecated and no longer receives feature work.", serverRetired},
		{"This tool is deprecated. The whole server is deprecated too.", toolRetired},
		{"Fetch a page. Use `fetch_v2` instead.", toolRetired},
		{"Read the complete contents of a file from the file system as text.", notRetired},
		{"List pull requests. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead.", notRetired},
		{"Executes raw SQL in the Postgres database. Use `apply_migration` instead for DDL operations.", notRetired},
		{"Delete a VM. Do not use this to delete Virtual Machine Scale Sets (use VMSS delete instead).", notRetired},
		{"Use this instead of get_dashboard_by_uid when you only need specific dashboard data.", notRetired},
		{"Lists the deprecated API versions of a resource provider.", notRetired},
		{"Returns the status; keep the window short, or use range instead.", notRetired},
	}
	for _, tt := range tests {
		if got := retired(tt.desc); got != tt.want {
			t.Errorf("retired(%q) = %v, want %v", tt.desc, got, tt.want)
		}
	}
}

// A retired server's tools rank as deprecated unless the intent names
// the server; a retired tool always does.
func TestDemoted(t *testing.T) {
	const server = "This MCP server is deprecated."
	const tool = "Read a file. DEPRECATED: Use read_text_file instead."
	for _, tt := range []struct {
		desc  string
		named bool
		want  bool
	}{
		{server, false, true},
		{server, true, false},
		{tool, false, true},
		{tool, true, true},
		{"Read a file.", false, false},
	} {
		if got := demoted(tt.desc, tt.named); got != tt.want {
			t.Errorf("demoted(%q, named %v) = %v, want %v", tt.desc, tt.named, got, tt.want)
		}
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"DEPRECATED: use x", true},
		{"This tool is Deprecated.", true},
		{"deprecated", true},
		{"deprecate", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := mentions(tt.s, "deprecated", "Deprecated", "DEPRECATED"); got != tt.want {
			t.Errorf("mentions(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
