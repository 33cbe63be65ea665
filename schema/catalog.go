package schema

import (
	"encoding/json"
	"errors"
	"fmt"
)

// NormalizeCatalog normalizes one server's whole tools/list in listing order.
// Tools past the MaxCatalogTools-th, every tool from the one whose bytes take
// the catalog past MaxCatalogBytes, a second tool with a name already seen,
// and each tool Normalize refuses are refused with a reason and returned;
// every other tool is handed to keep, with its index in raws, as soon as it
// is made. Normalized tools weigh about three times their raw bytes (51 MB
// for a 16 MB listing of 5,000 tools): a caller that turns each into
// something smaller holds one catalog at a time. raws[i] is not read again
// after keep(i, ...).
func NormalizeCatalog(server string, raws []json.RawMessage, keep func(i int, t *Tool)) (refused []Refusal) {
	seen := make(map[string]bool, len(raws))
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
		tool, err := Normalize(server, raw)
		if err != nil {
			refused = append(refused, refusalOf(raw, err))
			continue
		}
		if seen[tool.Record.Name] {
			refused = append(refused, Refusal{Tool: tool.Record.Name, Reason: "another tool in this catalog has the same name; the first one is kept"})
			continue
		}
		seen[tool.Record.Name] = true
		keep(i, tool)
	}
	return refused
}

func refusalOf(raw json.RawMessage, err error) Refusal {
	var re *RefusalError
	if errors.As(err, &re) {
		return Refusal{Tool: re.Tool, Reason: re.Reason}
	}
	return Refusal{Tool: guessName(raw), Reason: err.Error()}
}
