package bridge

import (
	"context"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
)

// serverAbout is one line of the map a discovery with no close match
// answers with: a connected server and what its tools work on, in the
// words its tools' names share (search.ServerMap), so that the model can
// ask again in them.
type serverAbout struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
	About string `json:"about,omitempty"`
}

// Bounds of the map.
const (
	maxMapServers = 25
	maxMapBytes   = 1800
)

// mapNote tells the model what the map is for.
const mapNote = "servers says what each connected server's tools work on: ask again in those words, or tell the user what is not connected."

// closeMatch reports whether a result reaches the close-match bar.
func closeMatch(results []search.Result) bool {
	return slices.ContainsFunc(results, func(r search.Result) bool { return r.Confidence >= search.ConfidentAt })
}

// serverMap returns the map of the configured, enabled servers for a
// discovery of intent with no close match: those whose tools share the
// intent's words first, at most maxMapServers and maxMapBytes of them,
// and how many more there are. A map that cannot be read is logged and
// left out.
func (b *Server) serverMap(ctx context.Context, cfg *config.File, intent string) (lines []serverAbout, more int) {
	abouts, err := b.searcher.ServerMap(ctx, intent, func(server string) bool {
		sc, ok := cfg.Servers[server]
		return ok && !sc.Disabled
	})
	if err != nil {
		b.logger.Warn("discovery: mapping servers failed", "err", err)
		return nil, 0
	}
	size := 0
	for i, a := range abouts {
		line := serverAbout{Name: schema.SanitizeName(a.Server, schema.MaxNameChars), Tools: a.Tools, About: strings.Join(a.Words, ", ")}
		if size += jsonSize(line) + 1; size > maxMapBytes || i == maxMapServers {
			return lines, len(abouts) - i
		}
		lines = append(lines, line)
	}
	return lines, 0
}
