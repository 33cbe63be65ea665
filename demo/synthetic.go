package demo

import (
	"encoding/json"
	"fmt"
	"strings"
)

// syntheticParams is how many inputs each synthetic tool has.
const syntheticParams = 10

// syntheticTools makes n distinct, deterministic tools of about 3.15 KB each
// (5,000 of them make about 15.7 MB, just under 16 MiB), for the big-catalog fault.
func syntheticTools(n int) []json.RawMessage {
	verbs := []string{"list", "get", "create", "update", "delete", "sync", "export", "archive", "restore", "approve"}
	nouns := []string{"invoice", "shipment", "sensor", "build", "policy", "asset", "order", "report", "alert", "workspace", "token", "dataset"}
	areas := []string{"billing", "logistics", "iot", "ci", "security", "inventory", "sales", "analytics", "ops", "admin"}
	tools := make([]json.RawMessage, n)
	for i := range tools {
		verb, noun, area := pick(verbs, i), pick(nouns, i/len(verbs)), pick(areas, i/(len(verbs)*len(nouns)))
		props := make(record, 0, syntheticParams)
		for p := range syntheticParams {
			props = append(props, field{fmt.Sprintf("%s_field_%02d", noun, p+1), record{
				{"type", pick([]string{"string", "integer", "boolean", "string"}, p)},
				{"description", fmt.Sprintf("Field %d of the %s %s in the %s area. %s", p+1, noun, pick([]string{"filter", "value", "option", "selector"}, p), area,
					strings.Repeat(fmt.Sprintf("Describes how the %s service treats this input when you %s a %s. ", area, verb, noun), 2))},
			}})
		}
		tool := record{
			{"name", fmt.Sprintf("%s_%s_%s_%05d", area, verb, noun, i+1)},
			{"description", fmt.Sprintf("%s a %s in the %s service (synthetic tool %d of %d). ", strings.ToUpper(verb[:1])+verb[1:], noun, area, i+1, n) +
				strings.Repeat(fmt.Sprintf("Use it to %s %s records for %s workflows; it accepts filters and returns JSON. ", verb, noun, area), 3)},
			{"inputSchema", record{{"type", "object"}, {"properties", props}, {"required", []string{fmt.Sprintf("%s_field_01", noun)}}}},
			{"annotations", record{{"readOnlyHint", verb == "list" || verb == "get"}, {"destructiveHint", verb == "delete"}}},
		}
		raw, err := marshal(tool)
		if err != nil {
			panic(fmt.Sprintf("synthetic tool %d: %v", i, err)) // records of strings always marshal
		}
		tools[i] = raw
	}
	return tools
}
