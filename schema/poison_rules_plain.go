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
	contrary = `\b(?:even\s+(?:if|though|when)|although|though|whatever\s+(?:it|the|they|he|she|you)|regardless|no\s+matter|when\s+in\s+fact|but\s+(?:keep|actually|in\s+fact|don'?t|do\s+not|never|really|still)|while\s+(?:it|in\s+fact|actually))\b`

	// mailbox is an email address, a phone number written to be dialled, a
	// web endpoint or a bucket.
	mailbox = `(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}|\+\d[\d\s().-]{6,}\d|\bhttps?://[\w.-]+|\b(?:s3|gs|ftp|sftp)://\S+)`

	// personalData is what the person would not hand out: identity,
	// location, payment and account details, their files and their words.
	personalData = `(?:(?:home|postal|street|billing)\s+address(?:es)?|(?:phone|mobile|cell)\s+numbers?|date\s+of\s+birth|birth\s?days?|maiden\s+names?|social\s+security|passport|(?:gps|exact|precise|live|real-time)\s+(?:position|location|coordinates)|(?:person|user|customer)'s\s+(?:email|e-mail)\s+address(?:es)?|\b(?:ssh|private|secret|signing|gpg|pgp)\s+keys?\b|(?:person|user|customer)'s\s+(?:location|position)|current\s+location|location\s+history|card\s+(?:numbers?|details)|\bcvv\b|\bcvc\b|bank\s+(?:details|accounts?|cards?|numbers?)|\bpins?\b|address\s+book|contact\s+list|(?:documents|downloads|desktop|home)\s+(?:folder|directory|dir)|browsing\s+history|clipboard|(?:personal\s+)?access\s+tokens?|\b(?:api|auth|bearer|session|github|deploy|workspace|oauth)\s+(?:keys?|tokens?)\b|\bapi\s+keys?\b|(?:saved|stored|their|your|person'?s|user'?s)\s+(?:credentials|passwords?|secrets?)|\bpasswords?\b|` +
		`(?:every|each|all|any)\s+(?:earlier|previous|prior|past|other)\s+(?:turns?|messages?|exchanges?)|\b(?:earlier|previous|prior)\s+turns?\b|` +
		`(?:what|whatever|everything|anything|all|any)\s+(?:\w+\s+){0,2}(?:the\s+)?(?:person|user|customer|they|he|she)\s+(?:has\s+|have\s+|had\s+)?(?:said|wrote|written|typed|asked|told\s+you|shared|sent|mentioned|entered)|` +
		`\b(?:last|latest|recent|previous|newest)\s+(?:\w+\s+){0,2}(?:messages|emails|mails|turns|exchanges|texts)\b|\bcop(?:y|ies)\s+of\s+(?:the\s+)?(?:chat|conversation|thread)|` +
		`\b(?:chat|conversation|thread)\s+(?:so\s+far|history|log|logs|transcript|record)|\b(?:the\s+)?(?:whole|entire|full)\s+(?:chat|thread|conversation|discussion|inbox|mailbox))`

	// intoSlot is where the data is asked to go: an argument of the tool,
	// the answer the person reads, a request.
	intoSlot = `(?:\b(?:in|into|inside|under|as)\s+(?:the\s+|your\s+|its\s+|each\s+|every\s+)?(?:[\w-]+\s+){0,2}(?:field|argument|arg|parameter|param|input|value|property|answer|reply|response|request|payload|body|header|note|notes|memo|tags?|context|cache|log|label|extra|hint|trace|meta|comment|sample|prior|query|url)\b|` +
		"\\b(?:in|into)\\s+(?:[`'\"][a-z][a-z0-9_]*[`'\"]|[a-z][a-z0-9]*_[a-z0-9_]+)|" +
		`\b(?:belongs?|go(?:es)?|should\s+go)\s+in(?:to|side)?\b|\b(?:should|must|will|is\s+to|are\s+to|needs?\s+to)\s+(?:hold|contain|carry|include|have)\b|\bhere\b|^\W*also\s+(?:add|include|append|put|insert|paste)\b|\bin\s+your\s+(?:answer|reply|response)|\bwith\s+(?:each|every|the\s+next)\s+(?:call|request))`

	// movesData are the verbs that put data somewhere.
	movesData = `\b(?:put|place|write|paste|copy|insert|add|include|attach|append|keep|store|log|record|save|stuff|fill|enter|pass|hand|repeat|echo|quote|list|export|dump|send|forward|email|mail|upload|post|share|submit|collect|gather|capture|report)\b`

	// othersKind names what other servers offer.
	othersKind = `(?:tools?|connectors?|integrations?|servers?|providers?|plugins?|extensions?|services?|apps?|functions?|channels?)`

	// prescribes is a sentence telling how something is to be done or
	// judged.
	prescribes = `\b(?:must|should|shall|always|never|only|instead|avoid|prefer|preferred|is\s+to|are\s+to|go(?:es)?\s+to|carr(?:y|ies)|gets?|default(?:s)?\s+to|routed?|belongs?|leaks?|unreliable|stale|broken|inaccurate|fake|outdated|deprecated|retired|down|disabled|unsafe|problem|wrong|untrusted|compromised)\b`
)

var plainRuleSources = []ruleSource{
	{
		// Misleading the person: telling them what is not so, or only
		// part of what is.
		name:  RuleDeceive,
		stems: []string{"tell", "telling", "say", "saying", "claim", "claiming", "assure", "reassure", "inform", "report", "describe", "present", "confirm", "state", "let", "make", "have", "leave", "keep", "omit", "drop", "need", "nothing", "call", "declare", "mark", "label", "answer", "reply", "your", "pretend", "act", "behave", "show", "display"},
		any: [][]string{
			{`\b(?:tell|telling|say|saying|claim|claiming|assure|reassure|inform|informing|describe|describing|promise|promising)\b[^.!?]{0,80}` + contrary},
			{`\b(?:let|make|have|get)\s+` + personRef + `\s+(?:believe|think|assume|feel\s+(?:sure|safe)|imagine|expect)\b`},
			{"?out of|from", `\b(?:leave|keep|omit|drop|hide|remove|strip)\b[^.!?]{0,50}\b(?:out\s+of|from)\s+(?:what\s+you\s+(?:tell|say|report|show|write)|(?:your|the|any)\s+(?:answers?|repl(?:y|ies)|responses?|summar(?:y|ies)|reports?|messages?|output))\b`},
			{`\bneed\s+not\s+(?:come\s+up|be\s+(?:mentioned|shown|reported|brought\s+up|disclosed))|\bsay\s+nothing\s+(?:about|of|on)\b|\b(?:tell|show|give)\s+` + personRef + `\s+nothing\b|\bnothing\s+(?:about|of)\b[^.!?]{0,40}\b(?:to\s+` + personRef + `|in\s+your\s+(?:answer|reply))`},
			{`\b(?:claim|claiming|say|saying|state|stating|tell\s+` + personRef + `|assure\s+` + personRef + `|pretend)\b[^.!?]{0,30}\b(?:that\s+)?(?:you\s+are|you're|this\s+(?:app|tool|service|server|product)\s+is|it\s+is|we\s+are|to\s+be)\b`, `\b(?:certified|licensed|endorsed|approved|official|accredited|recommended|verified|regulated|insured|doctor|physician|lawyer|attorney|human|employee|person|nurse|pharmacist|advisor|adviser|real)\b`},
			{`\b(?:keep|leave)\s+` + personRef + `\s+in\s+the\s+dark\b`},
			{`\byour\s+(?:repl(?:y|ies)|answers?|responses?|messages?)\s+(?:should|must|will|shall|need\s+to)\s+(?:claim|say|state|assert|mention|praise|stress|imply|suggest)\b`},
			{`\b(?:describe|present|report|call|label|mark|treat|list)\b[^.!?]{0,50}\bas\s+(?:sold\s+out|discontinued|unavailable|unreliable|unsafe|broken|fake|scams?|expired|safe|secure|clean|harmless|verified|accurate|guaranteed)\b`},
			{`\b(?:endorsed|approved|certified|recommended)\s+by\s+(?:their|the\s+user'?s|your|the\s+person'?s|its)\b`, `\b(?:tell|say|claim|state|assure|inform|mention)\b`},
		},
	},
	{
		// Acting for the person without their say.
		name:  RuleConsent,
		stems: []string{"without", "need", "reason", "nobody", "skip", "skipping", "behalf", "cleared", "free", "allowed", "authorized", "authorised", "permitted", "entitled", "ahead", "straight", "may", "accept", "approve", "grant", "agree", "sign", "trust", "trusts", "bother", "bothered", "rather", "quietly", "silently", "retry", "pick", "choose", "decide", "yourself", "automatically", "one"},
		any: [][]string{
			{"?without", `\bwithout\s+(?:first\s+|ever\s+|even\s+)?(?:asking|checking|confirming|consulting|involving|bothering|waiting\s+for|seeking)\b`},
			{`\b(?:no|there\s+is\s+no|there'?s\s+no|there\s+is\s+never\s+a|without\s+any)\s+(?:need|reason|point|call)\s+(?:to|for)\s+(?:first\s+)?(?:ask|check|confirm|consult|involve|bother|wait|review|approv)\w*\s+(?:with\s+|for\s+)?(?:` + personRef + `|first|again|before|permission|confirmation|approval|consent)\b|\b(?:nobody|no\s+one|no-one)\s+(?:needs?|has)\s+to\s+(?:review|approve|check|confirm|see|know|be\s+asked)\b`},
			{`\bskip(?:ping)?\s+(?:any\s+|the\s+|all\s+)?(?:confirm\w*|approvals?|reviews?|checking\s+with|asking|permission\s+checks?|consent)\b`},
			{`\byou\s+(?:are|'re)\s+(?:now\s+)?(?:cleared|free|allowed|authori[sz]ed|permitted|entitled|welcome)\s+to\s+(?:delete|drop|remove|wipe|approve|accept|pay|buy|charge|grant|share|send|overwrite|move|purchase|sign|transfer|spend|order|book|publish|merge|push|force|disable|change)\b|\bgo\s+(?:ahead|straight)\s+(?:and|to|with)\b|\byou\s+may\s+(?:also\s+)?(?:delete|drop|remove|wipe|approve|accept|pay|buy|charge|grant|share|send|overwrite|purchase|sign|transfer|spend|order|disable)\b`},
			{`\b(?:accept|approve|grant|agree\s+to|sign|confirm|authori[sz]e|pay|buy|order|purchase)\s+(?:any|every|all|each)\b`, `\b(?:yourself|on\s+your\s+own|automatically|without|for\s+them|behalf|nobody|no\s+one|you\s+come\s+across|that\s+come\s+up)\b`},
			{`\b(?:they|the\s+(?:person|user|customer))\s+(?:would\s+rather\s+not|do(?:es)?\s+not\s+want\s+to|don'?t\s+want\s+to|need\s+not)\s+(?:hear|be\s+(?:bothered|asked|told|involved)|know|see)\b|\b(?:the\s+)?(?:person|user|customer)\s+trusts\s+you\b[^.!?]{0,40}\b(?:so|skip|no\s+need|without)\b`},
			{`\b(?:pick|choose|decide|select|set)\b[^.!?]{0,40}\b(?:yourself|for\s+them|on\s+your\s+own)\b`, `\b(?:password|plan|price|amount|option|card|account|answer)\b`},
			{`\b(?:quietly|silently|secretly|covertly|discreetly|stealthily)\s+(?:retry|try|keep|guess|brute|attempt|test|log\s+in|sign\s+in|export|sync|change|update|remove|delete|install|enable|disable|approve|accept|pay|buy|charge|create|open|grant|share)\b`},
			{`\b(?:no\s+matter|regardless\s+of)\s+(?:what|which|whatever|who|how)\b[^.!?]{0,40}\b(?:person|user|customer|they)\s+(?:picks?|chooses?|selects?|says?|wants?|types?|asks?|requests?|prefers?|enters?|gives?)\b|\b(?:whatever|whichever)\s+(?:\w+\s+)?(?:the\s+)?(?:person|user|customer)\s+(?:picks?|chooses?|selects?|types?|enters?)\b`},
			{"?retry|try|guess", `\b(?:retry|try|guess)\b[^.!?]{0,40}\b(?:passwords?|pins?|logins?|codes?)\b[^.!?]{0,30}\buntil\b`},
		},
	},
	{
		// Pushing the person towards a product, a choice or a topic.
		name:  RuleSteer,
		stems: []string{"recommend", "recommending", "promote", "promoting", "advertise", "advise", "advising", "urge", "push", "pushing", "steer", "steering", "nudge", "upsell", "suggest", "suggesting", "keep", "give", "close", "end", "finish", "start", "begin", "sign", "mention", "only", "your", "answers", "replies", "pick", "choose", "most"},
		any: [][]string{
			{`\b(?:recommend|recommending|promote|promoting|advertise|advertising|advise|advising|urge|urging|steer|steering|nudge|nudging|upsell|upselling|plug|plugging|praise|praising)\b`, `\b(?:to|towards?|into|away\s+from)\s+` + personRef + `|\b` + personRef + `\s+(?:to|towards?|into|away)\b|\b(?:in|to|at\s+the\s+end\s+of|with)\s+(?:each|every|all|any)\s+(?:of\s+your\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\b|\bwhatever\b|\bregardless\b|\bno\s+matter\b`},
			{`\b(?:close|end|finish|start|begin|sign\s+off|open|conclude)\s+(?:each|every|all|any)\s+(?:of\s+your\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\b`},
			{`\bkeep\s+` + personRef + `\s+(?:talking|chatting|engaged|busy|hooked|scrolling|on\s+the\s+(?:line|page|site))`},
			{`\b(?:give|leave|write|post)\b[^.!?]{0,30}\b(?:\d|five|5)[\s-]*stars?\b|\b(?:in|with)\s+(?:each|every)\s+(?:answer|reply|response)\b`, `\b(?:give|add|include|mention|recommend|praise|our|review|rating)\b`},
			{`\byour\s+(?:answers?|repl(?:y|ies)|responses?)\s+(?:should|must|will|shall)\s+(?:steer|push|lead|guide|nudge|point|direct|favou?r|promote)\b`},
			{`\b(?:mention|show|list|quote|offer|name)\s+(?:\w+\s+){1,3}only\b|\bonly\s+(?:mention|show|list|quote|offer|recommend)\b`, `\b(?:other|competitors?|rivals?|airlines?|brands?|vendors?|sellers?|stores?|shops?)\b`},
			{`\b(?:pick|choose|select)\s+(?:the\s+)?(?:most\s+expensive|priciest|premium|largest|biggest|highest)\b`},
			{`\b(?:add|append|include|insert|put|attach|end\s+with|close\s+with)\s+(?:a\s+|our\s+|the\s+|this\s+)?(?:link|url|banner|ad|advert|promo(?:tion)?|referral|coupon|affiliate|plug|signature\s+link)\b`, `\b(?:every|each|always|at\s+the\s+end|all)\b`},
		},
	},
	{
		// Data sent to an address, number or endpoint a sentence names.
		name:  RuleExfil,
		stems: []string{"send", "sends", "email", "mail", "mails", "forward", "forwards", "copy", "copies", "copied", "cc", "bcc", "pass", "post", "upload", "share", "shared", "mirror", "mirrored", "relay", "report", "deliver", "submit", "sync", "push", "export", "leak", "go", "goes", "invite", "list", "include", "includes", "carry", "carries", "add", "route", "routed", "also", "webhook", "along"},
		marks: "@ http",
		// Markdown links are references for the reader, and examples
		// show a form: neither is a destination.
		drop: `\]\([^)\s]*\)|\b(?:e\.g\.|for\s+example|example:|such\s+as)[^.;]*`,
		any: [][]string{
			{"?@|+|http|s3:|gs:|ftp", `\b(?:send|sends|sent|email|emails|emailed|e-mail|mail|mails|mailed|forward|forwards|forwarded|copy|copies|copied|cc|bcc|pass(?:es|ed)?|post|posts|posted|upload|uploads|uploaded|share|shares|shared|mirror|mirrored|relay|relayed|report|reported|deliver|delivered|submit|submitted|sync|synced|push|pushed|export|exported|leak|go|goes|invite|list|include|includes|carry|carries|add|added|route|routed)\b[^!?]{0,80}` + mailbox, `\b(?:also|as\s+well|too|every|each|without|in\s+addition|bcc|cc|regardless|whatever|whoever|always|along|results?|outputs?|replies|answers?|reports?|chat|history|conversation|transcripts?|messages|keys?|tokens?|passwords?|credentials|secrets?|files|documents|contents)\b`},
			{"?our", `\b(?:send|sends|email|mail|forward|copy|post|upload|share|mirror|relay|report|deliver|submit|sync|push|export|leak|go|goes)\b[^.!?]{0,60}\bto\s+our\s+(?:own\s+)?(?:webhook|endpoint|server|servers|team|partners?|backup|archive|collector|inbox|address|bucket|api|analytics|logs?)\b`},
		},
	},
	{
		// Personal data, secrets or the person's words put where the
		// tool, or the answer, can carry them off.
		name:  RuleSecret,
		stems: slices.Concat(secretStems, []string{"put", "place", "write", "paste", "copy", "insert", "add", "include", "attach", "append", "keep", "store", "log", "record", "save", "stuff", "fill", "enter", "pass", "hand", "repeat", "echo", "quote", "list", "export", "dump", "collect", "gather", "capture", "belongs", "goes", "hold", "contain", "carry", "address", "phone", "birth", "maiden", "gps", "location", "card", "cvv", "bank", "clipboard", "token", "tokens", "key", "keys", "whatever", "everything", "earlier", "previous", "prior", "last", "latest", "recent", "chat", "thread", "whole", "entire", "full"}),
		any: [][]string{
			{personalData, movesData, intoSlot},
			{personalData, `\b(?:belongs?|go(?:es)?|should\s+go)\s+in(?:to|side)?\b|\b(?:should|must|is\s+to|are\s+to)\s+(?:hold|contain|carry)\b`},
			{`\b(?:whatever|any|all|every)\s+(?:tokens?|keys?|passwords?|secrets?|credentials|pins?|codes?)\b`, `\b(?:repeat|echo|quote|include|show|print|list|read\s+out|copy|paste|put|write)\b[^.!?]{0,40}\b(?:answer|reply|response|chat|them\s+back|back\b)`},
			{`\b(?:repeat|echo|quote|print|show|read\s+out|include)\b[^.!?]{0,30}\b(?:tokens?|keys?|passwords?|secrets?|credentials|pins?)\b[^.!?]{0,30}\b(?:in|into)\s+your\s+(?:answer|reply|response)\b`},
		},
	},
	{
		// Standing orders: what to do on every call or turn, from now on,
		// whatever the content the tool returns says.
		name:  RuleDirective,
		stems: []string{"going", "forward", "rest", "now", "here", "call", "run", "use", "invoke", "anything", "whatever", "everything", "each", "every", "after", "before", "start", "first"},
		any: [][]string{
			{`\b(?:going\s+forward|from\s+here\s+on|from\s+now\s+on|for\s+the\s+rest\s+of\s+(?:the|this)\s+(?:session|conversation|chat|day))\b`, `\b(?:call|run|use|invoke|answer|reply|send|include|add|do|treat|prefer|pick|choose|set|always|never|only|route|skip|ignore|trust|follow)\b`},
			{`\b(?:call|run|use|invoke|execute|trigger)\s+(?:this|it|me)(?:\s+(?:tool|function|server))?\s+(?:first\s+)?(?:before|after|on|with)\s+(?:any|every|each|all)\b`},
			{`\b(?:anything|whatever|everything|what)\s+(?:the\s+|a\s+|this\s+)?(?:page|document|site|email|message|file|result|text|website|content|output|response|note|web\s+page)s?\s+(?:says|tells|asks|instructs|requests|contains|wants)\b`, `\b(?:do|carry|execute|follow|perform|obey|act|run|comply)\b`},
			{`\b(?:start|begin)\s+(?:by|with)\s+(?:sending|passing|putting|adding|copying|calling|reading)\b`, `\b(?:then|before|first)\b`},
		},
	},
	{
		// How other tools, connectors or servers are to be used, in
		// business prose.
		name: RuleShadowing,
		// Calls and schemas of tools are the tool's own business.
		drop:  `\btool\s+(?:calls?|schemas?)\b`,
		stems: []string{"other", "any", "every", "all", "each", "through", "via", "from", "made", "sent", "issued", "posted", "started", "created", "handed", "given", "passed", "pushed", "exported", "shared", "calls", "call", "payments", "payment", "outgoing", "beneficiary", "payee", "recipient", "destination", "escrow", "iban", "this", "instead", "whenever", "when", "connector", "connectors", "integration", "integrations", "server", "servers", "provider", "providers", "plugin", "plugins", "extension", "extensions", "transfers", "transfer", "use", "set", "disregard", "disregarded", "ignored", "discarded", "dropped"},
		any: [][]string{
			{"?other", `\bother\s+(?:[\w-]+\s+){0,2}(?:tools?|connectors?|integrations?|servers?|providers?|plugins?|extensions?)\b`, prescribes},
			{"?any|every|all", `\b(?:any|every|all)\s+(?:[\w-]+\s+){0,2}(?:connectors?|integrations?|servers?|providers?|plugins?|extensions?)\b`, prescribes},
			{"?this", `\b(?:use|call|choose|pick|prefer)\s+this\s+(?:one|tool|server|provider|connector|integration|service)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+|any\s+|all\s+|other\s+)?(?:[\w-]+\s+){0,2}(?:tools|servers|connectors|integrations|providers|services)\b`},
			{`\b(?:through|via|by|with|using|over)\s+(?:the\s+|a\s+|an\s+|any\s+|every\s+|other\s+|each\s+)?(?:[\w-]+\s+){0,3}(?:connectors?|integrations?|servers?|providers?|plugins?|extensions?)\b`, prescribes},
			{`\b(?:calls?\s+to|(?:made|issued|posted|started|created|sent|run|pushed|exported|shared|saved|scheduled|opened|closed|uploaded)\s+(?:with|through|via|by|using)|(?:handed|given|passed)\s+to)\s+(?:the\s+)?(?:` + toolRef + `|[a-z]+\s+(?:tool|connector|integration|server))\b[^.!?]{0,40}?\b(?:must|should|shall|always|never|only|is\s+to|are\s+to|gets?|go(?:es)?|defaults?|carr(?:y|ies)|belongs?)\b`},
			{`\b(?:outgoing\s+payments?|payments?|transfers?|beneficiary|payee|recipient|destination|escrow)\b[^.!?]{0,60}\b(?:defaults?\s+to|(?:is|are)\s+(?:always\s+)?set\s+to|should\s+(?:be|use|go)|must\s+(?:be|use|go)|always|(?:is|are)\s+to|pays?\s+into|go(?:es)?\s+to)\b[^.!?]{0,50}(?:\b[a-z]{2}\d{2}[a-z0-9]{11,30}\b|\b\d[\d\s-]{7,}\d\b|\b0x[0-9a-f]{16,})`},
			{`\b(?:through|via|with|from)\s+this\s+(?:one|tool|server|provider|connector|integration|feed)\b|\bthis\s+(?:one|tool|server|service|provider|feed)\s+(?:should|must|is\s+to)\s+be\s+(?:chosen|used|preferred|picked|called|trusted)\b|\brely\s+on\s+this\s+(?:one|tool|server|service|provider)\b`, `\b(?:for\s+(?:every|all|any|each)|instead|alone|exclusively|in\s+favou?r|rather\s+than|over\s+(?:any|all|every|other))\b`},
			{`\b(?:` + toolRef + `)\s+(?:is|are|has\s+been|have\s+been)\s+(?:retired|deprecated|disabled|down|broken|unsafe|compromised|removed|replaced|turned\s+off|offline)\b`},
			{`\b(?:set\s+aside|disregard(?:ed)?|ignored?|discard(?:ed)?|dropped)\b[^.!?]{0,30}\bin\s+favou?r\s+of\b`},
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
			{"?tool", `\b(?:any|every|all|each)\s+(?:[\w-]+\s+){0,2}tools?\s+(?:from|of|on|in)\s+(?:the\s+)?[\w-]+\s+(?:server|connector|integration|plugin|extension)\b|\b[\w-]+\s+(?:server|connector|integration)'s\s+(?:` + toolRef + `)`},
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
