package bridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/search"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Errors of [Server.Action]; a tool that is not stored is an error
// wrapping store.ErrNotFound.
var (
	// ErrOutOfScope: no discovery offers the tool: its server is not
	// configured (or its entry is left out as invalid), is disabled, or its
	// tools.allow/deny lets the tool through no more.
	ErrOutOfScope = errors.New("not offered: its server is not configured or is disabled, or tools.allow/deny leaves the tool out")
	// ErrHeld: the tool is held until the user reviews and approves it, or
	// its stored row disagrees with its pin; no discovery offers it.
	ErrHeld = errors.New("held for review")
)

// Action issues an action id for the stored tool server/tool to the client
// session ss, as a discovery does when it shows that tool's card: the
// caller then runs it with run_capability on ss, the model's path
// (validation against the stored schema, aliases, the upstream call,
// shaping, telemetry). It is for a caller that names the tool it wants
// instead of discovering it (capbridge call), and it refuses what no
// discovery would offer: a tool out of scope ([ErrOutOfScope]), held
// ([ErrHeld]), or not stored or refused by the limits (store.ErrNotFound).
func (b *Server) Action(ctx context.Context, ss *mcp.ServerSession, server, tool string) (string, error) {
	cfg := b.config()
	if !Scope(cfg)(server, tool) {
		return "", fmt.Errorf("%s/%s: %w", server, tool, ErrOutOfScope)
	}
	t, err := b.st.Tool(ctx, server, tool)
	if err != nil {
		return "", err
	}
	act := action{server: t.Server, tool: t.Name, hash: t.Hash}
	held, err := b.held(ctx, act)
	if err != nil {
		return "", fmt.Errorf("%s/%s: reading its pin: %w", server, tool, err)
	}
	if kept, _ := b.recheck(ctx, []search.Result{{Tool: *t}}, cfg.Bridge.Suspicious != config.SuspiciousStrip); held || len(kept) == 0 {
		return "", fmt.Errorf("%s/%s: %w", server, tool, ErrHeld)
	}
	id, err := b.handles.issue(sessionKey(ss), act)
	if err != nil {
		return "", fmt.Errorf("%s/%s: %w", server, tool, err)
	}
	return id, nil
}
