package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

// neighbourNames holds the tool names of every enabled server, as stored
// before an [Index] run and as listed during it: each server's catalog is
// read knowing the others' (see [schema.Neighbours]), which only the
// bridge knows.
type neighbourNames struct {
	mu    sync.Mutex
	names map[string][]string // guarded by mu; server -> tool names
}

// storedNeighbours reads the stored tool names of cfg's enabled servers.
func storedNeighbours(ctx context.Context, cfg *config.File, st *store.Store) (*neighbourNames, error) {
	stored, err := st.ToolNames(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog's tool names: %w", err)
	}
	nn := &neighbourNames{names: map[string][]string{}}
	for _, name := range cfg.Enabled() {
		if names, ok := stored[name]; ok {
			nn.names[name] = names
		}
	}
	return nn, nil
}

// listed records the tool names server lists now and returns its
// neighbours as known at this point.
func (nn *neighbourNames) listed(server string, raws []json.RawMessage) *schema.Neighbours {
	names := make([]string, 0, len(raws))
	for _, raw := range raws {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) == nil && t.Name != "" {
			names = append(names, t.Name)
		}
	}
	nn.mu.Lock()
	nn.names[server] = names
	nn.mu.Unlock()
	return nn.of(server)
}

// of returns server's neighbours as known now.
func (nn *neighbourNames) of(server string) *schema.Neighbours {
	nn.mu.Lock()
	defer nn.mu.Unlock()
	return schema.NewNeighbours(server, nn.names)
}
