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

// CatalogOptions configure [NormalizeCatalog]. A nil *CatalogOptions means
// none.
type CatalogOptions struct {
	// Neighbours are the other servers of the bridge's catalog: text of
	// this server's tools that names one of their tools, or tells how
	// they must be used, is flagged (see [Neighbours]). Nil when unknown.
	Neighbours *Neighbours
}

// NormalizeCatalog normalizes one server's whole tools/list in listing order.
// Tools past the MaxCatalogTools-th, every tool from the one whose bytes take
// the catalog past MaxCatalogBytes, and each tool Normalize refuses are
// refused with a reason and returned. A name listed more than once counts
// once when every copy has the same definition; when the copies differ (or
// one of them is refused), each distinct copy is refused with
// [ReasonListedTwice], or its own reason. Every other tool is handed to
// keep, with its index in raws, as soon as it is made.
//
// Normalized tools weigh about three times their raw bytes (51 MB for a
// 16 MB listing of 5,000 tools): a caller that turns each into something
// smaller holds one catalog at a time. So that no tool is handed over and
// then found listed twice, a first pass reads only the names: the few
// tools whose name more than one listed tool carries are normalized ahead
// to learn which names are listed twice with different definitions.
// raws[i] is not read again after keep(i, ...). opts may be nil.
func NormalizeCatalog(server string, raws []json.RawMessage, opts *CatalogOptions, keep func(i int, t *Tool)) (refused []Refusal) {
	var nb *Neighbours
	if opts != nil {
		nb = opts.Neighbours
	}
	memo := detectMemo{}
	var held map[string]bool
	shared, repeated := readListing(raws)
	if len(shared) > 0 {
		carries := func(raw json.RawMessage) bool {
			for _, name := range namesOf(raw) {
				if shared[name] {
					return true
				}
			}
			return false
		}
		_, twice := sweep(server, raws, memo, nb, repeated, carries, nil, nil)
		held = make(map[string]bool, len(twice))
		for _, name := range twice {
			held[name] = true
		}
	}
	refused, twice := sweep(server, raws, memo, nb, repeated, nil, held, keep)
	for _, name := range twice {
		refused = append(refused, Refusal{Tool: name, Reason: ReasonListedTwice})
	}
	return refused
}

// sweep applies NormalizeCatalog's rules in listing order to the raws pick
// selects (every one when pick is nil) and hands each tool it keeps to keep
// (when not nil) unless its name is held. It returns the refusals made on
// the way and, in listing order, the names of kept tools that are listed
// twice: another copy has a different definition or was refused.
func sweep(server string, raws []json.RawMessage, memo detectMemo, nb *Neighbours, repeated repeatedSentences, pick func(json.RawMessage) bool, held map[string]bool, keep func(int, *Tool)) (refused []Refusal, twice []string) {
	kept := make(map[string]string)        // name -> definition hash of the copy kept
	var order []string                     // kept names in listing order
	copies := make(map[string][]string)    // name -> definition hashes listed after the first
	refusedNames := make(map[string]bool)  // names of refused copies
	seenRefusals := make(map[Refusal]bool) // named refusals, counted once
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
		overBudget = overBudget || total > MaxCatalogBytes
		if pick != nil && !pick(raw) {
			continue
		}
		switch {
		case i >= MaxCatalogTools:
			refuse(Refusal{Tool: guessName(raw), Reason: fmt.Sprintf("catalog lists %d tools, over the %d limit; tools past the %dth are not indexed", len(raws), MaxCatalogTools, MaxCatalogTools)})
			continue
		case overBudget:
			refuse(Refusal{Tool: guessName(raw), Reason: fmt.Sprintf("catalog is over the %s limit from this tool on", sizeOf(MaxCatalogBytes))})
			continue
		}
		tool, err := normalize(server, raw, memo, nb, repeated)
		if err != nil {
			refuse(refusalOf(raw, err))
			continue
		}
		name, h := tool.Record.Name, tool.Record.Hash
		if first, ok := kept[name]; ok {
			if h != first && !slices.Contains(copies[name], h) {
				copies[name] = append(copies[name], h)
				refused = append(refused, Refusal{Tool: name, Reason: ReasonListedTwice})
			}
			continue // an identical copy counts once
		}
		kept[name] = h
		order = append(order, name)
		if keep != nil && !held[name] {
			keep(i, tool)
		}
	}
	for _, name := range order {
		if len(copies[name]) > 0 || refusedNames[name] {
			twice = append(twice, name)
		}
	}
	return refused, twice
}

// readListing is NormalizeCatalog's first pass: it returns the names more
// than one raw tool may carry, by any reading a refusal or a kept tool
// could take its name from, and the sentences most of the tools'
// descriptions repeat (see repeatedSentences).
func readListing(raws []json.RawMessage) (shared map[string]bool, repeated repeatedSentences) {
	carriers := make(map[string]int, len(raws))
	var sentences sentenceCounter
	for _, raw := range raws {
		tree := parsedTool(raw)
		for _, name := range namesIn(raw, tree) {
			carriers[name]++
			if carriers[name] == 2 {
				if shared == nil {
					shared = make(map[string]bool)
				}
				shared[name] = true
			}
		}
		sentences.add(tree.get("description").str())
	}
	return shared, sentences.repeated()
}

// parsedTool is raw's tree when raw is a JSON object within the
// limits, else nil.
func parsedTool(raw json.RawMessage) *node {
	if len(raw) > MaxCatalogBytes {
		return nil
	}
	tree, err := parseTree(raw, maxTreeDepth)
	if err != nil || tree.kind != kindObject {
		return nil
	}
	return tree
}

// namesOf returns the names a refusal or a tool made from raw may carry:
// the lenient guess and the name the tool's own parser reads, when they
// are not empty (once when they agree).
func namesOf(raw json.RawMessage) []string {
	return namesIn(raw, parsedTool(raw))
}

// namesIn is namesOf with raw's tree (see parsedTool) at hand.
func namesIn(raw json.RawMessage, tree *node) []string {
	guess := guessName(raw)
	parsed := tree.get("name").str()
	switch {
	case guess == parsed || parsed == "":
		if guess == "" {
			return nil
		}
		return []string{guess}
	case guess == "":
		return []string{parsed}
	}
	return []string{guess, parsed}
}

func refusalOf(raw json.RawMessage, err error) Refusal {
	var re *RefusalError
	if errors.As(err, &re) {
		return Refusal{Tool: re.Tool, Reason: re.Reason}
	}
	return Refusal{Tool: guessName(raw), Reason: err.Error()}
}
