package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// ErrNoSecret means the secret store holds no value under a name.
var ErrNoSecret = errors.New("no such secret")

// EnvSecretStore chooses where secrets are kept: "keychain" (the OS
// keychain, an error when there is none), "file" (the private file only) or
// "" / "auto" (the keychain when one answers, else the file).
const EnvSecretStore = "CAPBRIDGE_SECRETS"

// KeychainProbeTimeout bounds the first question put to the OS keychain. A
// Linux box with no Secret Service (a server over SSH, CI) can leave a
// D-Bus call waiting; past this the private file is used instead.
const KeychainProbeTimeout = 3 * time.Second

// keychainService is the service name capbridge's items carry in the
// keychain (macOS Keychain, Secret Service, Windows Credential Manager).
const keychainService = "capbridge"

// Prefixes of the names in a [SecretStore]: secrets the user set with
// `capbridge secret set` and sign-in tokens of remote servers.
const (
	UserSecretPrefix = "secret:"
	SignInPrefix     = "signin:"
)

// backend is one place secret values are kept: the OS keychain or the
// private file.
type backend interface {
	get(name string) (string, error) // ErrNoSecret when absent
	set(name, value string) error
	del(name string) error // nil when absent
	names() ([]string, error)
}

// SecretStore keeps tokens, refresh tokens, client secrets and the user's
// API keys out of the config file: in the OS keychain when there is one
// (through github.com/zalando/go-keyring, pure Go), else in a 0600 file in a
// 0700 folder under the data directory. The keychain is asked only when a
// secret is first needed, with a bounded probe.
//
// Reads fall back to the file, so a secret written there on a day the
// keychain was away is still found; a delete clears both.
type SecretStore struct {
	file string // the private file: DIR/secrets.json
	mode string // "auto", "keychain" or "file"

	once    sync.Once // chooses primary
	primary backend   // the keychain, or the file
	where   string    // says which, for people
	err     error     // mode "keychain" with no keychain
	fb      *secretFile
}

// SecretsDir is the folder of the private secrets file:
// $XDG_DATA_HOME/capbridge/secrets, beside the default catalog.
func SecretsDir() string {
	return filepath.Join(xdgDataHome(), "capbridge", "secrets")
}

// OpenSecrets returns the store of this user: the keychain or the file in
// [SecretsDir], as $CAPBRIDGE_SECRETS chooses. Nothing is read yet.
func OpenSecrets() (*SecretStore, error) {
	return NewSecretStore(SecretsDir(), os.Getenv(EnvSecretStore))
}

// NewSecretStore returns a store whose private file lives in dir; mode is
// as [EnvSecretStore] describes.
func NewSecretStore(dir, mode string) (*SecretStore, error) {
	switch mode = strings.ToLower(strings.TrimSpace(mode)); mode {
	case "":
		mode = "auto"
	case "auto", "keychain", "file":
	default:
		return nil, fmt.Errorf("%s=%q: want \"keychain\", \"file\" or \"auto\"", EnvSecretStore, mode)
	}
	file := filepath.Join(dir, "secrets.json")
	return &SecretStore{file: file, mode: mode, fb: &secretFile{path: file}}, nil
}

func (s *SecretStore) choose() {
	s.once.Do(func() {
		if s.mode != "file" {
			kc, err := probeKeychain(KeychainProbeTimeout)
			if err == nil {
				kc.lockPath = s.file
				s.primary, s.where = kc, "the OS keychain ("+keychainName()+")"
				return
			}
			if s.mode == "keychain" {
				s.err = fmt.Errorf("the OS keychain is not available (%s=keychain): %w", EnvSecretStore, err)
				return
			}
			s.where = fmt.Sprintf("the private file %s (no OS keychain: %v)", s.file, err)
		} else {
			s.where = fmt.Sprintf("the private file %s (%s=file)", s.file, EnvSecretStore)
		}
		s.primary = s.fb
	})
}

// Where says where values are kept ("the OS keychain (Secret Service)" or
// the file and why), asking the keychain first if nothing has yet.
func (s *SecretStore) Where() string {
	s.choose()
	if s.err != nil {
		return s.err.Error()
	}
	return s.where
}

// Get returns the value kept under name, or an error wrapping
// [ErrNoSecret].
func (s *SecretStore) Get(name string) (string, error) {
	s.choose()
	if s.err != nil {
		return "", s.err
	}
	v, err := s.primary.get(name)
	if errors.Is(err, ErrNoSecret) && s.primary != backend(s.fb) {
		v, err = s.fb.get(name)
	}
	if err != nil {
		return "", fmt.Errorf("reading secret %q: %w", name, err)
	}
	return v, nil
}

// Set keeps value under name, replacing any value it had.
func (s *SecretStore) Set(name, value string) error {
	if name == "" {
		return errors.New("a secret needs a name")
	}
	s.choose()
	if s.err != nil {
		return s.err
	}
	if err := s.primary.set(name, value); err != nil {
		return fmt.Errorf("keeping secret %q in %s: %w", name, s.where, err)
	}
	if s.primary != backend(s.fb) {
		// An older copy left in the file must not come back on a read.
		if err := s.fb.del(name); err != nil {
			return fmt.Errorf("clearing the old copy of secret %q: %w", name, err)
		}
	}
	return nil
}

// Delete removes name from the keychain and the file; a name that is in
// neither is not an error.
func (s *SecretStore) Delete(name string) error {
	s.choose()
	if s.err != nil {
		return s.err
	}
	if err := s.primary.del(name); err != nil {
		return fmt.Errorf("deleting secret %q: %w", name, err)
	}
	if s.primary != backend(s.fb) {
		if err := s.fb.del(name); err != nil {
			return fmt.Errorf("deleting secret %q: %w", name, err)
		}
	}
	return nil
}

// Names returns the names kept that start with prefix, sorted.
func (s *SecretStore) Names(prefix string) ([]string, error) {
	s.choose()
	if s.err != nil {
		return nil, s.err
	}
	seen := map[string]bool{}
	for _, b := range []backend{s.primary, s.fb} {
		names, err := b.names()
		if err != nil {
			return nil, fmt.Errorf("listing secrets: %w", err)
		}
		for _, n := range names {
			if strings.HasPrefix(n, prefix) {
				seen[n] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}
