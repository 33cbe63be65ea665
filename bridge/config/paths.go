package config

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// Environment variables that override the default file locations.
const (
	EnvFile = "CAPBRIDGE_CONFIG"
	EnvDB   = "CAPBRIDGE_DB"
)

// Path returns the config file to use: flag if set, else
// $CAPBRIDGE_CONFIG, else $XDG_CONFIG_HOME/capbridge/config.json.
func Path(flag string) string {
	if flag != "" {
		return flag
	}
	if p := os.Getenv(EnvFile); p != "" {
		return p
	}
	return filepath.Join(xdgConfigHome(), "capbridge", "config.json")
}

// DBPath returns the catalog database to use: flag if set, else
// $CAPBRIDGE_DB, else $XDG_DATA_HOME/capbridge/catalog.db.
func DBPath(flag string) string {
	if flag != "" {
		return flag
	}
	if p := os.Getenv(EnvDB); p != "" {
		return p
	}
	return filepath.Join(xdgDataHome(), "capbridge", "catalog.db")
}

// The xdg package reads the environment once, when it loads; re-reading it
// here lets tests and `capbridge` runs with a changed HOME or XDG_* variable
// see the change.
func xdgConfigHome() string {
	xdg.Reload()
	return xdg.ConfigHome
}

func xdgDataHome() string {
	xdg.Reload()
	return xdg.DataHome
}
