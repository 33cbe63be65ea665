package bridge

// This file checks what a discovery is about to serve against what only
// the bridge itself writes. The catalog is a file that any process running
// as the user may edit: one set held=0 on a suspicious tool's pin and wrote
// the raw lure into its card's summary, and the next discovery served both.
// So a tool is served only when its stored row agrees with its pin, and a
// card that is not the one the store wrote (its bytes do not match the
// card_sum stored beside it) is sanitized again, by schema's sanitizer, as
// it is served, and logged. Cards that match are not: running the lure
// detector over every served card would load it into serve, 12 to 25 MiB
// of peak RSS over 5,000 tools (capbridge bench), past serve's 60 MiB
// target. These checks catch edits that leave the catalog inconsistent; a
// writer who rewrites every row consistently (card and sum, definition,
// flags, pin and approval together) is beyond them, and README says so.

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"sync"
	"unicode/utf8"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// recheck leaves out of results the tools whose stored row disagrees with
// their pin (see pinDisagrees), and counts them: a discovery adds them to
// the tools it says are held. suspiciousHolds is whether a tool whose
// record carries poisoning flags is held until approved
// (bridge.suspicious "hold").
func (b *Server) recheck(ctx context.Context, results []search.Result, suspiciousHolds bool) ([]search.Result, int) {
	kept := results[:0:0]
	left := 0
	for _, r := range results {
		if why := b.pinDisagrees(ctx, &r.Tool, suspiciousHolds); why != "" {
			b.logger.Warn("a stored tool disagrees with its pin (the catalog was changed outside capbridge?); not serving it until it is indexed or approved again",
				"server", r.Tool.Server, "tool", r.Tool.Name, "why", why)
			left++
			continue
		}
		kept = append(kept, r)
	}
	return kept, left
}

// pinDisagrees says why the stored tool t may not be served as it is, or
// "" when its row agrees with its pin. The pin rule (see pinRule) keeps
// these true of every pin it writes, so a pin that breaks one was not
// written by it:
//
//   - a pin that is not held has no listed change waiting and no reason
//     to hold, and the tool row is the pinned definition;
//   - a tool whose record carries poisoning flags, when they hold tools,
//     is held unless the user approved it;
//   - a tool with no pin (a catalog stored without pinning) carries no
//     flags that would hold it.
func (b *Server) pinDisagrees(ctx context.Context, t *store.Tool, suspiciousHolds bool) string {
	p, err := b.st.PinState(ctx, t.Server, t.Name)
	if err != nil {
		return "its pin could not be read: " + err.Error()
	}
	flagged := suspiciousHolds && suspicionOf(t) != ""
	switch {
	case !p.Found && flagged:
		return "its text is suspicious and it has no pin"
	case !p.Found:
		return ""
	case p.Held:
		return "its pin is held" // since the held tools were read
	case p.ListedHash != "":
		return "a change waits for approval, yet the pin is not held"
	case p.Reason != "":
		return "the pin has a reason to hold the tool, yet is not held"
	case t.Hash != p.Hash:
		return "the stored tool is not its pinned definition"
	case flagged && !p.Approved:
		return "its text is suspicious and was never approved, yet the pin is not held"
	}
	return ""
}

// servedCard sanitizes a stored card's text again with schema's sanitizer,
// as the card builder did when it made it: a card rewritten in the catalog
// loses its lure sentences, markup and invisible characters. A card the
// builder made comes out the same. An enum value sanitizing would change
// is dropped, as the builder drops it; a risk that is none of schema's
// four is unknown.
func servedCard(c schema.Card) schema.Card {
	c.Name = schema.SanitizeName(c.Name, schema.MaxNameChars)
	c.Provider = schema.SanitizeName(c.Provider, schema.MaxNameChars)
	c.Summary, _ = schema.Sanitize(c.Summary, schema.MaxProseChars)
	if c.Summary == "" {
		c.Summary = c.Name
	}
	c.Note, _ = schema.Sanitize(c.Note, schema.MaxProseChars)
	switch c.Risk {
	case schema.RiskReadOnly, schema.RiskWrite, schema.RiskDestructive, schema.RiskUnknown:
	default:
		c.Risk = schema.RiskUnknown
	}
	inputs := make([]schema.Input, 0, min(len(c.Inputs), schema.MaxCardInputs))
	for _, in := range c.Inputs[:min(len(c.Inputs), schema.MaxCardInputs)] {
		in.Name = schema.SanitizeName(in.Name, schema.MaxNameChars)
		in.Type = schema.SanitizeName(in.Type, schema.MaxNameChars)
		in.Description, _ = schema.Sanitize(in.Description, schema.MaxProseChars)
		var enum []string
		for _, v := range in.Enum {
			if clean, _ := schema.Sanitize(v, utf8.RuneCountInString(v)); clean == v {
				enum = append(enum, v)
			}
		}
		in.Enum = enum
		inputs = append(inputs, in)
	}
	if len(inputs) == 0 {
		inputs = nil
	}
	c.Inputs = inputs
	return c
}

// maxServedCards bounds the cards [servedCards] remembers: about 1 KB each.
const maxServedCards = 1024

// servedCards remembers the cards sanitized again for serving, by the
// SHA-256 of the stored card's bytes: sanitizing costs about 0.3 ms of CPU
// a card (the lure detector reads every sentence), paid once per edited
// card this way. The zero value is ready to use.
type servedCards struct {
	mu    sync.Mutex
	cards map[[sha256.Size]byte]schema.Card // guarded by mu; never changed once stored
	order [][sha256.Size]byte               // guarded by mu; oldest first
}

// card returns the card to serve for the stored card raw, decoded as c,
// whose sum the store kept as sum: c itself when raw is the card the
// store wrote, else servedCard(c), logged once per card. The card it
// returns may be shared: its slices must not be changed.
func (s *servedCards) card(raw []byte, c schema.Card, sum string, logger *slog.Logger, server, tool string) schema.Card {
	if sum != "" && store.CardSum(raw) == sum {
		return c
	}
	key := sha256.Sum256(raw)
	s.mu.Lock()
	served, ok := s.cards[key]
	s.mu.Unlock()
	if ok {
		return served
	}
	logger.Warn("a stored card is not the one the store wrote (the catalog was changed outside capbridge?); serving it sanitized again",
		"server", server, "tool", tool)
	served = servedCard(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cards == nil {
		s.cards = make(map[[sha256.Size]byte]schema.Card)
	}
	if _, ok := s.cards[key]; !ok {
		if len(s.order) == maxServedCards {
			delete(s.cards, s.order[0])
			s.order = s.order[1:]
		}
		s.cards[key] = served
		s.order = append(s.order, key)
	}
	return served
}
