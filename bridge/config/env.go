package config

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/capbridge/capbridge/output"
)

// expander expands ${VAR}, ${env:VAR} and ${VAR:-default} from the
// environment and ${secret:NAME} from the secret store. A variable or
// secret that is not set becomes "" and a warning naming it (and where it
// was used), never its value.
type expander struct {
	warnings []string
	expanded []string // values substituted since the last takeExpanded

	store    *SecretStore // opened on the first ${secret:NAME}
	storeErr error
}

// takeExpanded returns the values substituted since the last call.
func (x *expander) takeExpanded() []string {
	v := x.expanded
	x.expanded = nil
	return v
}

func (x *expander) expand(server, field, s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var out strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		out.WriteString(s[:i])
		out.WriteString(x.lookup(server, field, s[i+2:i+j]))
		s = s[i+j+1:]
	}
	out.WriteString(s)
	return out.String()
}

func (x *expander) lookup(server, field, ref string) string {
	if id, ok := strings.CutPrefix(ref, "input:"); ok {
		x.warnings = append(x.warnings, fmt.Sprintf("server %q: %s uses VS Code's ${input:%s}, which capbridge cannot prompt for; use ${VAR} from the environment", server, field, id))
		return ""
	}
	if name, ok := strings.CutPrefix(ref, "secret:"); ok {
		return x.secret(server, field, name)
	}
	ref = strings.TrimPrefix(ref, "env:") // VS Code's spelling of ${VAR}
	name, def, hasDef := strings.Cut(ref, ":-")
	if v, ok := os.LookupEnv(name); ok && (v != "" || !hasDef) {
		x.expanded = append(x.expanded, v)
		return v
	}
	if hasDef {
		return def
	}
	x.warnings = append(x.warnings, fmt.Sprintf("server %q: %s uses ${%s}, which is not set", server, field, name))
	return ""
}

// secret returns the value `capbridge secret set NAME` kept.
func (x *expander) secret(server, field, name string) string {
	if x.store == nil && x.storeErr == nil {
		x.store, x.storeErr = OpenSecrets()
	}
	if x.storeErr != nil {
		x.warnings = append(x.warnings, fmt.Sprintf("server %q: %s uses ${secret:%s}: %v", server, field, name, x.storeErr))
		return ""
	}
	v, err := x.store.Get(UserSecretPrefix + name)
	if errors.Is(err, ErrNoSecret) {
		x.warnings = append(x.warnings, fmt.Sprintf("server %q: %s uses ${secret:%s}, which is not set (capbridge secret set %s)", server, field, name, name))
		return ""
	}
	if err != nil {
		x.warnings = append(x.warnings, fmt.Sprintf("server %q: %s uses ${secret:%s}: %v", server, field, name, err))
		return ""
	}
	x.expanded = append(x.expanded, v)
	return v
}

func (x *expander) expandMap(server, field string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = x.expand(server, field+"."+k, v)
	}
	return out
}

func mapValues(m map[string]string) []string {
	var vs []string
	for _, v := range m {
		vs = append(vs, v)
	}
	return vs
}

// Redact returns text with every secret of the entry (see [Server.Secrets])
// replaced as the output stage replaces it ([output.Redact]: values of 8
// characters or more, by "[redacted]"), so that an error message or log
// line built from a server's output never repeats one.
func (s Server) Redact(text string) string {
	text, _ = output.Redact(text, s.secrets)
	return text
}
