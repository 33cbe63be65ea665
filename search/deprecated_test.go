package search

import "testing"

func TestDeprecated(t *testing.T) {
	tests := []struct {
		desc string
		want bool
	}{
		{"Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.", true},
		{"Deprecated compatibility entry point. Use firecrawl_scrape once per URL.", true},
		{"NOTE: This CircleCI MCP server (@circleci/mcp-server-circleci) is deprecated and no longer receives feature work.", true},
		{"Fetch a page. Use `fetch_v2` instead.", true},
		{"Read the complete contents of a file from the file system as text.", false},
		{"List pull requests. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead.", false},
		{"Executes raw SQL in the Postgres database. Use `apply_migration` instead for DDL operations.", false},
		{"Delete a VM. Do not use this to delete Virtual Machine Scale Sets (use VMSS delete instead).", false},
		{"Use this instead of get_dashboard_by_uid when you only need specific dashboard data.", false},
		{"Lists the deprecated API versions of a resource provider.", false},
		{"Returns the status; keep the window short, or use range instead.", false},
	}
	for _, tt := range tests {
		if got := deprecated(tt.desc); got != tt.want {
			t.Errorf("deprecated(%q) = %v, want %v", tt.desc, got, tt.want)
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
