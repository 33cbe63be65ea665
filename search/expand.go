package search

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/capbridge/capbridge/store"
	"golang.org/x/sync/errgroup"
)

// Query expansion: what an intent's words mean beyond their letters.
//
// Phrasal verbs are joined before stop words are dropped ("log in" ->
// login, "set up" -> setup): their particle is a stop word, and the verb
// alone is another word (log_call is not about logging in). A value
// whose shape says what it is adds the words for it (see values.go).
// The synonym table maps tool-domain words to near equivalents; they are
// searched as a second, low-weight query of the words leg
// (Options.SynonymWeight), since at full weight they drown the intent's own
// words (bench NOTES: at 0.1 a synonym query helps, at 1.0 it hurts).

// phrasalVerbs joins a verb form and the particle after it into one word.
var phrasalVerbs = map[[2]string]string{
	{"log", "in"}: "login", {"logged", "in"}: "login", {"logging", "in"}: "login",
	{"log", "on"}: "login", {"sign", "in"}: "login", {"signed", "in"}: "login",
	{"signing", "in"}: "login", {"sign", "on"}: "login",
	{"log", "out"}: "logout", {"logged", "out"}: "logout", {"sign", "out"}: "logout",
	{"signed", "out"}: "logout", {"log", "off"}: "logout",
	{"sign", "up"}: "signup", {"signed", "up"}: "signup",
	{"look", "up"}: "lookup", {"set", "up"}: "setup", {"back", "up"}: "backup",
	{"lock", "out"}: "lockout", {"locked", "out"}: "lockout",
}

// questionPairs turn a question's two words into the word for what it
// asks: "how many" asks for a count, and its "many" is no match for
// insert_many or delete_many. Unlike a phrasal verb's, the word matches
// as any other does.
var questionPairs = map[[2]string]string{
	{"how", "many"}: "count",
	{"how", "big"}:  "size", {"how", "large"}: "size",
	{"how", "far"}: "distance", {"how", "fast"}: "speed",
	{"how", "old"}: "age", {"how", "often"}: "frequency",
}

// joinPhrasal replaces each verb-particle pair of ws by its joined word,
// and each question pair by the word for what it asks (questionPairs).
func joinPhrasal(ws []string) []string {
	out := make([]string, 0, len(ws))
	for i := 0; i < len(ws); i++ {
		if i+1 < len(ws) {
			if j, ok := pairWord(ws[i], ws[i+1]); ok {
				out = append(out, j)
				i++
				continue
			}
		}
		out = append(out, ws[i])
	}
	return out
}

// pairWord returns the one word a phrasal verb's or a question's two
// words stand for (see phrasalVerbs and questionPairs).
func pairWord(a, b string) (string, bool) {
	pair := [2]string{a, b}
	if j, ok := phrasalVerbs[pair]; ok {
		return j, true
	}
	j, ok := questionPairs[pair]
	return j, ok
}

// abbreviations are short forms developers write for words the real
// catalogs (testdata/catalogs/laptop.jsonl.gz) spell out far more often:
// each long form below is held by at least three times as many of their
// tools as its short form ("pull request" 26 to "PR" 4, repository 71 to
// repo 1). A short form with more than one common meaning (docs, ts,
// temp, auth) or one the catalogs use about as often as its long form
// (app, env, vm) is left alone. The long form joins the intent after the short one: it is
// what most tools say, at full weight, in every leg. The short form
// stays for the tools that write it: in their names at full weight
// (clone_repo), elsewhere at the synonym query's (a tool's repo
// parameter is no topic); confidence weighs only
// the long form, which a tool's short form covers as a synonym where the
// catalogs write it often (see synonymGroups).
var abbreviations = map[string][]string{
	"pr": {"pull", "request"}, "prs": {"pull", "requests"},
	"repo": {"repository"}, "repos": {"repositories"},
	"db": {"database"}, "dbs": {"databases"},
	"k8s":    {"kubernetes"},
	"config": {"configuration"}, "configs": {"configurations"},
	"dir": {"directory"}, "dirs": {"directories"},
	"info": {"information"},
	"func": {"function"}, "funcs": {"functions"},
	"param": {"parameter"}, "params": {"parameters"},
	"msg": {"message"}, "msgs": {"messages"},
	"img": {"image"}, "imgs": {"images"},
	"gh": {"github"},
}

// spellOut adds the long form of each abbreviation in ws after it (see
// abbreviations).
func spellOut(ws []string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		out = append(out, w)
		out = append(out, abbreviations[w]...)
	}
	return out
}

// compoundCandidates returns each pair of adjacent words of text joined
// into one ("on call" -> oncall, "data source" -> datasource, "user
// name" -> username): a catalog may write as one word what an intent
// writes as two, and the words leg matches whole words only. The plan
// keeps those the catalog holds. A pair of stop words ("to do"), a pair
// with a number, a phrasal verb's pair (joined already) and a join under
// minCompoundRunes runes are no candidates.
func compoundCandidates(text string) []string {
	ws := words(text)
	var out []string
	for i := 0; i+1 < len(ws); i++ {
		a, b := ws[i], ws[i+1]
		_, paired := pairWord(a, b)
		j := a + b
		if paired || (stopWords[a] && stopWords[b]) || isNumber(a) || isNumber(b) ||
			stopWords[j] || utf8.RuneCountInString(j) < minCompoundRunes || slices.Contains(out, j) {
			continue
		}
		out = append(out, j)
	}
	return out
}

// minCompoundRunes bounds the joined words compoundCandidates offers.
const minCompoundRunes = 5

// joined reports whether w is the joined form of a phrasal verb (a value
// of phrasalVerbs). Such a word matches only itself: log_call is no match
// for "login".
func joined(w string) bool {
	switch w {
	case "login", "logout", "signup", "lookup", "setup", "backup", "lockout":
		return true
	}
	return false
}

// synonymGroups are sets of tool-domain words and phrases that name the
// same thing or action in tool descriptions. Phrases are searched as FTS5
// phrases.
var synonymGroups = [][]string{
	{"create", "new", "open", "add", "make"},
	{"case", "ticket", "issue", "incident"},
	{"customer", "client", "user", "requester"},
	{"login", "sign in", "log in", "signin"},
	{"logout", "sign out", "log out"},
	{"lockout", "locked", "lock"},
	{"delete", "remove", "erase", "trash", "forget"},
	{"find", "search", "lookup", "look up"},
	{"show", "list", "display", "view"},
	{"meeting", "event", "appointment"},
	{"schedule", "book", "arrange", "setup"},
	{"folder", "directory", "dir"},
	{"reply", "respond", "answer", "comment"},
	{"edit", "change", "update", "modify"},
	{"close", "resolve", "solve"},
	{"vacation", "holiday", "out of office", "leave"},
	{"zip", "compress", "archive"},
	{"free", "available", "availability"},
	{"message", "post", "send"},
	{"run", "execute", "exec"},
	{"buy", "purchase"},
	{"kill", "terminate"},
	{"restart", "reboot"},
	{"fail", "failure"},
	{"mail", "email"},
	{"whole", "complete", "entire", "full"},
	// What keeps facts for later, as the real catalogs say it: the memory
	// server's "knowledge graph" of entities and observations, Azure's
	// "knowledge base", Reflect's notes. ("memory" is left out: most
	// tools that say it mean RAM.)
	{"remember", "memorize", "knowledge graph", "knowledge base"},
	// What is forgotten is taken out of what keeps it, and what is
	// recalled is looked up there.
	{"forget", "knowledge graph", "knowledge base"},
	{"recall", "knowledge graph", "knowledge base"},
	{"fact", "observation", "note", "jot"},
	// Facts are what a knowledge graph or base keeps.
	{"fact", "knowledge"},
	// Short forms of the abbreviations, for the tools that write them:
	// those that at least four of the real catalogs' tools write.
	{"database", "db"},
	{"kubernetes", "k8s"},
	{"configuration", "config"},
	{"parameter", "param"},
	{"github", "gh"},
}

// synonyms maps each word of a group to the other members.
type synonyms map[string][]string

// newSynonyms indexes groups by member.
func newSynonyms(groups [][]string) synonyms {
	s := make(synonyms)
	for _, g := range groups {
		for _, w := range g {
			for _, o := range g {
				if o != w {
					s[w] = append(s[w], o)
				}
			}
		}
	}
	return s
}

// of returns the synonyms of w, or of its singular ("meetings" ->
// meeting, "cases" -> case, "directories" -> directory).
func (s synonyms) of(w string) []string {
	if o, ok := s[w]; ok {
		return o
	}
	for _, sing := range singulars(w) {
		if o, ok := s[sing]; ok {
			return o
		}
	}
	return nil
}

// singulars returns the forms w may have before an English plural ending.
func singulars(w string) []string {
	var out []string
	if b, ok := strings.CutSuffix(w, "ies"); ok {
		out = append(out, b+"y")
	}
	if b, ok := strings.CutSuffix(w, "es"); ok {
		out = append(out, b)
	}
	if b, ok := strings.CutSuffix(w, "s"); ok {
		out = append(out, b)
	}
	return out
}

// expand returns the synonyms of words that are not words themselves,
// each once, in order.
func (s synonyms) expand(words []string) []string {
	have := make(map[string]bool, len(words))
	for _, w := range words {
		have[w] = true
	}
	var out []string
	for _, w := range words {
		for _, o := range s.of(w) {
			if !have[o] {
				have[o] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// wordHits runs the words leg: the intent's words, and its synonyms as a
// second query, run beside the first, whose scores count
// Options.SynonymWeight as much. The best cands tools of the sum come
// back, best first.
func (s *Searcher) wordHits(ctx context.Context, p *plan, cands int) ([]store.Hit, error) {
	var hs, syn []store.Hit
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		p.awaitFixes() // they join the synonym query
		if len(p.synTerms) == 0 {
			return nil
		}
		syn, err = s.st.RankWords(gctx, p.synTerms, s.columns, cands)
		return err
	})
	hs, err := s.st.RankWords(gctx, p.wordTerms, s.columns, cands)
	if werr := g.Wait(); err == nil {
		err = werr
	}
	if err != nil {
		return nil, err
	}
	s.weighLengths(ctx, hs)
	s.weighLengths(ctx, syn)
	return addHits(hs, syn, s.synWeight, cands), nil
}

// weighLengths scales each hit's score by BM25's length factor (see
// Options.LengthNorm), normalized to 1 for a text of the mean length.
func (s *Searcher) weighLengths(ctx context.Context, hs []store.Hit) {
	if s.lengthB <= 0 || len(hs) == 0 {
		return
	}
	_, mean, err := s.textStats(ctx)
	if err != nil || mean <= 0 {
		return
	}
	const k1 = 1.2 // FTS5's
	for i := range hs {
		norm := 1 - s.lengthB + s.lengthB*float64(hs[i].Len)/mean
		hs[i].Score *= (1 + k1) / (1 + k1*norm)
	}
}

// addHits sums a's scores and weight times b's by tool, best first, ties
// by Key (server, name) and then id, at most limit of them.
func addHits(a, b []store.Hit, weight float64, limit int) []store.Hit {
	at := make(map[int64]int, len(a)+len(b))
	out := slices.Clone(a)
	for i, h := range out {
		at[h.ID] = i
	}
	for _, h := range b {
		if i, ok := at[h.ID]; ok {
			out[i].Score += weight * h.Score
			continue
		}
		at[h.ID] = len(out)
		out = append(out, store.Hit{ID: h.ID, Score: weight * h.Score, Key: h.Key})
	}
	slices.SortStableFunc(out, func(x, y store.Hit) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Key, y.Key); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return out[:min(limit, len(out))]
}
