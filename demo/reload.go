package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// readHeads reads the heads of a catalog to serve: names must be present,
// and unique unless the listed-twice fault serves a hostile catalog as it
// is written (a call of a name listed twice reaches its last copy).
func readHeads(tools []json.RawMessage, f Fault) ([]toolHead, error) {
	if f.Mode != FaultListedTwice {
		return parseTools(tools)
	}
	heads := make([]toolHead, len(tools))
	for i, raw := range tools {
		if err := json.Unmarshal(raw, &heads[i]); err != nil {
			return nil, fmt.Errorf("reading tool %d: %w", i+1, err)
		}
		if heads[i].Name == "" {
			return nil, fmt.Errorf("tool %d has no name", i+1)
		}
	}
	return heads, nil
}

// follow serves each catalog that arrives on reload in place of the one
// served, until reload is closed: tools gone are removed, and every tool
// is registered again, which sends notifications/tools/list_changed to
// connected clients. A catalog that cannot be read is logged and skipped.
func (s *server) follow(reload <-chan []json.RawMessage) {
	for tools := range reload {
		heads, err := readHeads(tools, s.opts.Fault)
		if err != nil {
			s.opts.Logger.Error("reloaded catalog is unusable; serving the previous one", "err", err)
			continue
		}
		listed := make(map[string]bool, len(heads))
		for _, h := range heads {
			listed[h.Name] = true
		}
		s.mu.Lock()
		var gone []string
		for _, h := range s.heads {
			if !listed[h.Name] {
				gone = append(gone, h.Name)
			}
		}
		s.tools, s.heads = tools, heads
		s.mu.Unlock()
		if len(gone) > 0 {
			s.mcp.RemoveTools(gone...)
		}
		for _, h := range heads {
			s.register(h)
		}
		s.opts.Logger.Warn("catalog reloaded", "tools", len(tools), "removed", len(gone))
	}
}

// WatchFile reads a catalog with read whenever the file at path changes
// (its size or modification time, checked every interval) and sends what
// it read, for [Options.Reload] or [Options.FeaturesReload]. The channel is closed when ctx ends. A
// read that fails is skipped: the next change is read again.
func WatchFile[T any](ctx context.Context, path string, every time.Duration, read func() (T, error)) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		last, _ := os.Stat(path)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			fi, err := os.Stat(path)
			if err != nil || (last != nil && fi.Size() == last.Size() && fi.ModTime().Equal(last.ModTime())) {
				continue
			}
			tools, err := read()
			if err != nil {
				continue
			}
			last = fi
			select {
			case out <- tools:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
