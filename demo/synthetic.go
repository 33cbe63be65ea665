package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// syntheticParams is how many inputs each synthetic tool has.
const syntheticParams = 10

// syntheticTools makes n distinct, deterministic tools of about 3.15 KB each
// (5,000 of them make about 15.7 MB, just under 16 MiB), for the big-catalog
// fault. Every string is plain ASCII, so the JSON is written directly.
func syntheticTools(n int) []json.RawMessage {
	verbs := []string{"list", "get", "create", "update", "delete", "sync", "export", "archive", "restore", "approve"}
	nouns := []string{"invoice", "shipment", "sensor", "build", "policy", "asset", "order", "report", "alert", "workspace", "token", "dataset"}
	areas := []string{"billing", "logistics", "iot", "ci", "security", "inventory", "sales", "analytics", "ops", "admin"}
	types := []string{"string", "integer", "boolean", "string"}
	roles := []string{"filter", "value", "option", "selector"}
	tools := make([]json.RawMessage, n)
	var b bytes.Buffer
	for i := range tools {
		verb, noun, area := pick(verbs, i), pick(nouns, i/len(verbs)), pick(areas, i/(len(verbs)*len(nouns)))
		b.Reset()
		fmt.Fprintf(&b, `{"name":"%s_%s_%s_%05d","description":"%s a %s in the %s service (synthetic tool %d of %d). %s",`,
			area, verb, noun, i+1, strings.ToUpper(verb[:1])+verb[1:], noun, area, i+1, n,
			strings.Repeat(fmt.Sprintf("Use it to %s %s records for %s workflows; it accepts filters and returns JSON. ", verb, noun, area), 3))
		b.WriteString(`"inputSchema":{"type":"object","properties":{`)
		usage := strings.Repeat(fmt.Sprintf("Describes how the %s service treats this input when you %s a %s. ", area, verb, noun), 2)
		for p := range syntheticParams {
			if p > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%s_field_%02d":{"type":"%s","description":"Field %d of the %s %s in the %s area. %s"}`,
				noun, p+1, pick(types, p), p+1, noun, pick(roles, p), area, usage)
		}
		fmt.Fprintf(&b, `},"required":["%s_field_01"]},"annotations":{"readOnlyHint":%t,"destructiveHint":%t}}`,
			noun, verb == "list" || verb == "get", verb == "delete")
		tools[i] = bytes.Clone(b.Bytes())
	}
	return tools
}
