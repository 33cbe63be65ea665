package config

import (
	"fmt"
	"strings"
)

// checkEnvNames checks the names of an entry's "inheritEnv": each must be a
// variable name, with no "=" and no NUL.
func checkEnvNames(names []string) error {
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "=\x00") {
			return fmt.Errorf("%q is not an environment variable name", n)
		}
	}
	return nil
}
