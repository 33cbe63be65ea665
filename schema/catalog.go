package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// ReasonListedTwice is the refusal of every copy of a name a catalog
// lists with two or more different definitions: which one the server
// would run cannot be known, so neither is offered.
const ReasonListedTwice = "listed twice with different definitions"

// NormalizeCatalog normalizes one server's whole tools/list in listing order.
// Tools past the MaxCatalogTools-th, every tool from the one whose bytes take
// the catalog past MaxCatalogBytes, and each tool Normalize refuses are
// refused with a reason; the others are returned in listing order. A name
// listed more than once counts once when every copy has the same
// definition; when the copies differ (or one of them is refused), each
// distinct copy is refused with [ReasonListedTwice], or its own reason.
func NormalizeCatalog(server string, raws []json.RawMessage) (tools []*Tool, refused []Refusal) {
	kept := make(map[string]int, len(raws)) // name -> index in tools
	copies := make(map[string][]string)     // name -> definition hashes listed after the first
	refusedNames := make(map[string]bool)   // names of refused copies
	seenRefusals := make(map[Refusal]bool)  // named refusals, counted once
	memo := detectMemo{}
	total := 0
	overBudget := false
	refuse := func(r Refusal) {
		if r.Tool != "" {
			if seenRefusals[r] {
				return
			}
			seenRefusals[r] = true
			refusedNames[r.Tool] = true
		}
		refused = append(refused, r)
	}
	for i, raw := range raws {
		total += len(raw)
		switch {
		case i >= MaxCatalogTools:
			refuse(Refusal{Tool: guessName(raw), Reason: fmt.Sprintf("catalog lists %d tools, over the %d limit; tools past the %dth are not indexed", len(raws), MaxCatalogTools, MaxCatalogTools)})
			continue
		case overBudget || total > MaxCatalogBytes:
			overBudget = true
			refuse(Refusal{Tool: guessName(raw), Reason: fmt.Sprintf("catalog is over the %s limit from this tool on", sizeOf(MaxCatalogBytes))})
			continue
		}
		tool, err := normalize(server, raw, memo)
		if err != nil {
			refuse(refusalOf(raw, err))
			continue
		}
		name := tool.Record.Name
		if at, ok := kept[name]; ok {
			if h := tool.Record.Hash; h != tools[at].Record.Hash && !slices.Contains(copies[name], h) {
				copies[name] = append(copies[name], h)
				refused = append(refused, Refusal{Tool: name, Reason: ReasonListedTwice})
			}
			continue // an identical copy counts once
		}
		kept[name] = len(tools)
		tools = append(tools, tool)
	}
	conflicts := 0
	for name := range kept {
		if len(copies[name]) > 0 || refusedNames[name] {
			conflicts++
		}
	}
	if conflicts == 0 {
		return tools, refused
	}
	out := tools[:0]
	for _, t := range tools {
		if name := t.Record.Name; len(copies[name]) > 0 || refusedNames[name] {
			refused = append(refused, Refusal{Tool: name, Reason: ReasonListedTwice})
			continue
		}
		out = append(out, t)
	}
	return out, refused
}

func refusalOf(raw json.RawMessage, err error) Refusal {
	var re *RefusalError
	if errors.As(err, &re) {
		return Refusal{Tool: re.Tool, Reason: re.Reason}
	}
	return Refusal{Tool: guessName(raw), Reason: err.Error()}
}
