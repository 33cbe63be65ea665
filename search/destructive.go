package search

// destructiveRank multiplies the fused score of a tool whose name says it
// destroys something (delete_observations, drop_table, kill_process)
// when the intent asks for no such thing: "store a fact" must not offer
// a deletion first because the two tools share every other word. It
// ranks below the siblings that match as well, and stays findable.
const destructiveRank = 0.5

// destroyingWords are the name words of tools that lose data or stop
// what runs.
var destroyingWords = setOf("delete", "remove", "drop", "destroy", "erase", "purge", "wipe",
	"truncate", "kill", "terminate", "revoke", "uninstall", "unlink", "rm", "del")

// undoingWords are the intent words that ask for a loss, besides
// destroyingWords and their forms (deleting, removal): an intent holding
// one may mean any destroying tool.
var undoingWords = setOf("clear", "clean", "cleanup", "cancel", "discard", "forget", "rid",
	"flush", "reset", "evict", "expunge", "prune", "stop", "end", "close", "detach", "empty",
	"dispose", "retire", "deprovision", "teardown", "tear", "undo", "disable", "deactivate",
	"unassign", "unset", "unsubscribe", "unfollow", "unstar", "unwatch", "unpin", "unshare",
	"unpublish", "unregister", "deregister", "unlabel", "untag")

// destroysUnasked reports whether a tool with name words nameWords
// destroys something the intent, with words intentWords, does not ask to
// lose.
func destroysUnasked(nameWords, intentWords []string) bool {
	destroys := false
	for _, w := range nameWords {
		if destroyingWords[w] {
			destroys = true
			break
		}
	}
	if !destroys {
		return false
	}
	for _, qw := range intentWords {
		if undoingWords[qw] {
			return false
		}
		for d := range destroyingWords {
			if wordsMatch(qw, d) { // equal, or a form of it: deletion, removing
				return false
			}
		}
	}
	return true
}
