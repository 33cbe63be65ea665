package upstream

import (
	"maps"
	"runtime"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
)

// defaultEnvNames are the variables every stdio server inherits from
// capbridge's environment, as the TypeScript MCP SDK's stdio client
// (getDefaultEnvironment) passes them, and so as Claude Desktop and most
// clients do. Nothing else is inherited unless an entry names it in
// "inheritEnv": a key meant for one server, or the embeddings API key, is
// not handed to all of them.
func defaultEnvNames() []string {
	if runtime.GOOS == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// serverEnv is the environment a stdio server starts with: the default
// names and s.InheritEnv, read with lookup (os.LookupEnv), then s.Env,
// which wins over both. An inherited value starting with "()" is left out,
// as the TypeScript SDK leaves it out: it is an exported shell function,
// which a shell the server runs would define. The result is never nil: a
// nil exec.Cmd.Env would inherit everything.
func serverEnv(s config.Server, lookup func(string) (string, bool)) []string {
	env := []string{}
	seen := make(map[string]bool)
	for _, name := range append(defaultEnvNames(), s.InheritEnv...) {
		if seen[name] {
			continue
		}
		seen[name] = true
		if _, own := s.Env[name]; own {
			continue
		}
		v, ok := lookup(name)
		if !ok || strings.HasPrefix(v, "()") {
			continue
		}
		env = append(env, name+"="+v)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		env = append(env, k+"="+s.Env[k])
	}
	return env
}
