package bridge

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
	"github.com/yosida95/uritemplate/v3"
)

// What the bridge offers its clients beside the two tools: the prompts,
// resources and resource templates of the configured servers, listed from
// the catalog. A name or URI stays as its server gave it when no other
// server in scope has the same one; on a collision every holder of it is
// offered under a server prefix, and its title says which server it comes
// from:
//
//   - a prompt "NAME" of server S becomes "S__NAME" (the "__" Claude Code
//     puts between a server and its tools);
//   - a resource "URI" or template "TEMPLATE" of server S becomes
//     "capbridge://S/URI" (S path-escaped), which is still a URI, and a
//     template still a template.
//
// The map back to the server's own name or URI is kept beside each
// offered one, and is exact: a read of a prefixed URI sends the server its
// own URI, and a result naming that URI names the prefixed one again.

// promptSeparator joins a server and a prompt name on a collision.
const promptSeparator = "__"

// uriPrefixScheme starts a prefixed resource URI or template.
const uriPrefixScheme = "capbridge://"

// offered is one prompt, resource or template as the bridge offers it.
type offered struct {
	kind   string // schema.KindPrompt, KindResource or KindTemplate
	key    string // the name, URI or template clients see
	server string
	orig   string          // the key as the server gave it
	def    json.RawMessage // the definition clients get (key and title rewritten on a collision)
	hash   string          // the stored definition's hash

	once sync.Once      // compiles re, for a template
	re   *regexp.Regexp // what a template's expansions match; nil when not compiled or not a template
}

// prefixed reports whether the offered key differs from the server's.
func (o *offered) prefixed() bool { return o.key != o.orig }

// offering is every offered prompt, resource and template, by kind and
// offered key.
type offering struct {
	byKey map[string]map[string]*offered // kind -> offered key -> offered
	// left says what could not be offered (a prefixed key that is taken,
	// a URI the SDK cannot serve), for the log.
	left []string
}

// heldKey names a held pin: its server and pin name (see featurePin).
type heldKey struct{ server, pin string }

func (o *offering) get(kind, key string) *offered {
	if o == nil {
		return nil
	}
	return o.byKey[kind][key]
}

// newOffering builds the offering from stored features; those of servers
// out of scope and those held (by server and pin name, see featurePin) are
// left out.
func newOffering(features []store.Feature, inScope func(server string) bool, held map[heldKey]bool) *offering {
	o := &offering{byKey: map[string]map[string]*offered{}}
	byKind := map[string][]store.Feature{}
	for _, f := range features {
		if !inScope(f.Server) || held[heldKey{f.Server, featurePin(f.Kind, f.Key)}] {
			continue
		}
		byKind[f.Kind] = append(byKind[f.Kind], f)
	}
	for _, kind := range []string{schema.KindPrompt, schema.KindResource, schema.KindTemplate} {
		fs := byKind[kind]
		holders := map[string]int{}
		for _, f := range fs {
			holders[f.Key]++
		}
		keys := map[string]*offered{}
		// Unprefixed ones first: a prefixed key that happens to equal
		// another server's own key leaves the prefixed one out.
		slices.SortStableFunc(fs, func(a, b store.Feature) int {
			pa, pb := holders[a.Key] > 1, holders[b.Key] > 1
			switch {
			case pa == pb:
				return 0
			case pa:
				return 1
			}
			return -1
		})
		for _, f := range fs {
			of := &offered{kind: kind, key: f.Key, server: f.Server, orig: f.Key, def: f.Definition, hash: f.Hash}
			if holders[f.Key] > 1 {
				of.key = prefixKey(kind, f.Server, f.Key)
				def, err := relabel(kind, of.key, f.Server, f.Definition)
				if err != nil {
					o.left = append(o.left, fmt.Sprintf("%s %q of %s: %v", kind, f.Key, f.Server, err))
					continue
				}
				of.def = def
			}
			if reason := servable(kind, of.key); reason != "" {
				o.left = append(o.left, fmt.Sprintf("%s %q of %s: %s", kind, of.key, f.Server, reason))
				continue
			}
			if _, taken := keys[of.key]; taken {
				o.left = append(o.left, fmt.Sprintf("%s %q of %s: another server's %s is offered under that name", kind, of.key, f.Server, kind))
				continue
			}
			keys[of.key] = of
		}
		o.byKey[kind] = keys
	}
	return o
}

// featurePin is the name a feature's pin is kept under, beside its server's
// tools' pins: "prompt:NAME", "resource:URI", "template:TEMPLATE". It is
// what `capbridge approve SERVER/prompt:NAME` names.
func featurePin(kind, key string) string { return kind + ":" + key }

// prefixKey is key of server as offered on a collision.
func prefixKey(kind, server, key string) string {
	if kind == schema.KindPrompt {
		return server + promptSeparator + key
	}
	return uriPrefixScheme + url.PathEscape(server) + "/" + key
}

// unprefixURI returns the server's own URI of a URI offered with server's
// prefix, and whether uri carried it.
func unprefixURI(server, uri string) (string, bool) {
	return strings.CutPrefix(uri, uriPrefixScheme+url.PathEscape(server)+"/")
}

// relabel returns def with its key member set to key and a title that says
// which server it comes from.
func relabel(kind, key, server string, def []byte) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(def, &m); err != nil {
		return nil, fmt.Errorf("reading its definition: %w", err)
	}
	member := map[string]string{schema.KindPrompt: "name", schema.KindResource: "uri", schema.KindTemplate: "uriTemplate"}[kind]
	var title string
	if json.Unmarshal(m["title"], &title) != nil || title == "" {
		_ = json.Unmarshal(m["name"], &title)
	}
	m[member], _ = json.Marshal(key)
	m["title"], _ = json.Marshal(fmt.Sprintf("%s (from %s)", title, server))
	return json.Marshal(m)
}

// servable says why go-sdk could not offer key, or "": a resource URI must
// parse as a URL and a template as an RFC 6570 template (AddResource and
// AddResourceTemplate panic on those).
func servable(kind, key string) string {
	switch kind {
	case schema.KindResource:
		if _, err := url.Parse(key); err != nil {
			return "not a URI go-sdk can serve: " + err.Error()
		}
	case schema.KindTemplate:
		if _, err := uritemplate.New(key); err != nil {
			return "not a URI template go-sdk can serve: " + err.Error()
		}
	}
	return ""
}
