package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/zalando/go-keyring"
)

// keychainIndex is the item listing the names capbridge keeps in the
// keychain, which go-keyring cannot enumerate.
const keychainIndex = "capbridge.index"

// keychain keeps secrets as items of the service "capbridge" in the OS
// keychain. lockPath is a file whose folder [Lock] serializes index edits
// on between processes.
type keychain struct {
	lockPath string
}

// keychainName names the OS keychain for people.
func keychainName() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS Keychain"
	case "windows":
		return "Windows Credential Manager"
	}
	return "Secret Service"
}

// probeKeychain asks the keychain for an item that does not exist, giving
// it at most timeout to answer "not found". Any other answer, or none,
// means there is no usable keychain. The question is left running when it
// times out: go-keyring takes no context, and the process goes on without
// it.
func probeKeychain(timeout time.Duration) (*keychain, error) {
	done := make(chan error, 1)
	go func() {
		_, err := keyring.Get(keychainService, "capbridge.probe")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, keyring.ErrNotFound) {
			return &keychain{}, nil
		}
		return nil, err
	case <-time.After(timeout):
		return nil, fmt.Errorf("no answer within %s", timeout)
	}
}

func (k *keychain) get(name string) (string, error) {
	v, err := keyring.Get(keychainService, name)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNoSecret
	}
	return v, err
}

func (k *keychain) set(name, value string) error {
	if err := keyring.Set(keychainService, name, value); err != nil {
		if errors.Is(err, keyring.ErrSetDataTooBig) {
			return fmt.Errorf("the value is too long for %s: %w", keychainName(), err)
		}
		return err
	}
	return k.editIndex(func(names []string) []string {
		if slices.Contains(names, name) {
			return nil
		}
		return append(names, name)
	})
}

func (k *keychain) del(name string) error {
	if err := keyring.Delete(keychainService, name); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return err
	}
	return k.editIndex(func(names []string) []string {
		i := slices.Index(names, name)
		if i < 0 {
			return nil
		}
		return slices.Delete(names, i, i+1)
	})
}

func (k *keychain) names() ([]string, error) {
	v, err := keyring.Get(keychainService, keychainIndex)
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	if err := json.Unmarshal([]byte(v), &names); err != nil {
		return nil, fmt.Errorf("the keychain item %s/%s is not a list of names: %w", keychainService, keychainIndex, err)
	}
	return names, nil
}

// editIndex rewrites the index with change's answer; nil means no change.
func (k *keychain) editIndex(change func([]string) []string) error {
	if k.lockPath != "" {
		unlock, err := Lock(k.lockPath)
		if err != nil {
			return err
		}
		defer unlock()
	}
	names, err := k.names()
	if err != nil {
		return err
	}
	next := change(names)
	if next == nil {
		return nil
	}
	data, err := json.Marshal(next)
	if err != nil {
		return err
	}
	return keyring.Set(keychainService, keychainIndex, string(data))
}
