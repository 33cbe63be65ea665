package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
)

// signInStatus is one remote server's sign-in, as `servers` shows it.
type signInStatus struct {
	Server   string     `json:"server"`
	State    string     `json:"state"` // "signed in", "expired", "needs sign-in"
	Expires  *time.Time `json:"expires,omitempty"`
	Scopes   []string   `json:"scopes,omitempty"`
	Problem  string     `json:"problem,omitempty"`
	Wanted   []string   `json:"wanted,omitempty"`
	NextStep string     `json:"nextStep,omitempty"`
}

// signInStatuses lists the remote servers that have a sign-in or whose last
// listing asked for one. Nothing is asked of the network.
func signInStatuses(l *localFiles, statuses []serverStatus) []signInStatus {
	if l.config == nil {
		return nil
	}
	var store *config.SecretStore
	var out []signInStatus
	for _, s := range statuses {
		srv, ok := l.config.Servers[s.Name]
		if !ok || srv.Type != config.TypeHTTP {
			continue
		}
		if store == nil {
			var err error
			if store, err = config.OpenSecrets(); err != nil {
				return []signInStatus{{Server: s.Name, State: "unknown", Problem: err.Error()}}
			}
		}
		st, err := upstream.SignInStatus(store, srv)
		login := "capbridge login " + s.Name
		switch {
		case err != nil:
			out = append(out, signInStatus{Server: s.Name, State: "unknown", Problem: err.Error(), NextStep: login})
		case st.SignedIn && st.Stale:
			out = append(out, signInStatus{Server: s.Name, State: "needs sign-in", Problem: "signed in to another url", NextStep: login})
		case st.SignedIn:
			x := signInStatus{Server: s.Name, State: "signed in", Scopes: st.Scopes, Problem: st.Problem, Wanted: st.Wanted}
			if !st.Expiry.IsZero() {
				x.Expires = &st.Expiry
			}
			if st.Problem != "" {
				x.State, x.NextStep = "expired", login
			} else if len(st.Wanted) > 0 {
				x.NextStep = login
			}
			out = append(out, x)
		case strings.Contains(s.LastError, "capbridge login"):
			out = append(out, signInStatus{Server: s.Name, State: "needs sign-in", NextStep: login})
		}
	}
	return out
}

// printSignIns writes the sign-in lines under the servers table.
func printSignIns(w io.Writer, signIns []signInStatus, now time.Time) {
	if len(signIns) == 0 {
		return
	}
	fmt.Fprintln(w, "\nSign-in (remote servers):")
	for _, s := range signIns {
		line := s.State + scopeNote(s.Scopes)
		if s.State == "signed in" && s.Expires != nil {
			line += "; " + expiryNote(*s.Expires, true, now)
		}
		if s.Problem != "" {
			line += "; " + s.Problem
		}
		if len(s.Wanted) > 0 {
			line += fmt.Sprintf("; the server asked for scope %q since", strings.Join(s.Wanted, " "))
		}
		if s.NextStep != "" {
			line += ": run " + s.NextStep
		}
		fmt.Fprintf(w, "  %s  %s\n", s.Server, line)
	}
}
