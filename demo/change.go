package demo

import (
	"encoding/json"
	"fmt"
)

// changedProperty is the required input the schema-change fault adds.
const changedProperty = "change_ticket"

// changeSchema makes the first call's tool require one more input, the way
// a provider update would, and lets the SDK send
// notifications/tools/list_changed. It fires once per process.
func (s *server) changeSchema(tool string) {
	s.mu.Lock()
	if s.changed {
		s.mu.Unlock()
		return
	}
	s.changed = true
	i := s.find(tool)
	if i < 0 {
		s.mu.Unlock()
		return
	}
	raw, schema, err := withRequiredInput(s.tools[i], s.heads[i].InputSchema)
	if err != nil {
		s.mu.Unlock()
		s.opts.Logger.Error("schema-change fault could not change the schema", "tool", tool, "err", err)
		return
	}
	s.tools[i] = raw
	s.heads[i].InputSchema = schema
	h := s.heads[i]
	s.mu.Unlock()
	s.opts.Logger.Warn("input schema changed, as the fault asks", "tool", tool)
	s.register(h) // replacing the tool notifies list_changed
}

// find returns the index of the tool named name, or -1. s.mu must be held.
func (s *server) find(name string) int {
	for i, h := range s.heads {
		if h.Name == name {
			return i
		}
	}
	return -1
}

// withRequiredInput returns the tool and its input schema with
// [changedProperty] added as a required string.
func withRequiredInput(tool, inputSchema json.RawMessage) (json.RawMessage, json.RawMessage, error) {
	var schema map[string]any
	if err := json.Unmarshal(inputSchema, &schema); err != nil || schema == nil {
		return nil, nil, fmt.Errorf("input schema is not an object: %w", err)
	}
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	props[changedProperty] = map[string]any{
		"type":        "string",
		"description": "Change-management ticket approving this operation (required since the provider's last update).",
	}
	schema["properties"] = props
	required, _ := schema["required"].([]any)
	schema["required"] = append(required, changedProperty)
	newSchema, err := marshal(schema)
	if err != nil {
		return nil, nil, fmt.Errorf("writing the changed schema: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(tool, &fields); err != nil {
		return nil, nil, fmt.Errorf("reading the tool: %w", err)
	}
	fields["inputSchema"] = newSchema
	newTool, err := marshal(fields)
	if err != nil {
		return nil, nil, fmt.Errorf("writing the changed tool: %w", err)
	}
	return newTool, newSchema, nil
}
