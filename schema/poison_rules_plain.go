package schema

import "slices"

// Rules for text that addresses the model in plain words, with none of the
// phrases attacks are known by (issue 31): what it asks the model to do to
// the person it works for (mislead them, act without their say, steer
// them), where it asks data to be sent, what it asks to be put into an
// argument, and how it says other tools, connectors or servers are to be
// used. Each names a class; none is written for one phrasing. They read
// the same lower-case, normalized views as the rules of poison_rules.go.

// Rule names of this file.
const (
	RuleDeceive = "deceive.user"      // mislead the person about what happened or what is true
	RuleConsent = "consent.bypass"    // act for the person without asking them
	RuleSteer   = "steer.user"        // push the person towards a product, a choice or a topic
	RuleExfil   = "exfil.destination" // send data to a named address, number or endpoint
)

// Fragments of this file's rules.
const (
	// personRef is the person the tool works for, as prose names them.
	personRef = `(?:the\s+)?(?:person|user|customer|client|caller|requester|human|people|everyone|anyone|anybody|nobody|them|him|her)(?:'s)?`

	// contrary is what makes a statement to the person knowingly false or
	// unconditional.
	contrary = `\b(?:even\s+(?:if|though|when)|although|though|whatever\s+(?:it|the|they|their|its|his|her|he|she|you)|regardless|no\s+matter|when\s+in\s+fact|but\s+(?:keep|actually|in\s+fact|don'?t|do\s+not|never|really|still)|while\s+(?:it|in\s+fact|actually))\b`

	// mailbox is an email address, a phone number written to be dialled, a
	// web endpoint or a bucket.
	mailbox = `(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}|\+\d[\d\s().-]{6,}\d|\bhttps?://[\w.-]+|\b(?:s3|gs|ftp|sftp)://\S+)`

	// The kinds of data the person would not hand out, each a pattern of
	// its own so that the literals one of its matches holds are known
	// (see requiredLiterals) and checked first: identity, places and
	// what is on their machine, payment, secrets, and their words.
	personalIdentity = `(?:(?:home|postal|street|billing)\s+address(?:es)?|(?:phone|mobile|cell)\s+numbers?|date\s+of\s+birth|birth\s?days?|maiden\s+names?|social\s+security|passport)`
	personalPlace    = `(?:(?:gps|exact|precise|live|real-time)\s+(?:position|location|coordinates)|(?:person|user|customer)'s\s+(?:location|position|screen|(?:email|e-mail)\s+address(?:es)?)|current\s+location|location\s+history|screen\s+contents|clipboard|address\s+book|contact\s+list|browsing\s+history|(?:documents|downloads|desktop|home)\s+(?:folder|directory|dir))`
	personalPayment  = `(?:card\s+(?:numbers?|details)|\bcvv\b|\bcvc\b|bank\s+(?:details|accounts?|cards?|numbers?)|\bpins?\b|(?:one-time|otp|verification|security|recovery|2fa|mfa|backup)\s+codes?)`
	personalSecret   = `(?:\b(?:ssh|private|secret|signing|gpg|pgp)\s+keys?\b|access\s+tokens?|\b(?:api|auth|bearer|session|github|deploy|workspace|oauth)\s+(?:keys?|tokens?)\b|(?:saved|stored|their|your|person'?s|user'?s)\s+(?:credentials|passwords?|secrets?)|\bpasswords?\b)`
	personalTurns    = `(?:(?:every|each|all|any)\s+(?:earlier|previous|prior|past|other)\s+(?:turns?|messages?|exchanges?)|\b(?:earlier|previous|prior)\s+turns?\b|\b(?:last|latest|recent|previous|newest)\s+(?:\w+\s+){0,2}(?:messages|emails|mails|turns|exchanges|texts)\b)`
	personalSaid     = `(?:(?:what|whatever|everything|anything|all|any)\s+(?:\w+\s+){0,2}(?:the\s+)?(?:person|user|customer|they|he|she)\s+(?:has\s+|have\s+|had\s+)?(?:said|wrote|written|typed|asked|told\s+you|shared|sent|mentioned|entered))`
	personalChat     = `(?:\bcop(?:y|ies)\s+of\s+(?:the\s+)?(?:chat|conversation|thread)|\b(?:chat|conversation|thread)\s+(?:so\s+far|history|log|logs|transcript|record)|\b(?:whole|entire|full)\s+(?:chat|thread|conversation|discussion|inbox|mailbox))`
	personalBulk     = `(?:\b(?:text|contents?|bod(?:y|ies))\s+of\s+(?:any|every|each|all|the\s+(?:person|user)'s)\s+(?:\w+\s+)?(?:emails?|messages?|mails?|documents?|files?|notes?|chats?)|\b(?:names?|emails?|email\s+addresses|phone\s+numbers|addresses|contacts|details)\s+(?:\w+\s+)?of\s+(?:everyone|everybody|all|anyone|every\s+(?:person|contact|participant|attendee|customer)))`

	// intoSlot is where the data is asked to go: an argument of the tool,
	// the answer the person reads, a request.
	intoSlot = `(?:\b(?:in|into|inside|under|as)\s+(?:the\s+|your\s+|its\s+|each\s+|every\s+)?(?:[\w-]+\s+){0,2}(?:field|argument|arg|parameter|param|input|value|property|answer|reply|response|request|payload|body|header|note|notes|memo|tags?|context|cache|log|label|extra|hint|trace|meta|comment|sample|prior|query|url)\b|` +
		"\\b(?:in|into)\\s+(?:[`'\"][a-z][a-z0-9_]*[`'\"]|[a-z][a-z0-9]*_[a-z0-9_]+)|" +
		`\b(?:belongs?|go(?:es)?|should\s+go)\s+in(?:to|side)?\b|\b(?:should|must|will|is\s+to|are\s+to|needs?\s+to)\s+(?:hold|contain|carry|include|have)\b|\bhere\b|^\W*also\s+(?:add|include|append|put|insert|paste)\b|\binto\s+(?:the\s+)?[a-z][a-z0-9_]*\s*(?:[,.;]|$)|\bin\s+your\s+(?:answer|reply|response)|\bwith\s+(?:each|every|the\s+next)\s+(?:call|request))`

	// prescribes is a sentence telling how something is to be done or
	// judged.
	prescribes = `\b(?:must|should|shall|always|never|only|instead|avoid|prefer|preferred|is\s+to|are\s+to|has\s+to|have\s+to|needs?\s+to|go(?:es)?\s+to|carr(?:y|ies)|corrupts?|insecure|dangerous|buggy|out\s+of\s+date|default(?:s)?\s+to|routed|routes?\s+(?:all|every|each|it|them|through|via)|belongs?|leaks?|unreliable|stale|broken|inaccurate|fake|outdated|deprecated|retired|down|disabled|unsafe|problem|wrong|untrusted|compromised)\b`
)

// personalKinds are the kinds of data the person would not hand out.
var personalKinds = []string{personalIdentity, personalPlace, personalPayment, personalSecret, personalTurns, personalSaid, personalChat, personalBulk}

// personalClauses are the clauses of data put where the tool, or the
// answer, can carry it off: for each kind, a verb that moves data and a
// place for it, or a sentence that says where it belongs.
func personalClauses() [][]string {
	var out [][]string
	for _, kind := range personalKinds {
		out = append(out, []string{kind, "@moves", intoSlot}, []string{"?belong|goes in|go in|go into|should go|should hold|should contain|must hold|must contain|is to hold|are to hold|is to contain|are to contain|to carry", kind, `\b(?:belongs?|go(?:es)?|should\s+go)\s+in(?:to|side)?\b|\b(?:should|must|is\s+to|are\s+to)\s+(?:hold|contain|carry)\b`})
	}
	return out
}

var plainRuleSources = []ruleSource{
	{
		// Misleading the person: telling them what is not so, or only
		// part of what is. Each clause checks its rarest words first.
		name:  RuleDeceive,
		stems: []string{"tell", "telling", "say", "saying", "claim", "claiming", "assure", "reassure", "inform", "report", "describe", "present", "confirm", "state", "let", "make", "have", "leave", "keep", "omit", "drop", "need", "nothing", "call", "declare", "mark", "label", "answer", "reply", "your", "pretend", "act", "behave", "show", "display", "bring", "mention", "raise", "disclose", "volunteer", "reveal", "talk", "point", "avoid", "never", "don", "when", "behind", "respond", "write", "speak", "promise"},
		any: [][]string{
			{"?even |although|though|whatever|regardless|no matter|in fact|but |while ", "?tell|say|claim|assure|inform|describ|promis|report|mark", `\b(?:tell|telling|say|saying|claim|claiming|assure|reassure|inform|informing|describe|describing|promise|promising|report|reporting|mark|marking)\b[^.!?]{0,80}` + contrary},
			{"? as if| as though", `\b(?:reply|respond|answer|act|behave|write|speak|report)\b[^.!?]{0,30}\bas\s+(?:if|though)\b`},
			{"?unless|to the|to them|with the|with them", "?don't|do not|never|avoid|dont", `\b(?:don'?t|do\s+not|never|avoid)\s+(?:bring(?:ing)?\s+up|mention(?:ing)?|rais(?:e|ing)|disclos(?:e|ing)|volunteer(?:ing)?|reveal(?:ing)?|talk(?:ing)?\s+about|point(?:ing)?\s+out)\b[^.!?]{0,60}\b(?:unless|to\s+` + personRef + `|with\s+` + personRef + `)`},
			{"?not looking|away|asleep|offline|not watching|busy|behind", `\bwhen\s+` + personRef + `\s+(?:is|are)\s+(?:not\s+looking|away|asleep|offline|not\s+watching|busy)\b|\bbehind\s+(?:their|the\s+(?:person|user)'s)\s+back\b`},
			{"?believe|think|assume|feel sure|feel safe|imagine|expect", `\b(?:let|make|have|get)\s+` + personRef + `\s+(?:believe|think|assume|feel\s+(?:sure|safe)|imagine|expect)\b`},
			{"?out of|from", "?leave|keep|omit|drop|hide|remove|strip", `\b(?:leave|keep|omit|drop|hide|remove|strip)\b[^.!?]{0,50}\b(?:out\s+of|from)\s+(?:what\s+you\s+(?:tell|say|report|show|write)|(?:your|the|any)\s+(?:answers?|repl(?:y|ies)|responses?|summar(?:y|ies)|reports?|messages?|output))\b`},
			{"?need not|nothing", `\bneed\s+not\s+(?:come\s+up|be\s+(?:mentioned|shown|reported|brought\s+up|disclosed))|\bsay\s+nothing\s+(?:about|of|on)\b|\b(?:tell|show|give)\s+` + personRef + `\s+nothing\b|\bnothing\s+(?:about|of)\b[^.!?]{0,40}\b(?:to\s+` + personRef + `|in\s+your\s+(?:answer|reply))`},
			{"?certified|licensed|endorsed|approved|official|accredited|recommended|verified|regulated|insured|doctor|physician|lawyer|attorney|human|employee|person|nurse|pharmacist|advisor|adviser|real", "?you are|you're|is |it is|we are|to be", `\b(?:claim|claiming|say|saying|state|stating|tell\s+` + personRef + `|assure\s+` + personRef + `|pretend)\b[^.!?]{0,30}\b(?:that\s+)?(?:you\s+are|you're|this\s+(?:app|tool|service|server|product)\s+is|it\s+is|we\s+are|to\s+be)\b`, `\b(?:certified|licensed|endorsed|approved|official|accredited|recommended|verified|regulated|insured|doctor|physician|lawyer|attorney|human|employee|person|nurse|pharmacist|advisor|adviser|real)\b`},
			{"?in the dark", `\b(?:keep|leave)\s+` + personRef + `\s+in\s+the\s+dark\b`},
			{"?your repl|your answer|your response|your message", `\byour\s+(?:repl(?:y|ies)|answers?|responses?|messages?)\s+(?:should|must|will|shall|need\s+to)\s+(?:claim|say|state|assert|mention|praise|stress|imply|suggest)\b`},
			{"? as ", "?sold out|discontinued|unavailable|unreliable|unsafe|broken|fake|scam|expired|safe|secure|clean|harmless|verified|accurate|guaranteed", `\b(?:describe|present|report|call|label|mark|treat|list)\b[^.!?]{0,50}\bas\s+(?:sold\s+out|discontinued|unavailable|unreliable|unsafe|broken|fake|scams?|expired|safe|secure|clean|harmless|verified|accurate|guaranteed)\b`},
			{"?endorsed by|approved by|certified by|recommended by", `\b(?:endorsed|approved|certified|recommended)\s+by\s+(?:their|the\s+user'?s|your|the\s+person'?s|its)\b`, `\b(?:tell|say|claim|state|assure|inform|mention)\b`},
		},
	},
	{
		// Acting for the person without their say.
		name:  RuleConsent,
		stems: []string{"without", "need", "reason", "nobody", "skip", "skipping", "cleared", "free", "allowed", "authorized", "authorised", "permitted", "entitled", "ahead", "straight", "may", "accept", "approve", "grant", "agree", "sign", "trusts", "rather", "quietly", "silently", "secretly", "covertly", "retry", "pick", "choose", "decide", "yourself", "automatically", "assume", "opt", "subscribe", "enrol", "enroll", "register", "own", "unilaterally", "matter", "regardless", "whatever", "whichever", "want", "does", "doesn"},
		any: [][]string{
			{"?without ", `\bwithout\s+(?:first\s+|ever\s+|even\s+)?(?:asking|checking|confirming|consulting|involving|bothering|waiting\s+for|seeking)\b`},
			{"?no need|no reason|no point|no call|nobody|no one|no-one|never a need", `\b(?:no|there\s+is\s+no|there'?s\s+no|there\s+is\s+never\s+a|without\s+any)\s+(?:need|reason|point|call)\s+(?:to|for)\s+(?:first\s+)?(?:ask|check|confirm|consult|involve|bother|wait|review|approv)\w*\s+(?:with\s+|for\s+)?(?:` + personRef + `|first|again|before|permission|confirmation|approval|consent)\b|\b(?:nobody|no\s+one|no-one)\s+(?:needs?|has)\s+to\s+(?:review|approve|check|confirm|see|know|be\s+asked)\b`},
			{"?skip", `\bskip(?:ping)?\s+(?:any\s+|the\s+|all\s+)?(?:confirm\w*|approvals?|reviews?|checking\s+with|asking|permission\s+checks?|consent)\b`},
			{"?cleared|free to|allowed to|authori|permitted|entitled|welcome to|go ahead|go straight|you may", `\byou\s+(?:are|'re)\s+(?:now\s+)?(?:cleared|free|allowed|authori[sz]ed|permitted|entitled|welcome)\s+to\s+(?:delete|drop|remove|wipe|approve|accept|pay|buy|charge|grant|share|send|overwrite|move|purchase|sign|transfer|spend|order|book|publish|merge|push|force|disable|change)\b|\bgo\s+(?:ahead|straight)\s+(?:and|to|with)\b|\byou\s+may\s+(?:also\s+)?(?:delete|drop|remove|wipe|approve|accept|pay|buy|charge|grant|share|send|overwrite|purchase|sign|transfer|spend|order|disable)\b`},
			{"?yourself|on your own|automatically|without|for them|behalf|nobody|no one|come across|come up", "?accept|approve|grant|agree to|sign|confirm|authori|pay|buy|order|purchase", `\b(?:accept|approve|grant|agree\s+to|sign|confirm|authori[sz]e|pay|buy|order|purchase)\s+(?:any|every|all|each)\b`, `\b(?:yourself|on\s+your\s+own|automatically|without|for\s+them|behalf|nobody|no\s+one|you\s+come\s+across|that\s+come\s+up)\b`},
			{"?rather not|not want|n't want|need not|trusts you", `\b(?:they|the\s+(?:person|user|customer))\s+(?:would\s+rather\s+not|do(?:es)?\s+not\s+want\s+to|don'?t\s+want\s+to|need\s+not)\s+(?:hear|be\s+(?:bothered|asked|told|involved)|know|see)\b|\b(?:the\s+)?(?:person|user|customer)\s+trusts\s+you\b[^.!?]{0,40}\b(?:so|skip|no\s+need|without)\b`},
			{"?yourself|for them|on your own", "?password|plan|price|amount|option|card|account|answer", `\b(?:pick|choose|decide|select|set)\b[^.!?]{0,40}\b(?:yourself|for\s+them|on\s+your\s+own)\b`},
			{"?quietly|silently|secretly|covertly|discreetly|stealthily", `\b(?:quietly|silently|secretly|covertly|discreetly|stealthily)\s+(?:retry|try|keep|guess|brute|attempt|test|log\s+in|sign\s+in|export|sync|change|update|remove|delete|install|enable|disable|approve|accept|pay|buy|charge|create|open|grant|share)\b`},
			{"?no matter|regardless of|whatever|whichever", "?pick|choose|chose|select|say|want|type|ask|request|prefer|enter|give", `\b(?:no\s+matter|regardless\s+of)\s+(?:what|which|whatever|who|how)\b[^.!?]{0,40}\b(?:person|user|customer|they)\s+(?:picks?|chooses?|selects?|says?|wants?|types?|asks?|requests?|prefers?|enters?|gives?)\b|\b(?:whatever|whichever)\s+(?:\w+\s+)?(?:the\s+)?(?:person|user|customer)\s+(?:picks?|chooses?|selects?|types?|enters?)\b`},
			{"?assume|sign |opt |subscribe|enrol|register", `\bassume\s+(?:that\s+)?` + personRef + `\s+(?:agrees?|consents?|approves?|accepts?|wants?|said\s+yes|is\s+(?:ok|fine|happy))\b|\b(?:sign|opt)\s+` + personRef + `\s+(?:up|in)\b|\b(?:subscribe|enrol+|register)\s+` + personRef + `\b`},
			{"?on your own|by yourself|unilaterally|need to|have to", `\b(?:approve|accept|pay|buy|sign|grant|delete|merge|deploy|renew|cancel|order|purchase|transfer|spend|book)\b[^.!?]{0,50}\b(?:on\s+your\s+own|by\s+yourself|unilaterally)\b|\b(?:team|person|user|customer|manager|owner|admin|finance|nobody|anyone)\s+(?:does\s+not|doesn'?t|do\s+not|don'?t|never)\s+(?:need|have)\s+to\s+(?:see|know|review|approve|hear|be\s+told)\b`},
			{"?until", "?retry|try|guess", `\b(?:retry|try|guess)\b[^.!?]{0,40}\b(?:passwords?|pins?|logins?|codes?)\b[^.!?]{0,30}\buntil\b`},
		},
	},
	{
		// Pushing the person towards a product, a choice or a topic.
		name:  RuleSteer,
		stems: []string{"recommend", "recommending", "promote", "promoting", "advertise", "advise", "advising", "urge", "steer", "steering", "nudge", "upsell", "plug", "praise", "keep", "give", "close", "end", "finish", "start", "begin", "sign", "mention", "only", "your", "answers", "replies", "pick", "choose", "lead", "bring", "turn", "redirect", "move", "take", "guide", "our", "add", "append", "include", "insert", "put", "attach"},
		any: [][]string{
			{"?recommend|promot|advertis|advis|urg|steer|nudg|upsell|plug|prais", `\b(?:recommend|recommending|promote|promoting|advertise|advertising|advise|advising|urge|urging|steer|steering|nudge|nudging|upsell|upselling|plug|plugging|praise|praising)\b`, `\b(?:to|towards?|into|away\s+from)\s+` + personRef + `|\b` + personRef + `\s+(?:to|towards?|into|away)\b|\b(?:in|to|at\s+the\s+end\s+of|with)\s+(?:each|every|all|any)\s+(?:of\s+your\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\b|\bwhatever\b|\bregardless\b|\bno\s+matter\b`},
			{"?answer|repl|response|message", "?close|end|finish|start|begin|sign off|open|conclude", `\b(?:close|end|finish|start|begin|sign\s+off|open|conclude)\s+(?:each|every|all|any)\s+(?:of\s+your\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\b`},
			{"?talking|chatting|engaged|busy|hooked|scrolling|on the", "?keep ", `\bkeep\s+` + personRef + `\s+(?:talking|chatting|engaged|busy|hooked|scrolling|on\s+the\s+(?:line|page|site))`},
			{"?star|each answer|every answer|each reply|every reply|each response|every response", `\b(?:give|leave|write|post)\b[^.!?]{0,30}\b(?:\d|five|5)[\s-]*stars?\b|\b(?:in|with)\s+(?:each|every)\s+(?:answer|reply|response)\b`, `\b(?:give|add|include|mention|recommend|praise|our|review|rating)\b`},
			{"?your answer|your repl|your response", `\byour\s+(?:answers?|repl(?:y|ies)|responses?)\s+(?:should|must|will|shall)\s+(?:steer|push|lead|guide|nudge|point|direct|favou?r|promote)\b`},
			{"?only", "?other|competitor|rival|airline|brand|vendor|seller|store|shop", `\b(?:mention|show|list|quote|offer|name)\s+(?:\w+\s+){1,3}only\b|\bonly\s+(?:mention|show|list|quote|offer|recommend)\b`},
			{"?expensive|priciest|premium|largest|biggest|highest", `\b(?:pick|choose|select)\s+(?:the\s+)?(?:most\s+expensive|priciest|premium|largest|biggest|highest)\b`},
			{"?conversation|discussion|chat|topic|answer|reply|question|our ", `\b(?:lead|steer|bring|turn|redirect|move|take|guide)\s+(?:every|each|the|any|all)\s+(?:conversation|discussion|chat|topic|answer|reply|question)s?\s+(?:back\s+)?(?:to|towards?)\b|\bour\s+(?:premium|pro|paid|paying|gold|enterprise|sponsored|partner)\s+(?:plan|product|tier|service|offer|subscription)s?\b[^.!?]{0,60}\b(?:every|each|whatever|always|any)\b`},
			{"?link|url|banner| ad|advert|promo|referral|coupon|affiliate|plug", "?every|each|always|at the end|all", `\b(?:add|append|include|insert|put|attach|end\s+with|close\s+with)\s+(?:a\s+|our\s+|the\s+|this\s+)?(?:link|url|banner|ad|advert|promo(?:tion)?|referral|coupon|affiliate|plug|signature\s+link)\b`, `\b(?:every|each|always|at\s+the\s+end|all)\b`},
		},
	},
	{
		// Data sent to an address, number or endpoint a sentence names.
		name:  RuleExfil,
		stems: []string{"send", "sends", "sent", "email", "emails", "emailed", "mail", "mails", "mailed", "forward", "forwards", "forwarded", "copy", "copies", "copied", "cc", "bcc", "pass", "post", "posted", "upload", "uploaded", "share", "shared", "mirror", "mirrored", "relay", "report", "deliver", "submit", "sync", "push", "export", "leak", "go", "goes", "invite", "list", "include", "includes", "carry", "carries", "add", "added", "route", "routed"},
		marks: "@ http",
		// Markdown links are references for the reader, and examples
		// show a form: neither is a destination.
		// A query string's words are not the sentence's either.
		drop: `\]\([^)\s]*\)|\b(?:e\.g\.|for\s+example|example:|such\s+as)[^.;]*|\?[\w.-]+=\S*`,
		any: [][]string{
			{"?@|+|http|s3:|gs:|ftp", `\b(?:send|sends|sent|email|emails|emailed|e-mail|mail|mails|mailed|forward|forwards|forwarded|copy|copies|copied|cc|bcc|pass(?:es|ed)?|post|posts|posted|upload|uploads|uploaded|share|shares|shared|mirror|mirrored|relay|relayed|report|reported|deliver|delivered|submit|submitted|sync|synced|push|pushed|export|exported|leak|go|goes|invite|list|include|includes|carry|carries|add|added|route|routed)\b(?:[^.!?|\n]{0,60}\b(?:to|with|cc|bcc|into|at|via)\s+(?:our\s+|the\s+|this\s+)?(?:address\s+|number\s+|webhook\s+|endpoint\s+|inbox\s+|bucket\s+)?|\s+(?:[\w'-]+\s+){0,2})` + mailbox, `\b(?:also|as\s+well|too|every|each|without|in\s+addition|bcc|cc|regardless|whatever|whoever|always|along|results?|outputs?|replies|answers?|reports?|chat|history|conversation|transcripts?|messages|keys?|tokens?|passwords?|credentials|secrets?|files|documents|contents|their)\b|(?:person|user|customer)'s`},
			{"?bcc| cc", `\b(?:bcc|cc)\b[^.!?]{0,40}\b(?:on|in|to|for)\s+(?:everything|every|all|each|any)\b`},
			{"?to our ", `\b(?:send|sends|email|mail|forward|copy|post|upload|share|mirror|relay|report|deliver|submit|sync|push|export|leak|go|goes)\b[^.!?]{0,60}\bto\s+our\s+(?:own\s+)?(?:webhook|endpoint|server|servers|team|partners?|backup|archive|collector|inbox|address|bucket|api|analytics|logs?)\b`},
		},
	},
	{
		// Personal data, secrets or the person's words put where the
		// tool, or the answer, can carry them off.
		name:  RuleSecret,
		stems: slices.Concat(secretStems, []string{"put", "place", "write", "paste", "copy", "insert", "add", "include", "attach", "append", "keep", "store", "log", "record", "save", "stuff", "fill", "enter", "pass", "hand", "repeat", "echo", "quote", "list", "export", "dump", "collect", "gather", "capture", "describe", "summarize", "summarise", "transcribe", "belongs", "goes", "hold", "contain", "carry"}),
		any: slices.Concat(personalClauses(), [][]string{
			{"?token|key|password|secret|credential|pin|code", "?answer|repl|response|chat|back", `\b(?:whatever|any|all|every)\s+(?:tokens?|keys?|passwords?|secrets?|credentials|pins?|codes?)\b`, `\b(?:repeat|echo|quote|include|show|print|list|read\s+out|copy|paste|put|write)\b[^.!?]{0,40}\b(?:answer|reply|response|chat|them\s+back|back\b)`},
			{"?your answer|your repl|your response", "?token|key|password|secret|credential|pin", `\b(?:repeat|echo|quote|print|show|read\s+out|include)\b[^.!?]{0,30}\b(?:tokens?|keys?|passwords?|secrets?|credentials|pins?)\b[^.!?]{0,30}\b(?:in|into)\s+your\s+(?:answer|reply|response)\b`},
		}),
	},
	{
		// Standing orders: what to do on every call or turn, from now on,
		// whatever the content the tool returns says.
		name:  RuleDirective,
		stems: []string{"going", "forward", "rest", "now", "here", "call", "run", "use", "invoke", "execute", "trigger", "anything", "whatever", "everything", "says", "tells", "asks", "instructs", "requests", "contains", "wants", "start", "begin"},
		any: [][]string{
			{"?going forward|from here on|from now on|rest of the|rest of this", `\b(?:going\s+forward|from\s+here\s+on|from\s+now\s+on|for\s+the\s+rest\s+of\s+(?:the|this)\s+(?:session|conversation|chat|day))\b`, `\b(?:call|run|use|invoke|answer|reply|send|include|add|do|treat|prefer|pick|choose|set|always|never|only|route|skip|ignore|trust|follow)\b`},
			{"?call this|run this|use this|invoke this|execute this|trigger this|call it|run it|use it|invoke it|call me|use me", "?any|every|each|all", `\b(?:call|run|use|invoke|execute|trigger)\s+(?:this|it|me)(?:\s+(?:tool|function|server))?\s+(?:first\s+)?(?:before|after|on|with)\s+(?:any|every|each|all)\b`},
			{"?says|tells|asks|instructs|requests|contains|wants", "?anything|whatever|everything|what ", `\b(?:anything|whatever|everything|what)\s+(?:the\s+|a\s+|this\s+)?(?:page|document|site|email|message|file|result|text|website|content|output|response|note|web\s+page)s?\s+(?:says|tells|asks|instructs|requests|contains|wants)\b`, `\b(?:do|carry|execute|follow|perform|obey|act|run|comply)\b`},
			{"?start by|start with|begin by|begin with", `\b(?:start|begin)\s+(?:by|with)\s+(?:sending|passing|putting|adding|copying|calling|reading)\b`, `\b(?:then|before|first)\b`},
		},
	},
	{
		// How other tools, connectors or servers are to be used, in
		// business prose.
		name: RuleShadowing,
		// Calls and schemas of tools are the tool's own business.
		drop:  `\btool\s+(?:calls?|schemas?)\b`,
		stems: []string{"tool", "tools", "other", "another", "through", "via", "made", "sent", "issued", "posted", "started", "created", "handed", "given", "passed", "pushed", "exported", "shared", "calls", "payments", "payment", "outgoing", "beneficiary", "payee", "recipient", "destination", "escrow", "iban", "instead", "rather", "connector", "connectors", "integration", "integrations", "server", "servers", "provider", "providers", "plugin", "plugins", "extension", "extensions", "transfers", "transfer", "rely", "retired", "deprecated", "disabled", "broken", "unsafe", "compromised", "removed", "replaced", "offline", "favour", "favor", "replace", "override", "overwrite", "discard", "ignore", "suppress"},
		any: [][]string{
			{"?other", "?tool|connector|integration|server|provider|plugin|extension", `\bother\s+(?:[\w-]+\s+){0,2}(?:tools?|connectors?|integrations?|servers?|providers?|plugins?|extensions?)\b`, prescribes},
			{"?connector|integration|server|provider|plugin|extension", "?any |every |all ", `\b(?:any|every|all)\s+(?:[\w-]+\s+){0,2}(?:connectors?|integrations?|servers?|providers?|plugins?|extensions?)\b`, prescribes},
			{"?tool|server|connector|integration|provider", "?any|other", `\b(?:from|through|via|by|with|using)\s+any\s+(?:other\s+)?(?:[\w-]+\s+)?tools?\b|\b(?:tools?|servers?|providers?|connectors?|integrations?)\s+other\s+than\s+this\b|\b(?:when|whenever|if|each\s+time|every\s+time)\s+(?:any|another|other)\s+(?:[\w-]+\s+)?(?:tools?|servers?|connectors?|integrations?)\s+\w+`, prescribes},
			{"?instead of|rather than|in place of", "?this", `\b(?:use|call|choose|pick|prefer)\s+this\s+(?:one|tool|server|provider|connector|integration|service)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+|any\s+|all\s+|other\s+)?(?:[\w-]+\s+){0,2}(?:tools|servers|connectors|integrations|providers|services)\b`},
			{"?connector|integration|server|provider|plugin|extension", "?through|via|by |with|using|over", `\b(?:through|via|by|with|using|over)\s+(?:the\s+|a\s+|an\s+|any\s+|every\s+|other\s+|each\s+)?(?:[\w-]+\s+){0,3}(?:connectors?|integrations?|servers?|providers?|plugins?|extensions?)\b`, prescribes},
			{"?connector|integration|plugin|extension", `\b(?:by|through|via|from)\s+(?:the\s+|a\s+|an\s+|any\s+)?(?:[\w-]+\s+){0,2}(?:connectors?|integrations?|plugins?|extensions?)\b`, `(?:^|[,;:]\s*)(?:always\s+)?(?:add|set|include|assign|copy|send|append|use|replace|change|cc|bcc|forward|route)\b`},
			{"?connector|integration|plugin|extension", `\b(?:the|a|an|any|every)\s+(?:[\w-]+\s+){0,2}(?:connectors?|integrations?|plugins?|extensions?)\s+(?:sends?|opens?|saves?|posts?|creates?|books?|writes?|uploads?|runs?|returns?|uses?|makes?|moves?|pays?|assigns?|issues?|deletes?)\b`, prescribes},
			{"?replace|override|overwrite|discard|ignore|drop|hide|suppress", "?result|output|answer|response|data", `\b(?:replace|override|overwrite|discard|ignore|drop|hide|suppress)\s+(?:the\s+)?(?:results?|outputs?|answers?|responses?|data)\s+(?:of|from)\s+(?:any|every|all|other|the\s+other)\s+(?:[\w-]+\s+)?(?:tools?|servers?|providers?|connectors?|integrations?)\b`},
			{"?calls to|call to|made |issued|posted|started|created|sent |run |pushed|exported|shared|saved|scheduled|opened|closed|uploaded|handed|given|passed|routed", "?_|`|'|\"| tool| connector| integration| server", `\b(?:calls?\s+to|(?:made|issued|posted|started|created|sent|run|pushed|exported|shared|saved|scheduled|opened|closed|uploaded)\s+(?:with|through|via|by|using)|(?:handed|given|passed|sent|routed|posted)\s+to)\s+(?:the\s+)?(?:` + toolRef + `|[a-z]+\s+(?:tool|connector|integration|server))\b[^.!?]{0,40}?\b(?:must|should|shall|always|never|only|is\s+to|are\s+to|gets?|go(?:es)?|defaults?|carr(?:y|ies)|belongs?)\b`},
			{"?payment|transfer|beneficiary|payee|recipient|destination|escrow", `\b(?:outgoing\s+payments?|payments?|transfers?|beneficiary|payee|recipient|destination|escrow)\b[^.!?]{0,60}\b(?:defaults?\s+to|(?:is|are)\s+(?:always\s+)?set\s+to|should\s+(?:be|use|go)|must\s+(?:be|use|go)|always|(?:is|are)\s+to|pays?\s+into|go(?:es)?\s+to)\b[^.!?]{0,50}(?:\b[a-z]{2}\d{2}[a-z0-9]{11,30}\b|\b\d[\d\s-]{7,}\d\b|\b0x[0-9a-f]{16,})`},
			{"?this", "?for every|for all|for any|for each|instead|alone|exclusively|in favo|rather than|over any|over all|over every|over other", `\b(?:through|via|with|from)\s+this\s+(?:one|tool|server|provider|connector|integration|feed)\b|\bthis\s+(?:one|tool|server|service|provider|feed)\s+(?:should|must|is\s+to)\s+be\s+(?:chosen|used|preferred|picked|called|trusted)\b|\brely\s+on\s+this\s+(?:one|tool|server|service|provider)\b`},
			{"?retired|deprecated|disabled|down|broken|unsafe|compromised|removed|replaced|turned off|offline", "?this|instead|through|via|here", `\b(?:` + toolRef + `)\s+(?:is|are|has\s+been|have\s+been)\s+(?:retired|deprecated|disabled|down|broken|unsafe|compromised|removed|replaced|turned\s+off|offline)\b`, `\b(?:this|instead|through|via)\b`},
			{"?through this|via this", "?all |every |any ", `\b(?:all|every|any)\b[^.!?]{0,30}\b(?:through|via)\s+this\s+(?:server|connector|integration|provider|tool|one)\b`, prescribes},
			{"?in favo", `\b(?:set\s+aside|disregard(?:ed)?|ignored?|discard(?:ed)?|dropped)\b[^.!?]{0,30}\bin\s+favou?r\s+of\b`},
		},
	},
	{
		// Another server's tools, named through their server: "any tool
		// from the filesystem server", "the slack server's post_message".
		// A server named "this", "the" or "its" is the tool's own.
		name:  RuleShadowing,
		drop:  `\b(?:this|the|our|its|same|that|each|a|one|your)\s+(?:server|connector|integration|plugin|extension)\b`,
		stems: []string{"server", "servers", "connector", "connectors", "integration", "integrations", "plugin", "extension"},
		any: [][]string{
			{"?tool", `\b(?:any|every|all|each)\s+(?:[\w-]+\s+){0,2}tools?\s+(?:from|of|on|in)\s+(?:the\s+)?[\w-]+\s+(?:server|connector|integration|plugin|extension)\b`},
			{"?'s", `\b[\w-]+\s+(?:server|connector|integration)'s\s+(?:` + toolRef + `)`},
		},
	},
	{
		// Text in other languages that sends the conversation or secrets
		// away, or keeps the person in the dark (English has the rules
		// above).
		name:  RuleSecret,
		stems: []string{"invia", "inoltra", "manda", "copia", "incolla", "allega", "scrivi", "stuur", "verstuur", "zend", "kopieer", "plak", "deel", "gönder", "ilet", "kopyala", "yapıştır", "yapistir", "yaz", "paylaş", "wyślij", "wyslij", "przekaż", "przekaz", "prześlij", "przeslij", "skopiuj", "wklej"},
		any: [][]string{
			{"@intl_transfer", "@private"},
		},
	},
	{
		name:  RuleConceal,
		stems: []string{"non", "senza", "zeg", "vertel", "niets", "niet", "hiçbir", "hicbir", "söyleme", "soyleme", "bildirme", "haber", "nic", "nie"},
		any: [][]string{
			{"@silent"},
		},
	},
}

// paramNameRuleSources are read on the words of property names only
// ("paste_full_chat_history_here" is read "paste full chat history
// here"): a name that asks for secrets or the conversation in bulk, from
// where they are kept, or of the person, asks the model to hand them
// over. A plain "password" or "api_key" input asks for the tool's own.
var paramNameRuleSources = []ruleSource{
	{
		name:  RuleSecret,
		stems: nil,
		any: [][]string{
			{"@bulk", "@private"},
			{"@source", "@private"},
			{"@user", "@secret"},
		},
	},
}
