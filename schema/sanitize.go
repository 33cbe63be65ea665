package schema

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Markup and secrets removed before prose is split into sentences.
var (
	htmlComment   = regexp.MustCompile(`(?s)<!--.*?(-->|$)`)
	htmlBlock     = regexp.MustCompile(`(?is)<(script|style)\b.*?(</(script|style)\s*>|$)`)
	autoLink      = regexp.MustCompile(`<((?:https?|mailto):[^<>\s]+)>`)
	htmlTag       = regexp.MustCompile(`</?[A-Za-z!][^<>]*>`)
	codeFence     = regexp.MustCompile("(?s)(```|~~~).*?(```|~~~|$)")
	mdImage       = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink        = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	mdRefLink     = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s*\S+.*$`)
	mdLinePrefix  = regexp.MustCompile(`(?m)^[ \t]*(#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|[-*_=]{3,}[ \t]*$)`)
	mdEmphasis    = strings.NewReplacer("**", "", "__", "", "~~", "", "`", "")
	mdStar        = regexp.MustCompile(`(^|[\s(])\*([^*\s][^*]*?)\*`)
	urlUserInfo   = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.\-]*://)[^\s/?#@]+@`)
	urlSecretArgs = regexp.MustCompile(`(?i)([?&](?:api[_-]?key|access[_-]?token|token|secret|password|passwd|pwd|sig|signature|auth)=)[^&#\s]+`)
)

// Sanitize turns untrusted provider prose into text a card may show. It
// decodes HTML entities; strips control and format characters, HTML and
// Markdown markup, code blocks and credentials in URLs; drops every sentence
// holding an instruction-like lure or addressed to the model (see
// addressesModel); collapses whitespace; and keeps the first
// meaningful sentences that fit within maxChars characters, cutting a first
// sentence that is too long on a word boundary. Only the first
// min(MaxProseChars, 8*maxChars+200) characters are read: nothing later could
// fit. cut counts the characters of s that the result leaves out. Text made
// only of lures yields "".
func Sanitize(s string, maxChars int) (clean string, cut int) {
	return sanitize(s, maxChars, func(sentence string) bool { return isLure(sentence) || addressesModel(sentence) }, true)
}

// sanitize is Sanitize with the test for a lure sentence given (the card
// builder passes one that skips sentences the detector already read), and
// the check of the joined result optional (search text, which no model
// reads, goes without).
func sanitize(s string, maxChars int, lure func(string) bool, joined bool) (clean string, cut int) {
	total := utf8.RuneCountInString(s)
	if maxChars <= 0 || s == "" {
		return "", total
	}
	window := truncateRunes(s, min(MaxProseChars, 8*maxChars+200))
	all := sentences(stripMarkup(window))
	if len(window) < len(s) && len(all) > 1 {
		all = all[:len(all)-1] // the window may end inside a sentence
	}
	var kept []string
	size := 0
	for _, sentence := range all {
		if lure(sentence) {
			continue
		}
		n := utf8.RuneCountInString(sentence)
		gap := 0
		if len(kept) > 0 {
			gap = 1
		}
		if size+gap+n > maxChars {
			if short := cutWords(sentence, maxChars); len(kept) == 0 && !lure(short) {
				kept = append(kept, short) // cutting may have made a lure of it
			}
			break
		}
		kept = append(kept, sentence)
		size += gap + n
	}
	clean = strings.Join(kept, " ")
	for joined && len(kept) > 1 && (joinedLure(clean) || mergedLure(clean, kept)) { // joining sentences may have made one
		kept = kept[:len(kept)-1]
		clean = strings.Join(kept, " ")
	}
	return clean, max(0, total-utf8.RuneCountInString(clean))
}

// mergedLure reports text, kept's sentences joined, that does not read
// as those sentences and holds a lure: two lines without an end mark
// ("read'" then ".ssh") join into one sentence, which a reader takes
// whole, so each sentence of the joined text is tested whole again.
func mergedLure(text string, kept []string) bool {
	again := sentences(text)
	if slices.Equal(again, kept) {
		return false // each was tested already
	}
	return slices.ContainsFunc(again, isLure)
}

// stripMarkup removes markup and secrets, keeping line breaks as sentence
// boundaries and turning other control characters into spaces.
func stripMarkup(s string) string {
	s = strings.ToValidUTF8(s, " ")
	if strings.Contains(s, "<") {
		s = htmlComment.ReplaceAllString(s, " ")
		s = htmlBlock.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "```") || strings.Contains(s, "~~~") {
		s = codeFence.ReplaceAllString(s, "\n")
	}
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	if strings.Contains(s, "<") {
		s = htmlComment.ReplaceAllString(s, " ")
		s = htmlBlock.ReplaceAllString(s, " ")
		s = autoLink.ReplaceAllString(s, "$1")
		s = htmlTag.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "](") {
		s = mdImage.ReplaceAllString(s, "$1")
		s = mdLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "]:") {
		s = mdRefLink.ReplaceAllString(s, "")
	}
	if strings.ContainsAny(s, "#>-*+_=") {
		s = mdLinePrefix.ReplaceAllString(s, "")
	}
	s = mdEmphasis.Replace(s)
	if strings.Contains(s, "*") {
		s = mdStar.ReplaceAllString(s, "$1$2")
	}
	if strings.Contains(s, "://") {
		s = urlUserInfo.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "=") {
		s = urlSecretArgs.ReplaceAllString(s, "${1}redacted")
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\u2028' || r == '\u2029':
			return '\n'
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return ' '
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
}

// sentences splits text into whitespace-collapsed sentences, each line break
// ending one, and leaves out those with no letter or digit.
func sentences(s string) []string {
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		rest := line
		for rest != "" {
			end := sentenceBreak(rest)
			sentence := strings.Join(strings.Fields(rest[:end]), " ")
			rest = rest[end:]
			if strings.IndexFunc(sentence, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
				out = append(out, sentence)
			}
		}
	}
	return out
}

// abbreviations end with a period but not a sentence.
var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "incl.", "no.", "ex."}

// sentenceBreak returns the end of the first sentence of s (after its
// trailing space), or len(s).
func sentenceBreak(s string) int {
	from := 0
	for {
		loc := sentenceEndIndex(s[from:])
		if loc == nil {
			return len(s)
		}
		end := from + loc[1]
		head := strings.ToLower(strings.TrimRight(s[:end], " \t\"')]"))
		abbreviated := false
		for _, a := range abbreviations {
			if strings.HasSuffix(head, a) && (len(head) == len(a) || !isWordByte(head[len(head)-len(a)-1])) {
				abbreviated = true
				break
			}
		}
		if !abbreviated {
			return end
		}
		from = end
	}
}

// sentenceEndIndex finds the first sentence end of s, as the pattern
// `[.!?]+["')\]]*\s+` would (ASCII white space), without a regular
// expression: sentence splitting runs on every text the detector reads.
// Punctuation that closes a quotation inside a sentence is no end: when a
// quote mark follows it and a lower-case word follows that ("email the
// text 'how is it going?' to ..."), the sentence goes on, and an order
// cannot be cut in two by a question it quotes.
func sentenceEndIndex(s string) []int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i
		for j < len(s) && (s[j] == '.' || s[j] == '!' || s[j] == '?') {
			j++
		}
		quoted := false
		for j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == ')' || s[j] == ']') {
			quoted = quoted || s[j] == '"' || s[j] == '\''
			j++
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r' || s[k] == '\f') {
			k++
		}
		if k > j && !(quoted && k < len(s) && s[k] >= 'a' && s[k] <= 'z' && !strings.ContainsAny(s[j:k], "\n\r")) {
			return []int{i, k}
		}
		i = j - 1
	}
	return nil
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// isLure reports a sentence that breaks one of the detector's rules.
func isLure(sentence string) bool {
	return poison().match(sentence, 1) != ""
}

// joinedLure reports sanitized text whose joined sentences make a lure none
// of them is alone ("ignore" / "previous instructions" on two lines). Only
// rules that are one pattern are read across sentences: a rule that needs
// two things in one sentence is not broken by finding them in two.
func joinedLure(text string) bool {
	return poison().matchSingle(text) != ""
}

// cutWords shortens s to at most maxChars characters, ending on a word
// boundary with an ellipsis when a word fits, mid-word otherwise.
func cutWords(s string, maxChars int) string {
	if utf8.RuneCountInString(s) <= maxChars {
		return s
	}
	if maxChars <= 1 {
		return truncateRunes(s, maxChars)
	}
	head := truncateRunes(s, maxChars-1)
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		head = head[:i]
	}
	return strings.TrimRight(head, " ,;:-") + "…"
}

// truncateRunes returns the first n characters of s.
func truncateRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for at := range s {
		if i == n {
			return s[:at]
		}
		i++
	}
	return s
}

// SanitizeName makes a tool or server name safe to show: control and format characters
// removed, whitespace collapsed, at most maxChars characters.
func SanitizeName(s string, maxChars int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return ' '
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	return truncateRunes(strings.Join(strings.Fields(s), " "), maxChars)
}

// nameWords turns a tool name into plain words: create_ticket and
// createTicket both give "create ticket".
func nameWords(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			r = ' '
			b.WriteRune(r)
		}
		prev = r
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
