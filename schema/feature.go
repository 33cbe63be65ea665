package schema

import (
	"encoding/json"
	"fmt"
)

// Kinds of what a server offers beside its tools.
const (
	KindPrompt   = "prompt"   // prompts/list: keyed by name
	KindResource = "resource" // resources/list: keyed by uri
	KindTemplate = "template" // resources/templates/list: keyed by uriTemplate
)

// MaxFeatureBytes bounds one prompt, resource or resource template as a
// server lists it. A definition past it is refused alone, as an input
// schema past [MaxSchemaBytes] is.
const MaxFeatureBytes = 64 << 10

// Feature is one prompt, resource or resource template as a server listed
// it, checked as tools are: its canonical JSON, the hash that pins it, and
// what the poisoning detector found in the texts a client shows of it.
type Feature struct {
	Kind string
	// Key is what the kind is addressed by, exactly as the server gave it:
	// a prompt's name, a resource's uri, a template's uriTemplate.
	Key string
	// Definition is the whole object as listed, in canonical JSON (members
	// sorted, numbers as written): two listings of the same object have
	// the same Definition whatever their key order or spacing.
	Definition []byte
	Hash       string // SHA-256 of Definition, hex
	Flags      []Flag // the detector's findings; nil when none
}

// featureKeys names each kind's key member.
var featureKeys = map[string]string{KindPrompt: "name", KindResource: "uri", KindTemplate: "uriTemplate"}

// NormalizeFeature checks one prompt, resource or resource template (kind
// is one of the Kind constants) as its list method sent it. A definition
// over [MaxFeatureBytes], one that is not a JSON object, that has no key,
// or whose texts are not strings is refused with a *RefusalError naming
// the key. Every text a client shows (name, title, description, uri,
// uriTemplate, each prompt argument's name, title and description) goes
// through the same detector as a tool's: its findings are the Feature's
// Flags, which hold it as they hold a tool.
func NormalizeFeature(kind string, raw json.RawMessage) (*Feature, error) {
	keyName, ok := featureKeys[kind]
	if !ok {
		return nil, fmt.Errorf("schema.NormalizeFeature: unknown kind %q", kind)
	}
	if len(raw) > MaxFeatureBytes {
		return nil, &RefusalError{Tool: guessMember(raw, keyName), Reason: fmt.Sprintf("%s definition is %d bytes, over the %s limit", kind, len(raw), sizeOf(MaxFeatureBytes))}
	}
	n, err := parseTree(raw, maxTreeDepth)
	if err != nil {
		return nil, &RefusalError{Tool: guessMember(raw, keyName), Reason: kind + " definition " + parseReason(err)}
	}
	if n.kind != kindObject {
		return nil, &RefusalError{Reason: kind + " definition is not a JSON object"}
	}
	key := n.get(keyName)
	if key == nil || key.kind != kindString || key.text == "" {
		return nil, &RefusalError{Reason: fmt.Sprintf("%s has no %s", kind, keyName)}
	}
	for _, field := range []string{"name", "title", "description", "mimeType"} {
		if v := n.get(field); v != nil && v.kind != kindString && v.kind != kindNull {
			return nil, &RefusalError{Tool: key.text, Reason: field + " is not a string"}
		}
	}
	sc := &toolScan{d: poison()}
	sc.name("name", n.get("name").str())
	sc.text("title", bounded(n.get("title").str()))
	sc.text("description", bounded(n.get("description").str()))
	if kind != KindPrompt {
		sc.name(keyName, bounded(key.text))
	}
	if args := n.get("arguments"); kind == KindPrompt && args != nil {
		if args.kind != kindArray && args.kind != kindNull {
			return nil, &RefusalError{Tool: key.text, Reason: "arguments are not an array"}
		}
		for i, a := range args.vals {
			field := fmt.Sprintf("arguments.%d", i)
			sc.name(field+".name", a.get("name").str())
			sc.text(field+".title", bounded(a.get("title").str()))
			sc.text(field+".description", bounded(a.get("description").str()))
		}
	}
	def := n.appendCanonical(nil)
	return &Feature{Kind: kind, Key: key.text, Definition: def, Hash: Hash(def), Flags: flagsOf(sc.found)}, nil
}

// guessMember reads one string member of a definition that failed to
// parse whole, for its refusal; "" when it cannot.
func guessMember(raw json.RawMessage, member string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[member], &s) != nil {
		return ""
	}
	return s
}
