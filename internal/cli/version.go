package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

var versionHelp = commandHelp{
	usage: []string{"version [--json]"},
	about: `Prints capbridge's version, the Go version and platform it was built
with, whether it is static (built with CGO_ENABLED=0) or linked to the C
library, the version-control revision when built from a checkout, and the
version of every module compiled in. A binary built from a checkout says
"(devel)"; one installed with 'go install github.com/capbridge/capbridge@VERSION'
(once the module is published) says VERSION.`,
	examples: []string{"capbridge version", "capbridge version --json | jq -r .version"},
}

// buildVersion is what `capbridge version` reports.
type buildVersion struct {
	Version  string            `json:"version"`
	Go       string            `json:"go"`
	Platform string            `json:"platform"`
	Static   bool              `json:"static"` // built with CGO_ENABLED=0: no C library needed
	Revision string            `json:"revision,omitempty"`
	Time     string            `json:"time,omitempty"`
	Modified bool              `json:"modified,omitempty"`
	Modules  map[string]string `json:"modules,omitempty"` // path -> version
	order    []string
}

func runVersion(ctx context.Context, e env) error {
	flags := newFlagSet("version", e)
	asJSON := flags.Bool("json", false, "print one JSON object")
	args, done, err := parseFlags(flags, e, versionHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("version takes no arguments (got %q)", args)}
	}
	v := readBuildVersion()
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	fmt.Fprintf(e.stdout, "capbridge %s\n", v.Version)
	fmt.Fprintf(e.stdout, "  built with %s for %s\n", v.Go, v.Platform)
	if v.Static {
		fmt.Fprintln(e.stdout, "  static     yes (CGO_ENABLED=0: runs without a C library)")
	} else {
		fmt.Fprintln(e.stdout, "  static     no (built with cgo; CGO_ENABLED=0 go install . builds a static binary)")
	}
	if v.Revision != "" {
		state := ""
		if v.Modified {
			state = ", with uncommitted changes"
		}
		fmt.Fprintf(e.stdout, "  revision   %s (%s%s)\n", v.Revision, v.Time, state)
	}
	if len(v.order) > 0 {
		fmt.Fprintln(e.stdout, "modules:")
		width := 0
		for _, path := range v.order {
			width = max(width, len(path))
		}
		for _, path := range v.order {
			fmt.Fprintf(e.stdout, "  %-*s %s\n", width, path, v.Modules[path])
		}
	}
	return nil
}

// readBuildVersion reads the build information the Go toolchain embeds.
func readBuildVersion() buildVersion {
	v := buildVersion{Version: "unknown", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Version = info.Main.Version
	v.Go = info.GoVersion
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "CGO_ENABLED":
			v.Static = s.Value == "0"
		}
	}
	v.Modules = make(map[string]string, len(info.Deps))
	for _, d := range info.Deps {
		version := d.Version
		if d.Replace != nil {
			version = fmt.Sprintf("%s => %s %s", d.Version, d.Replace.Path, d.Replace.Version)
		}
		v.Modules[d.Path] = strings.TrimSpace(version)
		v.order = append(v.order, d.Path)
	}
	return v
}
