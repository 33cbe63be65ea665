package search

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// laptopSearcher is a Searcher over the laptop catalog (21 real servers).
func laptopSearcher(t *testing.T) *Searcher {
	t.Helper()
	st := openStore(t)
	f, err := OpenFile(laptopCatalog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := LoadCatalog(context.Background(), st, f, nil); err != nil {
		t.Fatal(err)
	}
	return New(st, nil)
}

// TestLaptopIntents holds issue 16's loose intents over the laptop
// catalog: a deprecated tool ranks below its replacement, action words
// do not put a destructive file write first, and an intent no tool
// serves gets no confident card, and a tool whose only match is a quoted
// label in its description (fill_form's "Remember Me") does not come
// first. An intent that names a server finds that server's tools, and "how many"
// finds a count, and an abbreviation finds the tools that spell it out
// (see abbreviations). A first word no tool
// describes ("remember") finds the memory server's tools by its synonyms
// (see Searcher.standIns), and the content after "remember that" or
// "note that" is not searched as the topic (see contentClause), and so is
// a rare word of a short intent ("store a fact": the catalog's only
// "fact" is an idiom). A tool that destroys what the intent does not ask
// to lose (delete_observations for "store a fact") does not come first
// (see destroysUnasked).
func TestLaptopIntents(t *testing.T) {
	s := laptopSearcher(t)
	tests := []struct {
		intent string
		first  string // server/name ranked first, if set
		top3   func(Result) bool
		never1 string // server/name that must not come first
		quiet  bool   // no result at ConfidentAt
		server string // the server every one of the top 3 comes from, if set
		sure   string // server/name that must be among the results at ConfidentAt
	}{
		{intent: "read a text file", first: "filesystem/read_text_file"},
		{intent: "remember that Alice works at Acme", never1: "filesystem/write_file"},
		{intent: "remember that Alice works at Acme", never1: "chrome-devtools/fill_form"},
		// What follows "remember that" is what to keep, not the topic: an
		// "Alice" in write_file's example is no match.
		{intent: "remember that Alice works at Acme", never1: "desktop-commander/write_file"},
		{intent: "note that Alice works at Acme", top3: fromServer("memory")},
		{intent: "store a fact about a person", never1: "filesystem/write_file"},
		{intent: "store a fact about a person", top3: fromServer("memory"), never1: "memory/delete_observations"},
		{intent: "store facts about people", top3: fromServer("memory"), never1: "memory/delete_observations"},
		{intent: "record a fact about a customer", top3: fromServer("memory"), never1: "memory/delete_observations"},
		// An action no tool describes is searched by its synonyms.
		{intent: "remember that Alice works at Acme", top3: fromServer("memory")},
		{intent: "remember this", top3: fromServer("memory")},
		// A keep verb's object is the content, "that" or not; "jot down
		// that" keeps as "note that" does.
		{intent: "remember my favorite color is blue", top3: fromServer("memory")},
		{intent: "jot down that Bob likes tea", top3: fromServer("memory")},
		{intent: "get the weather", quiet: true},
		{intent: "find gluten-free recipes", quiet: true},
		// A question of quantity asks for a count, not for the *-many
		// tools; one of size asks for a size.
		{intent: "how many documents are in the users collection", first: "mongodb/count"},
		{intent: "how big is this file", top3: named("get_file_info")},
		// An abbreviation finds what the tools spell out.
		{intent: "merge the PR", top3: named("merge_pull_request"), never1: "supabase/merge_branch"},
		{intent: "make a new dir", top3: named("create_directory")},
		{intent: "list k8s pods", first: "kubernetes-mcp-server/pods_list"},
		// Its short form is no second topic: a tool taking a repo is not
		// about repositories.
		{intent: "list my github repos", first: "server-github/search_repositories"},
		// The catalog's word for the action: Twilio "purchases" numbers.
		{intent: "buy a phone number", first: "twilio/TwilioApiV2010--CreateIncomingPhoneNumber"},
		{intent: "read the README", top3: func(r Result) bool { return strings.HasPrefix(r.Name, "read") }},
		// A domain to open is a page to load.
		{intent: "open google.com in the browser", top3: loadsPage},
		// ... and so is a URL; "go" there is no topic (Go the language).
		{intent: "go to example.com", top3: loadsPage},
		{intent: "visit https://news.ycombinator.com", top3: loadsPage},
		// A name given is no topic: "build" is not CircleCI's.
		{intent: "make a directory called build", top3: named("create_directory")},
		// What to forget is the content, and forgetting is deleting.
		{intent: "forget that Bob likes tea", top3: fromServer("memory")},
		// A text to send is an SMS message, not text to type or read.
		{intent: "send a text to mom", top3: sendsSMS},
		{intent: "text my wife that I am late", top3: sendsSMS, never1: "chrome-devtools/type_text"},
		// A question to the assistant's memory looks it up there.
		{intent: "what did I tell you about the staging password?", top3: fromServer("memory")},
		{intent: "what do you know about Alice", top3: fromServer("memory")},
		// ... but what is known at large stays the topic.
		{intent: "what do you know about kubernetes pods", server: "kubernetes-mcp-server"},
		// "memory" there is what the assistant keeps, not RAM.
		{intent: "Store in memory that the staging database password rotates every 90 days", top3: fromServer("memory")},
		// A file named with nothing to do to it is to be read.
		{intent: "what's in ~/projects/api/README.md", never1: "notion/API-retrieve-page-markdown",
			top3: func(r Result) bool { return strings.HasPrefix(r.Name, "read") }},
		// Two words the catalog writes as one.
		{intent: "who is on call now", first: "grafana-all/get_current_oncall_users"},
		// An SQL statement asks to run SQL; its names are no topic.
		{intent: "Run SELECT count(*) FROM users on the production supabase project", top3: named("execute_sql")},
		// "run" is what "execute" means.
		{intent: "run a SQL query on my supabase project", sure: "supabase/execute_sql"},
		// The intent names where to look.
		{intent: "show recent errors from sentry", server: "sentry"},
		{intent: "get the status of my latest circleci pipeline", server: "circleci"},
		// CircleCI's server says it is deprecated in every tool, word for
		// word: a sentence the server repeats is about the server, not
		// one of its tools (schema.Tool.Described), and ranks none of
		// them down, named or not.
		{intent: "rerun the failed circleci job", first: "circleci/rerun_workflow"},
		{intent: "trigger a pipeline", first: "circleci/run_pipeline"},
	}
	for _, tt := range tests {
		t.Run(tt.intent, func(t *testing.T) {
			rs, err := s.Search(context.Background(), tt.intent, Query{Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.Server+"/"+r.Name+" "+strconvF(r.Confidence))
			}
			t.Logf("%s", strings.Join(got, ", "))
			if len(rs) == 0 {
				t.Fatal("no results")
			}
			first := rs[0].Server + "/" + rs[0].Name
			if tt.first != "" && first != tt.first {
				t.Errorf("first %s, want %s", first, tt.first)
			}
			if tt.never1 != "" && first == tt.never1 {
				t.Errorf("first %s", first)
			}
			if tt.top3 != nil && !slices.ContainsFunc(rs[:min(3, len(rs))], tt.top3) {
				t.Errorf("no wanted tool in the top 3")
			}
			if tt.server != "" && slices.ContainsFunc(rs[:min(3, len(rs))], func(r Result) bool { return r.Server != tt.server }) {
				t.Errorf("a top-3 tool is not %s's", tt.server)
			}
			if tt.sure != "" && !slices.ContainsFunc(rs, func(r Result) bool {
				return r.Server+"/"+r.Name == tt.sure && r.Confidence >= ConfidentAt
			}) {
				t.Errorf("no %s at %v", tt.sure, ConfidentAt)
			}
			if tt.quiet && slices.ContainsFunc(rs, func(r Result) bool { return r.Confidence >= ConfidentAt }) {
				t.Errorf("a card reaches %v", ConfidentAt)
			}
		})
	}
}

// sendsSMS matches a tool that sends a text message.
func sendsSMS(r Result) bool {
	return r.Name == "communication_sms_send" || strings.HasSuffix(r.Name, "CreateMessage")
}

// loadsPage matches a browser tool that loads a page.
func loadsPage(r Result) bool { return strings.Contains(r.Name, "navigate") || r.Name == "new_page" }

// named matches a result whose tool is named name, on any server.
func named(name string) func(Result) bool {
	return func(r Result) bool { return r.Name == name }
}

// fromServer matches a result of the named server.
func fromServer(server string) func(Result) bool {
	return func(r Result) bool { return r.Server == server }
}

func strconvF(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
