package bridge

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestSDKLoggerQuietsInfo(t *testing.T) {
	tests := []struct {
		level    slog.Level
		wantInfo bool
	}{
		{slog.LevelDebug, true},
		{slog.LevelInfo, false},
		{slog.LevelWarn, false},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		l := sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tt.level})))
		l.Info("server connecting")
		l.Warn("session broke")
		if got := strings.Contains(buf.String(), "server connecting"); got != tt.wantInfo {
			t.Errorf("at %v: info logged %v, want %v", tt.level, got, tt.wantInfo)
		}
		if !strings.Contains(buf.String(), "session broke") {
			t.Errorf("at %v: a warning was dropped", tt.level)
		}
	}
}
