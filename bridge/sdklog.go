package bridge

import (
	"context"
	"log/slog"
)

// sdkLogger is the logger handed to the MCP SDK: its info messages ("server
// connecting", "session initialized", ...) narrate its own machinery, so
// only its warnings and errors reach capbridge's log; debug level lets
// everything through.
func sdkLogger(l *slog.Logger) *slog.Logger {
	return slog.New(quietHandler{l.Handler()})
}

// quietHandler drops info records unless the wrapped handler takes debug.
type quietHandler struct{ slog.Handler }

func (h quietHandler) Enabled(ctx context.Context, level slog.Level) bool {
	if level == slog.LevelInfo && !h.Handler.Enabled(ctx, slog.LevelDebug) {
		return false
	}
	return h.Handler.Enabled(ctx, level)
}

func (h quietHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.Handler.Handle(ctx, r)
}

func (h quietHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return quietHandler{h.Handler.WithAttrs(attrs)}
}

func (h quietHandler) WithGroup(name string) slog.Handler {
	return quietHandler{h.Handler.WithGroup(name)}
}
