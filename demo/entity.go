package demo

import (
	"fmt"
	"strings"
	"time"
)

// Records are dated from a fixed day so that answers never change.
var baseTime = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// timeStep separates the dates of consecutive records.
const timeStep = 97 * time.Minute

// entity makes the i-th record of one kind of thing.
type entity struct {
	kind string // the word in a tool name that selects it
	make func(i int) record
}

// entities are tried in order against the words of a tool name; the first
// kind found decides. "comment" comes before "ticket" so that
// list_ticket_comments lists comments.
func entities() []entity {
	return []entity{
		{"comment", comment},
		{"slot", slot},
		{"attendee", person},
		{"ticket", ticket},
		{"case", ticket},
		{"event", event},
		{"meeting", event},
		{"calendar", calendar},
		{"customer", customer},
		{"contact", customer},
		{"account", account},
		{"deal", deal},
		{"call", activity},
		{"activity", activity},
		{"note", activity},
		{"file", file},
		{"directory", file},
		{"folder", file},
		{"agent", person},
		{"user", person},
	}
}

// entityFor picks the entity a tool's name is about, or a generic one.
func entityFor(tool string) entity {
	words := strings.FieldsFunc(strings.ToLower(tool), func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == ' '
	})
	for _, e := range entities() {
		for _, w := range words {
			if strings.TrimSuffix(w, "s") == e.kind || w == e.kind {
				return e
			}
		}
	}
	return entity{kind: "record", make: generic}
}

var (
	people = []struct{ name, email string }{
		{"Ana Souza", "ana.souza@example.com"}, {"Ben Okafor", "ben.okafor@example.com"},
		{"Chloé Martin", "chloe.martin@example.fr"}, {"Dmitri Volkov", "dmitri@example.org"},
		{"Emma Lindqvist", "emma.l@example.se"}, {"Farid Haddad", "farid.haddad@example.com"},
		{"Grace Kim", "grace.kim@example.com"}, {"Hiro Tanaka", "hiro@example.jp"},
	}
	companies = []string{"Acme Logistics", "Globex", "Initech", "Umbrella Health", "Stark Retail", "Wayne Foods"}
	subjects  = []string{
		"Cannot log in after password reset", "Invoice shows the wrong VAT rate",
		"Export to CSV times out", "Two-factor codes not arriving by SMS",
		"Request to add a new admin user", "Calendar sync missing recurring events",
		"Refund for duplicate charge", "API returns 502 during peak hours",
	}
	statuses   = []string{"open", "pending", "on_hold", "solved"}
	priorities = []string{"low", "normal", "high", "urgent"}
	stages     = []string{"qualification", "discovery", "proposal", "negotiation", "closed_won", "closed_lost"}
)

func pick[T any](list []T, i int) T { return list[i%len(list)] }

func ticket(i int) record {
	p := pick(people, i)
	return withInternals(record{
		{"id", fmt.Sprintf("TCK-%06d", 1001+i)},
		{"subject", pick(subjects, i)},
		{"status", pick(statuses, i)},
		{"priority", pick(priorities, i*7)},
		{"requester", record{{"name", p.name}, {"email", p.email}}},
		{"assignee", pick(people, i+3).name},
		{"tags", []string{"support", pick([]string{"login", "billing", "sync", "api"}, i)}},
	}, "ticket", i)
}

func comment(i int) record {
	return withInternals(record{
		{"id", fmt.Sprintf("cmt_%06d", 1+i)},
		{"ticket_id", fmt.Sprintf("TCK-%06d", 1001+i/3)},
		{"author", pick(people, i+1).name},
		{"public", i%2 == 0},
		{"body", fmt.Sprintf("Update %d: %s; looking into it.", i+1, strings.ToLower(pick(subjects, i)))},
	}, "comment", i)
}

func event(i int) record {
	start := baseTime.Add(time.Duration(i) * 90 * time.Minute)
	return withInternals(record{
		{"id", fmt.Sprintf("evt_%06d", 1+i)},
		{"title", pick([]string{"Weekly sync", "Customer onboarding", "Quarterly review", "1:1", "Incident retro"}, i)},
		{"start", start.Format(time.RFC3339)},
		{"end", start.Add(45 * time.Minute).Format(time.RFC3339)},
		{"location", pick([]string{"Room 4.12", "https://meet.example.com/abc-defg-hij", "Lisbon office"}, i)},
		{"organizer", pick(people, i).email},
		{"attendees", []string{pick(people, i+1).email, pick(people, i+2).email}},
	}, "event", i)
}

func slot(i int) record {
	start := baseTime.Add(time.Duration(i) * time.Hour)
	return record{
		{"start", start.Format(time.RFC3339)},
		{"end", start.Add(30 * time.Minute).Format(time.RFC3339)},
		{"duration_minutes", 30},
	}
}

func calendar(i int) record {
	return withInternals(record{
		{"id", fmt.Sprintf("cal_%04d", 1+i)},
		{"name", pick([]string{"Work", "Team", "On-call", "Holidays"}, i)},
		{"time_zone", pick([]string{"Europe/Lisbon", "America/New_York", "Asia/Tokyo"}, i)},
		{"primary", i == 0},
	}, "calendar", i)
}

func customer(i int) record {
	p := pick(people, i)
	return withInternals(record{
		{"id", fmt.Sprintf("cus_%06d", 1+i)},
		{"name", p.name},
		{"email", p.email},
		{"company", pick(companies, i)},
		{"phone", fmt.Sprintf("+1-555-01%02d", i%100)},
		{"plan", pick([]string{"free", "team", "business", "enterprise"}, i)},
		{"status", pick([]string{"active", "locked", "active", "churned"}, i)},
	}, "customer", i)
}

func account(i int) record {
	return withInternals(record{
		{"id", fmt.Sprintf("acc_%06d", 1+i)},
		{"name", pick(companies, i)},
		{"industry", pick([]string{"logistics", "manufacturing", "software", "healthcare", "retail", "food"}, i)},
		{"owner", pick(people, i+2).name},
		{"annual_revenue", 250000 + 125000*(i%9)},
	}, "account", i)
}

func deal(i int) record {
	return withInternals(record{
		{"id", fmt.Sprintf("deal_%06d", 1+i)},
		{"name", fmt.Sprintf("%s renewal %d", pick(companies, i), 2026+i%2)},
		{"stage", pick(stages, i)},
		{"amount", 12000 + 3500*(i%13)},
		{"currency", "USD"},
		{"account_id", fmt.Sprintf("acc_%06d", 1+i%6)},
		{"close_date", baseTime.AddDate(0, 1+i%6, 0).Format(time.DateOnly)},
	}, "deal", i)
}

func activity(i int) record {
	return withInternals(record{
		{"id", fmt.Sprintf("act_%06d", 1+i)},
		{"type", pick([]string{"call", "email", "meeting", "note"}, i)},
		{"subject", pick(subjects, i+2)},
		{"contact_id", fmt.Sprintf("cus_%06d", 1+i%8)},
		{"duration_seconds", 60 * (3 + i%20)},
		{"outcome", pick([]string{"connected", "left_voicemail", "no_answer"}, i)},
	}, "activity", i)
}

func file(i int) record {
	name := fmt.Sprintf("%s-%04d.%s", pick([]string{"notes", "report", "invoice", "design"}, i), 1+i, pick([]string{"md", "csv", "pdf", "txt"}, i))
	return withInternals(record{
		{"path", "/srv/demo/docs/" + name},
		{"name", name},
		{"type", "file"},
		{"size_bytes", 512 + 7919*(i%37)},
		{"mime_type", pick([]string{"text/markdown", "text/csv", "application/pdf", "text/plain"}, i)},
		{"modified", baseTime.Add(time.Duration(i) * timeStep).Format(time.RFC3339)},
	}, "file", i)
}

func person(i int) record {
	p := pick(people, i)
	return withInternals(record{
		{"id", fmt.Sprintf("usr_%04d", 1+i)},
		{"name", p.name},
		{"email", p.email},
		{"role", pick([]string{"agent", "admin", "viewer"}, i)},
	}, "user", i)
}

func generic(i int) record {
	return withInternals(record{
		{"id", fmt.Sprintf("rec_%06d", 1+i)},
		{"name", fmt.Sprintf("Record %d", 1+i)},
		{"value", (i * 7919) % 1000},
	}, "record", i)
}
