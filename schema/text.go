package schema

// Hit is one piece of free text that reads like an attack on the model:
// the rule it breaks and where it is, as byte offsets into the text
// [ScanText] read. A hit covers a whole sentence, or a whole tag block
// (<IMPORTANT> ... </IMPORTANT>), or, for a conversation written into the
// text, the whole text.
type Hit struct {
	Rule       string // as in [Flag.Rule], such as "directive.assistant"
	Start, End int
}

// ScanText checks free text a model will read that is not part of a tool's
// definition, such as a tool's result, with the rules that check a
// definition's description, sentence by sentence, and the fields of JSON
// records apart (see splitFields). Hits are in text order and
// do not overlap. It reads text once, sentence by sentence, so its time
// grows with the length of the text; a caller that must bound it cuts the
// text first.
func ScanText(text string) []Hit {
	spans := poison().scanText(text, true)
	if len(spans) == 0 {
		return nil
	}
	hits := make([]Hit, len(spans))
	for i, s := range spans {
		hits[i] = Hit{Rule: s.rule, Start: s.start, End: s.end}
	}
	return hits
}
