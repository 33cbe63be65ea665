package config

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// secretWords are the name parts that make an env variable or a header
// read as holding a secret; see secretwords.txt for their source.
//
//go:embed secretwords.txt
var secretWordsFile string

// LiteralSecret is a value written as it is (no ${VAR}, no
// ${secret:NAME}) in a server entry's env or headers whose name reads as a
// secret's: an API key sitting in the config file.
type LiteralSecret struct {
	Server string
	Field  string // "env" or "headers"
	Key    string // the variable or header name
	Name   string // the secret name it would be kept under
}

// minSecretLen is the shortest value offered to move: shorter values are
// settings ("true", "us-east") more often than keys.
const minSecretLen = 8

// LiteralSecrets finds the literal secrets of servers in the file.
func (d *Doc) LiteralSecrets(servers []string) []LiteralSecret {
	words := secretWordSet()
	var out []LiteralSecret
	for _, name := range servers {
		def, ok := d.servers.values[name]
		if !ok {
			continue
		}
		var entry struct {
			Env     map[string]string `json:"env"`
			Headers map[string]string `json:"headers"`
		}
		if json.Unmarshal(def, &entry) != nil {
			continue
		}
		for _, f := range []struct {
			field string
			m     map[string]string
		}{{"env", entry.Env}, {"headers", entry.Headers}} {
			for _, k := range sortedKeys(f.m) {
				v := f.m[k]
				if strings.Contains(v, "${") || len(v) < minSecretLen || !secretName(k, words) {
					continue
				}
				out = append(out, LiteralSecret{Server: name, Field: f.field, Key: k, Name: secretNameFor(name, k)})
			}
		}
	}
	return out
}

// MoveSecret keeps ls's value in store and writes ${secret:NAME} in its
// place. A header such as "Authorization: Bearer abc" keeps its scheme
// word in the file: only the credential moves.
func (d *Doc) MoveSecret(ls LiteralSecret, store *SecretStore) error {
	def, ok := d.servers.values[ls.Server]
	if !ok {
		return fmt.Errorf("moving %s.%s of %q: %w", ls.Field, ls.Key, ls.Server, ErrUnknownServer)
	}
	entry, err := decodeOrderedObject(def)
	if err != nil {
		return fmt.Errorf("moving %s.%s of %q: %w", ls.Field, ls.Key, ls.Server, err)
	}
	fields, err := decodeOrderedObject(entry.values[ls.Field])
	if err != nil {
		return fmt.Errorf("moving %s.%s of %q: %w", ls.Field, ls.Key, ls.Server, err)
	}
	var value string
	if err := json.Unmarshal(fields.values[ls.Key], &value); err != nil {
		return fmt.Errorf("moving %s.%s of %q: not a string", ls.Field, ls.Key, ls.Server)
	}
	prefix, secret := "", value
	if scheme, rest, ok := strings.Cut(value, " "); ok && ls.Field == "headers" && isAuthScheme(scheme) {
		prefix, secret = scheme+" ", rest
	}
	if err := store.Set(UserSecretPrefix+ls.Name, secret); err != nil {
		return err
	}
	ref, _ := json.Marshal(prefix + "${secret:" + ls.Name + "}")
	fields.set(ls.Key, ref)
	raw, err := fields.marshal()
	if err != nil {
		return err
	}
	entry.set(ls.Field, raw)
	if raw, err = entry.marshal(); err != nil {
		return err
	}
	d.servers.set(ls.Server, raw)
	return nil
}

func isAuthScheme(s string) bool {
	switch strings.ToLower(s) {
	case "bearer", "basic", "token", "bot", "apikey":
		return true
	}
	return false
}

func secretWordSet() map[string]bool {
	words := map[string]bool{}
	for _, line := range strings.Split(secretWordsFile, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			words[line] = true
		}
	}
	return words
}

var nameParts = regexp.MustCompile(`[A-Z]?[a-z0-9]+|[A-Z0-9]+`)

// secretName reports whether an env or header name reads as a secret's.
func secretName(name string, words map[string]bool) bool {
	lower := strings.ToLower(name)
	for _, part := range nameParts.FindAllString(strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(name), -1) {
		if words[strings.ToLower(part)] {
			return true
		}
	}
	for w := range words {
		if len(w) >= 5 && strings.HasSuffix(lower, w) {
			return true
		}
	}
	return false
}

// secretNameFor is the secret name a moved value gets: server-key, lower
// case, with characters ${secret:NAME} cannot hold replaced.
func secretNameFor(server, key string) string {
	n := strings.ToLower(server + "-" + key)
	return strings.Map(func(r rune) rune {
		if r == '}' || r == '$' || r == '{' || r == ' ' || r == ':' {
			return '-'
		}
		return r
	}, n)
}
