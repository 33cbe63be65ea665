package schema

import "sync"

// Exposure is the measure (issue 31): what the rules miss should still not
// reach the model. A card carries the sentences that describe the tool;
// a sentence addressed to the model instead (telling it what to say to
// the person, where to send things, what to do with other tools, what to
// keep quiet) is left off the card even when no rule holds the tool, and
// the card's note says text was left out. These rules are looser than the
// ones that hold a tool, and are read only on the sentences a card would
// show: a false alarm here costs a sentence of one card, not the tool.

// RuleAddressed names a sentence left off a card because it addresses the
// model; it never holds a tool.
const RuleAddressed = "addressed.model"

var exposureRuleSources = []ruleSource{
	{
		name:  RuleAddressed,
		stems: []string{"tell", "assure", "reassure", "inform", "convince", "promise", "remind", "don", "do", "never", "you", "other", "another"},
		any: [][]string{
			// what to tell the person
			{`\b(?:tell|assure|reassure|inform|convince|promise|remind)\s+(?:the\s+)?(?:person|user|customer|client|human)s?\b`},
			// what to keep quiet
			{`\b(?:don'?t|do\s+not|never)\s+(?:mention(?:ing)?|tell(?:ing)?|reveal(?:ing)?|inform(?:ing)?|notify(?:ing)?|bring(?:ing)?\s+up|let(?:ting)?\s+` + personRef + `\s+(?:know|see))\b[^.!?]{0,60}\b(?:` + personRef + `|anyone|anybody)\b`},
			// what the model must send, pass or say
			{`\byou\s+(?:must|should|have\s+to|need\s+to|will)\s+(?:always\s+|also\s+|first\s+)?(?:send|share|forward|upload|email|tell|say|reply|answer|respond)\b`},
			// other tools and servers
			{`\b(?:other|another)\s+(?:[\w-]+\s+){0,2}(?:tools?|servers?|connectors?|integrations?|providers?|plugins?)\b`, prescribes},
		},
	},
}

// exposure is the detector of exposureRuleSources, compiled on first use.
var exposure = sync.OnceValue(func() *detector { return compileDetector(exposureRuleSources) })

// addressesModel reports a card sentence that addresses the model (see
// exposureRuleSources) or breaks a rule that holds tools.
func addressesModel(sentence string) bool {
	return exposure().match(sentence, 1) != ""
}
