package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
)

var removeHelp = commandHelp{
	usage: []string{"remove NAME [--config FILE] [--db FILE]"},
	about: `Removes one server from capbridge's config file, keeping everything else in
it, and drops the server's tools from the catalog database if there is one.
A server that is only in the catalog (no longer configured) is dropped from it.`,
	examples: []string{"capbridge remove files", "capbridge remove --config ./config.json github"},
}

func runRemove(ctx context.Context, e env) error {
	flags := newFlagSet("remove", e)
	configPath, dbPath := configFlag(flags), dbFlag(flags)
	args, done, err := parseFlags(flags, e, removeHelp)
	if done {
		return err
	}
	if len(args) != 1 {
		return &usageError{msg: "remove needs exactly one server NAME; run 'capbridge servers' to see them"}
	}
	name := args[0]
	path := config.Path(*configPath)

	configured, err := removeFromConfig(path, name)
	if err != nil {
		return err
	}
	st, err := openExistingCatalog(ctx, config.DBPath(*dbPath))
	if err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	stored := false
	if st != nil {
		defer st.Close()
		switch err := st.RemoveServer(ctx, name); {
		case err == nil:
			stored = true
		case !errors.Is(err, store.ErrNotFound):
			return fmt.Errorf("remove: %w", err)
		}
	}
	switch {
	case configured && stored:
		fmt.Fprintf(e.stdout, "Removed server %q from %s and its tools from %s.\n", name, path, st.Path())
	case configured:
		fmt.Fprintf(e.stdout, "Removed server %q from %s.\n", name, path)
	case stored:
		fmt.Fprintf(e.stdout, "Server %q was not in %s; dropped its tools from %s.\n", name, path, st.Path())
	default:
		known, err := knownServerNames(ctx, path, st)
		if err != nil {
			return fmt.Errorf("remove: %w", err)
		}
		return fmt.Errorf("remove: no server %q in %s%s; run 'capbridge servers' to see them", name, path, suggest(name, known))
	}
	return nil
}

// removeFromConfig removes name from the config file at path and reports
// whether it was there. A missing file has nothing to remove.
func removeFromConfig(path, name string) (bool, error) {
	unlock, err := config.Lock(path)
	if err != nil {
		return false, fmt.Errorf("remove: %w", err)
	}
	defer unlock()
	doc, err := config.ReadDoc(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("remove: %w", err)
	}
	if err := doc.RemoveServer(name); errors.Is(err, config.ErrUnknownServer) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("remove: %w", err)
	}
	if err := doc.Save(); err != nil {
		return false, fmt.Errorf("remove: %w", err)
	}
	return true, nil
}

// knownServerNames lists the servers in the config file and the catalog,
// to suggest the nearest one.
func knownServerNames(ctx context.Context, configPath string, st *store.Store) ([]string, error) {
	var names []string
	if doc, err := config.ReadDoc(configPath); err == nil {
		names = doc.ServerNames()
	}
	if st != nil {
		servers, err := st.Servers(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range servers {
			if !slices.Contains(names, s.Name) {
				names = append(names, s.Name)
			}
		}
	}
	return names, nil
}

// openExistingCatalog opens the catalog at path if the file exists, and
// returns nil without creating one if it does not.
func openExistingCatalog(ctx context.Context, path string) (*store.Store, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		return nil, fmt.Errorf("opening catalog %s: %w", path, err)
	}
	return st, nil
}
