package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// secretFile is the private file secrets fall back to: JSON, mode 0600, in
// a folder of its own with mode 0700. Edits hold [Lock] on the folder and
// replace the file whole, so two processes cannot lose each other's write.
type secretFile struct {
	path string
}

type secretFileData struct {
	Secrets map[string]string `json:"secrets"`
}

func (f *secretFile) read() (map[string]string, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	var d secretFileData
	if err := json.Unmarshal(data, &d); err != nil {
		// The values are secret: say where, never what.
		return nil, fmt.Errorf("%s is not a capbridge secrets file (not JSON); move it aside", f.path)
	}
	if d.Secrets == nil {
		d.Secrets = map[string]string{}
	}
	return d.Secrets, nil
}

func (f *secretFile) get(name string) (string, error) {
	m, err := f.read()
	if err != nil {
		return "", err
	}
	v, ok := m[name]
	if !ok {
		return "", ErrNoSecret
	}
	return v, nil
}

func (f *secretFile) names() ([]string, error) {
	m, err := f.read()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

func (f *secretFile) set(name, value string) error {
	return f.edit(func(m map[string]string) bool {
		m[name] = value
		return true
	})
}

func (f *secretFile) del(name string) error {
	if _, err := os.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return f.edit(func(m map[string]string) bool {
		_, ok := m[name]
		delete(m, name)
		return ok
	})
}

// edit changes the file's map under the folder's lock; change reports
// whether there is anything to write.
func (f *secretFile) edit(change func(map[string]string) bool) error {
	dir := filepath.Dir(f.path)
	if err := privateDir(dir); err != nil {
		return err
	}
	unlock, err := Lock(f.path)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	if !change(m) {
		return nil
	}
	data, err := json.MarshalIndent(secretFileData{Secrets: m}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(f.path, append(data, '\n'), 0o600)
}

// privateDir makes dir, or narrows it, to mode 0700. The folder is
// capbridge's own (it holds nothing but the secrets file), so narrowing
// one a user widened is safe.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the secrets folder: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("making the secrets folder: %w", err)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making the secrets folder private: %w", err)
		}
	}
	return nil
}
