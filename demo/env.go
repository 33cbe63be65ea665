package demo

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const envToolName = "demo_env"

// envTool is the catalog entry of demo_env, added by [Options.EnvTool].
const envTool = (`{"name":"demo_env","title":"Demo server environment",` +
	`"description":"Report the environment this demo server process was started with: the names of its environment variables, or the value of one variable. For checking what a client passes to the servers it starts.",` +
	`"inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"The variable whose value to report; without it, every variable's name is listed."}}},` +
	`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}`)

// env answers demo_env: {"names":[...]} sorted, or, when args name a
// variable, {"name":N,"set":bool,"value":V}.
func (s *server) env(args json.RawMessage, n int) (*mcp.CallToolResult, error) {
	var in struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return errorResult(fmt.Sprintf("arguments must be an object with an optional string \"name\": %v", err)), nil
	}
	if in.Name != "" {
		v, ok := os.LookupEnv(in.Name)
		return objectResult(record{{"name", in.Name}, {"set", ok}, {"value", v}, {"call_number", n}})
	}
	names := []string{}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return objectResult(record{{"names", names}, {"call_number", n}})
}
