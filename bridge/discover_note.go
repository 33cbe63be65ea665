package bridge

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/capbridge/capbridge/search"
)

// noCloseMatchNote tells the model that the cards shown are only the
// nearest: none reached search.ConfidentAt.
var noCloseMatchNote = fmt.Sprintf("No close match: no card reaches confidence %.1f. These are the closest tools; "+
	"check one fits before running it, or try other words for the task.", search.ConfidentAt)

// noteNoCloseMatch says so in ans when it shows cards and none of the
// results reached search.ConfidentAt. The answer stays within
// maxAnswerBytes: the last cards give way to the note, counted in omitted.
func noteNoCloseMatch(ans *discovery, results []search.Result) {
	if len(ans.Matches) == 0 || slices.ContainsFunc(results, func(r search.Result) bool {
		return r.Confidence >= search.ConfidentAt
	}) {
		return
	}
	ans.Note = noCloseMatchNote
	for len(ans.Matches) > 1 {
		b, err := json.Marshal(ans)
		if err != nil || len(b) <= maxAnswerBytes {
			return
		}
		ans.Matches = ans.Matches[:len(ans.Matches)-1]
		ans.Omitted++
	}
}
