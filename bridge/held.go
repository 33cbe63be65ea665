package bridge

import (
	"context"
	"fmt"

	"github.com/capbridge/capbridge/search"
)

// heldSet names the tools held until the user approves them
// (`capbridge approve`): neither discoverable nor runnable.
type heldSet map[toolKey]bool

// heldTools reads the held tools from the store. Another process
// (`capbridge approve`, `capbridge index`) may change them at any time,
// so they are read for every discovery: an index of held pins, usually
// empty.
func (b *Server) heldTools(ctx context.Context) (heldSet, error) {
	held, err := b.st.Held(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading held tools: %w", err)
	}
	set := make(heldSet, len(held))
	for _, h := range held {
		set[toolKey{h.Server, h.Tool}] = true
	}
	return set, nil
}

// leaveOut drops the held tools from ranked results and counts them: the
// discovery says how many it left out, never what they are.
func (h heldSet) leaveOut(results []search.Result) ([]search.Result, int) {
	if len(h) == 0 {
		return results, 0
	}
	kept := results[:0:0]
	n := 0
	for _, r := range results {
		if h[toolKey{r.Tool.Server, r.Tool.Name}] {
			n++
			continue
		}
		kept = append(kept, r)
	}
	return kept, n
}

// heldNote is the one line a discovery adds when it left held tools out.
func heldNote(n int) string {
	if n == 1 {
		return "1 tool held for review: run capbridge servers"
	}
	return fmt.Sprintf("%d tools held for review: run capbridge servers", n)
}

// msgHeld answers a run of a held tool whose card was made from the
// definition it is listed with now (held since, by an approval taken back
// or a stricter rule): the model may not run it, and cannot release it.
const msgHeld = "This tool is held until the user reviews it (capbridge servers) and approves it. It cannot be run now."

// held reports whether the tool of act is held. A tool with no pin (a
// catalog stored without pinning) is not.
func (b *Server) held(ctx context.Context, act action) (bool, error) {
	held, err := b.st.IsHeld(ctx, act.server, act.tool)
	if err != nil {
		b.logger.Warn("reading a tool's pin before a run failed; not running it", "server", act.server, "tool", act.tool, "err", err)
	}
	return held, err
}

// changedMessage answers schema_changed for an action whose tool's
// definition is not the one its card was made from: what changed, from
// the tool's pin, and whether the change waits for the user.
func (b *Server) changedMessage(ctx context.Context, act action) string {
	p, err := b.st.Pin(ctx, act.server, act.tool)
	if err != nil || len(p.Changed) == 0 {
		return msgSchemaChanged
	}
	msg := fmt.Sprintf("The tool's definition changed since this card was made (%s).", changedFields(p.Changed))
	if p.Held {
		return msg + " The change waits for the user's review (capbridge servers), so the tool cannot be run until the user approves it."
	}
	return msg + " Call discover_capability again for the current card."
}
