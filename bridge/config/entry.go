package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// EntryError is a server entry that cannot be used as written: a value of
// the wrong type, no way to reach the server, a bad tool pattern. [Parse]
// leaves the entry out of [File.Servers] and keeps it in [File.Invalid];
// the other servers load, so one mistyped entry does not stop them.
type EntryError struct {
	Server string
	Err    error
	// Keys are the entry's keys capbridge does not read, each with the
	// nearest key it does (`unknown key "comand" (did you mean
	// "command"?)`): usually the reason the entry is wrong.
	Keys []string
}

func (e *EntryError) Error() string { return fmt.Sprintf("server %q: %s", e.Server, e.Reason()) }

func (e *EntryError) Unwrap() error { return e.Err }

// Reason is the error's text without the server's name: the entry's
// unknown keys first, as they are most often the cause, then what is wrong.
func (e *EntryError) Reason() string {
	return strings.Join(append(slices.Clone(e.Keys), e.Err.Error()), "; ")
}

// Warning is the entry's line among [File.Warnings].
func (e *EntryError) Warning() string {
	return fmt.Sprintf("server %q left out: %s", e.Server, e.Reason())
}

// parseServers checks each entry of a servers section on its own: the
// usable ones go to cfg.Servers, the others to cfg.Invalid with the unknown
// keys found in them taken out of keys (what is left are warnings).
// section is the section's key, data the whole file, for positions.
func parseServers(cfg *File, data []byte, section string, entries map[string]json.RawMessage, keys []unknownKey, x *expander) []unknownKey {
	for _, name := range sortedKeys(entries) {
		var f serverFile
		err := json.Unmarshal(entries[name], &f)
		if err != nil {
			err = entryPosition(data, section, name, err)
		}
		var s Server
		own := expander{}
		if err == nil {
			s, err = serverConfig(name, f, &own)
		}
		if err == nil {
			cfg.Servers[name] = s
			x.warnings = append(x.warnings, own.warnings...)
			continue
		}
		var ee *EntryError
		if !errors.As(err, &ee) {
			ee = &EntryError{Server: name, Err: err}
		}
		var rest []unknownKey
		for _, k := range keys {
			if k.section == section && k.entry == name {
				ee.Keys = append(ee.Keys, k.text())
			} else {
				rest = append(rest, k)
			}
		}
		keys = rest
		cfg.Invalid[name] = ee
	}
	return keys
}

// entryPosition rewrites a type error in the entry name of section to
// say where in data it is, as [positioned] does for the whole file.
func entryPosition(data []byte, section, name string, err error) error {
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) {
		return err
	}
	field := section + "." + name
	if typ.Field != "" {
		field += "." + typ.Field
	}
	msg := fmt.Sprintf("%q must be %s, not %s", field, jsonKind(typ.Type.String()), typ.Value)
	if start, ok := entryOffset(data, section, name); ok {
		line, col := lineCol(data, start+typ.Offset)
		return fmt.Errorf("line %d, column %d: %s", line, col, msg)
	}
	return errors.New(msg)
}

// entryOffset returns where the value of entry name of the top-level
// object section starts in data.
func entryOffset(data []byte, section, name string) (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if key != section {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return 0, false
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return 0, false
		}
		for dec.More() {
			entry, err := dec.Token()
			if err != nil {
				return 0, false
			}
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return 0, false
			}
			if entry == name {
				return dec.InputOffset() - int64(len(raw)), true
			}
		}
		return 0, false
	}
	return 0, false
}
