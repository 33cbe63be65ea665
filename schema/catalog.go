package schema

import (
	"encoding/json"
	"errors"
	"fmt"
)

// NormalizeCatalog normalizes one server's whole tools/list in listing order.
// Tools past the MaxCatalogTools-th, every tool from the one whose bytes take
// the catalog past MaxCatalogBytes, a second tool with a name already seen,
// and each tool Normalize refuses are refused with a reason; the others are
// returned in listing order.
func NormalizeCatalog(server string, raws []json.RawMessage) (tools []*Tool, refused []Refusal) {
	seen := make(map[string]bool, len(raws))
	memo := detectMemo{}
	total := 0
	overBudget := false
	for i, raw := range raws {
		total += len(raw)
		switch {
		case i >= MaxCatalogTools:
			refused = append(refused, Refusal{Tool: guessName(raw), Reason: fmt.Sprintf("catalog lists %d tools, over the %d limit; tools past the %dth are not indexed", len(raws), MaxCatalogTools, MaxCatalogTools)})
			continue
		case overBudget || total > MaxCatalogBytes:
			overBudget = true
			refused = append(refused, Refusal{Tool: guessName(raw), Reason: fmt.Sprintf("catalog is over the %s limit from this tool on", sizeOf(MaxCatalogBytes))})
			continue
		}
		tool, err := normalize(server, raw, memo)
		if err != nil {
			refused = append(refused, refusalOf(raw, err))
			continue
		}
		if seen[tool.Record.Name] {
			refused = append(refused, Refusal{Tool: tool.Record.Name, Reason: "another tool in this catalog has the same name; the first one is kept"})
			continue
		}
		seen[tool.Record.Name] = true
		tools = append(tools, tool)
	}
	return tools, refused
}

func refusalOf(raw json.RawMessage, err error) Refusal {
	var re *RefusalError
	if errors.As(err, &re) {
		return Refusal{Tool: re.Tool, Reason: re.Reason}
	}
	return Refusal{Tool: guessName(raw), Reason: err.Error()}
}
