package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// clientKeys are keys the clients whose files capbridge reads keep beside
// their servers (VS Code's input prompts, Claude Desktop's preferences):
// not capbridge's, but no mistake either.
var clientKeys = map[string]bool{"inputs": true, "globalShortcut": true, "preferences": true}

// unknownKey is a key of the file that capbridge does not read.
type unknownKey struct {
	where   string // "" for the top level, else "bridge", "mcpServers.fs"...
	section string // for a server entry: "mcpServers" or "servers"
	entry   string // for a server entry: its name
	key     string
	near    string // the nearest known key, or ""
}

// text says what is wrong with the key, for a message about its entry.
func (k unknownKey) text() string {
	t := fmt.Sprintf("unknown key %q", k.key)
	if k.near != "" {
		t += fmt.Sprintf(" (did you mean %q?)", k.near)
	}
	return t
}

// warning is the key's line among the config's warnings.
func (k unknownKey) warning() string {
	w := fmt.Sprintf("unknown key %q ignored", k.key)
	if k.near != "" {
		w += fmt.Sprintf(" (did you mean %q?)", k.near)
	}
	if k.where != "" {
		w = k.where + ": " + w
	}
	return w
}

// unknownKeys finds every key of the file that capbridge does not read,
// with the nearest key it does: a "mcpServer" typo must not read as an
// empty config. The known keys come from the file structs' json tags, so a
// new setting is known the moment it is added there.
func unknownKeys(data []byte) []unknownKey {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil // the typed decode reports the error
	}
	var found []unknownKey
	check := func(where string, obj json.RawMessage, of reflect.Type, extra map[string]bool) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		if json.Unmarshal(obj, &m) != nil {
			return nil
		}
		known := jsonKeys(of)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if known[k] || extra[k] {
				continue
			}
			found = append(found, unknownKey{where: where, key: k, near: nearestKey(k, known)})
		}
		return m
	}
	check("", data, reflect.TypeFor[configFile](), clientKeys)
	for _, section := range []string{"mcpServers", "servers"} {
		var entries map[string]json.RawMessage
		if json.Unmarshal(top[section], &entries) != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(entries)) {
			// VS Code's entries may carry keys of its own (envFile, dev...).
			n := len(found)
			e := check(section+"."+name, entries[name], reflect.TypeFor[serverFile](), nil)
			if e != nil {
				check(section+"."+name+".oauth", e["oauth"], reflect.TypeFor[oauthFile](), nil)
			}
			for i := n; i < len(found); i++ {
				found[i].section, found[i].entry = section, name
			}
		}
	}
	if b := check("bridge", top["bridge"], reflect.TypeFor[bridgeFile](), nil); b != nil {
		check("bridge.embeddings", b["embeddings"], reflect.TypeFor[embeddingsFile](), nil)
		check("bridge.http", b["http"], reflect.TypeFor[httpFile](), nil)
	}
	var outputs map[string]json.RawMessage
	if json.Unmarshal(top["output"], &outputs) == nil {
		for _, key := range slices.Sorted(maps.Keys(outputs)) {
			check("output."+key, outputs[key], reflect.TypeFor[outputFile](), nil)
		}
	}
	return found
}

// jsonKeys returns the json names of a struct type's fields.
func jsonKeys(t reflect.Type) map[string]bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	keys := map[string]bool{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

// nearestKey returns the known key nearest k, when one is close, or "".
func nearestKey(k string, known map[string]bool) string {
	best, bestD := "", 4
	for c := range known {
		if d := keyDistance(strings.ToLower(k), strings.ToLower(c)); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// keyDistance is the Levenshtein distance between a and b.
func keyDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// entryField turns a type error's field path, which encoding/json gives
// without map keys ("mcpServers.args"), into one that names the entry
// ("mcpServers.bad.args"), by decoding the section's entries one at a time.
func entryField(data []byte, typ *json.UnmarshalTypeError) string {
	section, rest, ok := strings.Cut(typ.Field, ".")
	var of reflect.Type
	if section == "output" { // server entries are decoded one at a time (entry.go)
		of = reflect.TypeFor[outputFile]()
	}
	if !ok || of == nil {
		return typ.Field
	}
	var top map[string]json.RawMessage
	var entries map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil || json.Unmarshal(top[section], &entries) != nil {
		return typ.Field
	}
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		v := reflect.New(of).Interface()
		var et *json.UnmarshalTypeError
		if err := json.NewDecoder(bytes.NewReader(entries[name])).Decode(v); errors.As(err, &et) && et.Field == rest {
			return section + "." + name + "." + rest
		}
	}
	return typ.Field
}
