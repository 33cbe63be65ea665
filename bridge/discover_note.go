package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/search"
)

// noCloseMatchNote tells the model that the cards shown are only the
// nearest: none reached search.ConfidentAt.
var noCloseMatchNote = fmt.Sprintf("No close match: no card reaches confidence %.1f. These are the closest tools; "+
	"check one fits before running it, or try other words for the task.", search.ConfidentAt)

// noteServers completes ans's note when none of the results reached
// search.ConfidentAt, for the model to tell the user what it could not
// reach: with cards shown, that they are only the nearest; the servers a
// discovery could not search (failing, still starting, or with an entry
// left out of the config), whatever was shown; and with no card, the
// servers it searched. A close match gets no such note: what is
// unavailable does not matter then. The answer stays within
// maxAnswerBytes: the last cards give way to the note, counted in omitted.
func (b *Server) noteServers(ctx context.Context, cfg *config.File, ans *discovery, results []search.Result) {
	shown := len(ans.Matches) > 0
	if shown && slices.ContainsFunc(results, func(r search.Result) bool { return r.Confidence >= search.ConfidentAt }) {
		return
	}
	servers, err := b.st.Servers(ctx)
	if err != nil {
		b.logger.Warn("discovery: listing servers failed", "err", err)
	}
	parts := []string{ans.Note}
	if shown {
		parts = append(parts, noCloseMatchNote, b.unavailable(cfg, servers))
	} else {
		parts = append(parts, b.unavailable(cfg, servers), searched(cfg, servers))
	}
	if len(ans.Servers) > 0 {
		parts = append(parts, mapNote)
	}
	ans.Note = joinNotes(parts...)
	for len(ans.Matches) > 1 {
		data, err := json.Marshal(ans)
		if err != nil || len(data) <= maxAnswerBytes {
			return
		}
		ans.Matches = ans.Matches[:len(ans.Matches)-1]
		ans.Omitted++
	}
}

// joinNotes joins the non-empty notes into one text, each but the last
// ended as a sentence, so that "...run capbridge servers" and "Searched
// servers: ..." do not run together.
func joinNotes(notes ...string) string {
	notes = slices.DeleteFunc(slices.Clone(notes), func(n string) bool { return strings.TrimSpace(n) == "" })
	for i := range notes {
		notes[i] = strings.TrimSpace(notes[i])
		if i < len(notes)-1 && !strings.HasSuffix(notes[i], ".") && !strings.HasSuffix(notes[i], "?") && !strings.HasSuffix(notes[i], "!") {
			notes[i] += "."
		}
	}
	return strings.Join(notes, " ")
}
