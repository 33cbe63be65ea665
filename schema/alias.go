package schema

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// clearName is the shape of a provider property name that a card may show
// as it is (DESIGN.md, Aliases).
var clearName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// assignAliases decides the name a card shows for each top-level provider
// property. A name stays when it is clear and no sibling has the same name
// case-insensitively; every other name gets param_01, param_02... in
// bytewise order of the provider names, skipping any alias that would equal a
// kept or provider name case-insensitively. It returns provider -> shown
// name for every property and alias -> provider for aliased ones. A name
// hide reports (one the detector flagged) always gets an alias; hide may be
// nil.
func assignAliases(names []string, hide func(string) bool) (shown map[string]string, aliases map[string]string) {
	folded := make(map[string]int, len(names))
	for _, name := range names {
		folded[strings.ToLower(name)]++
	}
	shown = make(map[string]string, len(names))
	var needAlias []string
	for _, name := range names {
		if clearName.MatchString(name) && folded[strings.ToLower(name)] == 1 && (hide == nil || !hide(name)) {
			shown[name] = name
			continue
		}
		needAlias = append(needAlias, name)
	}
	if len(needAlias) == 0 {
		return shown, nil
	}
	slices.Sort(needAlias)
	needAlias = slices.Compact(needAlias)
	aliases = make(map[string]string, len(needAlias))
	next := 1
	for _, name := range needAlias {
		alias := fmt.Sprintf("param_%02d", next)
		for folded[strings.ToLower(alias)] > 0 {
			next++
			alias = fmt.Sprintf("param_%02d", next)
		}
		next++
		shown[name] = alias
		aliases[alias] = name
	}
	return shown, aliases
}

// aliasForm is the shape of the names assignAliases gives.
var aliasForm = regexp.MustCompile(`^param_[0-9]{2,}$`)

// AliasLabel returns the provider name an aliased card input's
// description starts with ("cc-emails" for param_01 described as
// "cc-emails: Addresses to copy."), or "" for an input shown under its
// own name. A card shrunk to fit keeps at least this much of such a
// description: without it, param_01 says nothing of what it is.
func AliasLabel(in Input) string {
	if !aliasForm.MatchString(in.Name) {
		return ""
	}
	label, _, _ := strings.Cut(in.Description, ": ")
	if utf8.RuneCountInString(label) > MaxNameChars {
		return "" // longer than any label projectInput writes
	}
	return label
}

// ArgError is a problem with one top-level argument name, found while
// mapping alias-keyed arguments back to provider names.
type ArgError struct {
	Key     string // the argument name as given
	Message string // short, safe to show a model
}

func (e *ArgError) Error() string { return fmt.Sprintf("argument %q: %s", e.Key, e.Message) }

// ProviderArgs maps an alias-keyed argument object back to provider names.
// Only top-level names are mapped; nested values are left as they are. A
// name that is neither an alias nor a provider property is passed through
// unchanged so that validation judges it, except a name that equals a known
// one only case-insensitively ({"FIELD":1} for "field"), which is an
// *ArgError: no provider may read it as the other. Two names that map to
// the same provider name are an *ArgError too.
func (r *Record) ProviderArgs(args map[string]any) (map[string]any, error) {
	out, problems := r.mapArgs(args)
	if len(problems) > 0 {
		return nil, problems[0]
	}
	return out, nil
}

// mapArgs is ProviderArgs reporting every problem, in sorted key order.
func (r *Record) mapArgs(args map[string]any) (map[string]any, []*ArgError) {
	known := r.knownNames()
	keys := make([]string, 0, len(args))
	for key := range args {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	out := make(map[string]any, len(args))
	from := make(map[string]string, len(args))
	var problems []*ArgError
	for _, key := range keys {
		provider := key
		if name, ok := r.Aliases[key]; ok {
			provider = name
		} else if _, ok := known.exact[key]; !ok {
			if want, ok := known.folded[strings.ToLower(key)]; ok {
				problems = append(problems, &ArgError{Key: key, Message: fmt.Sprintf("unknown input; names are case-sensitive, did you mean %q?", want)})
				continue
			}
		}
		if earlier, ok := from[provider]; ok {
			problems = append(problems, &ArgError{Key: key, Message: fmt.Sprintf("names the same input as %q", earlier)})
			continue
		}
		from[provider] = key
		out[provider] = args[key]
	}
	return out, problems
}

type nameSet struct {
	exact  map[string]struct{} // aliases and provider names a caller may use
	folded map[string]string   // lower-cased name -> the name a card shows
}

func (r *Record) knownNames() nameSet {
	set := nameSet{exact: map[string]struct{}{}, folded: map[string]string{}}
	aliased := make(map[string]bool, len(r.Aliases))
	for alias, provider := range r.Aliases {
		set.exact[alias] = struct{}{}
		set.exact[provider] = struct{}{}
		set.folded[strings.ToLower(alias)] = alias
		aliased[provider] = true
	}
	for _, name := range r.Properties {
		set.exact[name] = struct{}{}
		if !aliased[name] {
			set.folded[strings.ToLower(name)] = name
		}
	}
	return set
}
