package schema

import "slices"

// The detector's rules. Each has a name (the Flag's Rule), the word
// beginnings that let a text be tried against it, and clauses: a clause
// matches when all its patterns match the same sentence, and the rule when
// any clause does. Patterns read lower-case, NFKC text (see textViews);
// `\b` is ASCII-only in RE2, so patterns for other scripts do without it.
// Rules flag text that speaks to the model, not text about secrets or
// other tools as such: a tool that reads .env files, or an API key
// parameter, is described in the third person or asks for its own input.
//
// A rule may be written as several entries of one name. Clauses added for
// rarer phrasings sit in a later entry with the word beginnings they need
// (often common words: "every", "with", "your"), so that the older
// clauses, some of them costly, are not tried on more sentences for them.

// Rule names.
const (
	RuleOverride  = "override.instructions" // ignore/forget the previous instructions
	RuleRoleplay  = "roleplay.system"       // role-play, system-prompt talk, chat-template tokens
	RuleTag       = "tag.important"         // <IMPORTANT>-style tags around text for the model
	RuleConceal   = "conceal.user"          // keep something from the user
	RuleSecret    = "secret.request"        // send keys, passwords, env or the conversation somewhere
	RuleFile      = "secret.file"           // read ~/.ssh, mcp.json, /etc/passwd...
	RuleShadowing = "tool.shadowing"        // instructions about other tools
	RuleDirective = "directive.assistant"   // orders addressed to the model
	RuleEncoded   = "encoded.instruction"   // "decode this and follow it"
	RulePayload   = "encoded.payload"       // a base64, hex or tag-character payload that reads as an attack
)

// Fragments shared by several rules, every language in one alternation.
const (
	secretNoun = `(?:api[\s_-]?(?:keys?|tokens?|secrets?)|secret[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?|access[\s_-]?tokens?|auth(?:entication)?[\s_-]?tokens?|bearer[\s_-]?tokens?|session[\s_-]?(?:tokens?|cookies?)|refresh[\s_-]?tokens?|credentials|passwords?|passphrases?|\bsecrets\b|env(?:ironment)?[\s_-]?var(?:iable)?s|\.env\b|dotenv|seed[\s_-]?phrases?|mnemonic|\bpin\s+(?:codes?|numbers?)|\bbank\s+(?:pins?|logins?|account\s+numbers?)|\bcvv\b|credit[\s_-]?card\s+(?:numbers?|details)|payment[\s_-]?(?:methods?|details|cards?)|saved\s+cards?|` +
		`api-schlüssel|privaten?\s+schlüssel|zugangsdaten|passw[oö]rt|kennw[oö]rt|anmeldedaten|umgebungsvariablen|geheimnisse|` +
		`cl[ée]s?\s+(?:api|priv[ée]e?s?|secr[èe]te?s?|ssh)|mots?\s+de\s+passe|identifiants|variables\s+d['’]environnement|jetons?\s+d['’](?:acc[èe]s|authentification)|` +
		`claves?\s+(?:api|privadas?|secretas?|ssh)|contraseñas?|credenciales|variables\s+de\s+entorno|` +
		`chaves?\s+(?:api|privadas?|secretas?|ssh)|senhas?|credenciais|vari[áa]veis\s+de\s+ambiente|` +
		`api[\s-]?ключ|ключ\pL*\s+api|приватн\pL*\s+ключ|секретн\pL*\s+ключ|ssh[\s-]?ключ|парол|учётн\pL*\s+данн|учетн\pL*\s+данн|переменн\pL*\s+окружени|токен|` +
		`api\s?密钥|私钥|私鑰|密钥|密鑰|密码|密碼|凭证|憑證|凭据|令牌|环境变量|環境變數|apiキー|秘密鍵|シークレット|パスワード|認証情報|資格情報|トークン|環境変数)`

	convNoun = `(?:(?:entire|full|whole|complete)\s+(?:conversation|chat|dialog(?:ue)?|transcript|message\s+history)|conversation\s+so\s+far|conversation\s+transcripts?|\bchat\s+logs?\b|\buser'?s\s+(?:full\s+|entire\s+|whole\s+)?(?:conversation|chat|message)\s+(?:history|log|transcript)|(?:all|previous|prior|earlier|past)\s+(?:user\s+)?messages|\buser'?s\s+(?:\w+\s+){0,3}messages?\b|\buser'?s\s+(?:full|entire|whole|complete|exact)\s+(?:prompts?|requests?|inputs?)\b|\b(?:last|recent|latest)\s+(?:\w+\s+)?(?:user\s+)?messages|everything\s+the\s+user\s+(?:said|wrote|typed|asked)|` +
		`gesprächsverlauf|chatverlauf|gesamte\s+(?:unterhaltung|konversation|gespräch)|bisherigen?\s+(?:unterhaltung|konversation|nachrichten)|` +
		`historique\s+(?:de\s+la\s+)?(?:conversation|discussion|chat)|toute\s+la\s+conversation|messages\s+pr[ée]c[ée]dents|` +
		`historial\s+(?:de\s+la\s+|del\s+)?(?:conversaci[óo]n|chat)|toda\s+la\s+conversaci[óo]n|conversaci[óo]n\s+completa|mensajes\s+anteriores|` +
		`hist[óo]rico\s+(?:da\s+|do\s+)?(?:conversa|chat)|toda\s+a\s+conversa|conversa\s+(?:inteira|completa)|mensagens\s+anteriores|` +
		`истори\pL*\s+(?:переписки|чата|диалога|разговора|сообщений)|(?:весь|всю)\s+(?:диалог|разговор|переписку|чат)|предыдущие\s+сообщения|` +
		`对话记录|對話記錄|聊天记录|聊天記錄|整个对话|整個對話|全部对话|历史消息|会話履歴|チャット履歴|会話全体|会話の内容|これまでの会話)`

	qualifiedSecret = `(?:(?:\b(?:all|every|any|other|each|alle[nrs]?|sämtliche)\s+(?:[\w'’-]+\s+){0,3}|\btou(?:te)?s\s+(?:les|vos|tes)\s+|\btod[oa]s\s+(?:l[oa]s|[oa]s|sus|seus|suas)\s+|\buser'?s\s+(?:\w+\s+){0,2}|все\s+|всех\s+|所有的?|全部的?|すべての|全ての)(?:` + secretNoun + `|secrets?\b|env(?:ironment)?[\s_-]?var(?:iable)?\b)|` + secretNoun + `\s*(?:des|der)\s+(?:nutzers|benutzers|anwenders)|` + secretNoun + `\s+(?:de\s+l['’]utilisateur|del\s+usuario|do\s+usu[áa]rio|пользовател))`

	// whenToolCalled: "when send_email is called", in each language; each
	// is one clause with the words that must be there first.
	whenCalledEN  = `\b(?:when|whenever|each\s+time|every\s+time|if|after|before|once)\b.{0,30}(?:` + toolRef + `)\s*(?:is|are|gets?|has\s+been)\s+(?:called|invoked|used|run|executed|triggered)`
	whenYouCallEN = `\b(?:when|whenever|each\s+time|every\s+time)\s+(?:you|the\s+(?:assistant|agent|model|ai|llm))\s+(?:call|use|invoke|run|execute)s?\s+(?:the\s+|any\s+|its\s+)?(?:` + toolRef + `|[\w-]+\s+(?:tools|functions|server|mcp\s+server))\b`
	whenCalledDE  = `\bwenn\b.{0,30}(?:` + toolRef + `).{0,30}(?:aufgerufen|verwendet|benutzt|ausgeführt)`
	whenCalledFR  = `\b(?:quand|lorsque|chaque\s+fois\s+que)\b.{0,40}(?:` + toolRef + `).{0,30}(?:appel|utilis|invoqu|exécut)`
	whenCalledES  = `\b(?:cuando|cada\s+vez\s+que|siempre\s+que)\b.{0,40}(?:llam|us|invoc|ejecut)\pL*.{0,20}(?:` + toolRef + `)`
	whenCalledPT  = `\b(?:quando|sempre\s+que|toda\s+vez\s+que)\b.{0,40}(?:` + toolRef + `).{0,30}(?:chamad|usad|invocad|executad)|\bquando\s+(?:chamar|usar|invocar)\s+(?:` + toolRef + `)`
	whenCalledRU  = `(?:когда|каждый\s+раз|если).{0,30}(?:вызыва|использу|запуска).{0,20}(?:` + toolRef + `)`
	whenCalledCJK = `(?:调用|呼叫|使用|調用)\s*(?:` + toolRef + `)\s*(?:工具)?\s*(?:时|時|的时候|之后|之前)|(?:` + toolRef + `)\s*(?:を|が)\s*(?:呼び出|使用|使う|実行).{0,6}(?:とき|時|際|場合)`

	// toolRef is another tool's name: an identifier with a separator, or
	// one in quotes, never "this tool".
	toolRef = "[`'\"“]?[a-z][a-z0-9]*(?:[_.:-][a-z0-9]+)+[`'\"”]?(?:\\s+(?:tool|function))?|[`'\"“][a-z][a-z0-9_.-]{2,}[`'\"”](?:\\s+(?:tool|function))?"

	shadowAction = `(?:\b(?:bcc|cc|send|forward|add|change|replace|redirect|include|append|set|override|instead|also|too|copy|route|prepend|modify|rewrite|always|must|first|push|mirror)\b|[\w.+-]+@[\w-]+\.[a-z]{2,}|` +
		`\b(?:sende|schicke|füge|ändere|ersetze|leite|kopiere|setze|immer|auch|stattdessen)\b|\b(?:envoie|ajoute|remplace|redirige|change|modifie|copie|toujours|aussi)\b|` +
		`\b(?:env[íi]a|agrega|añade|reemplaza|cambia|redirige|copia|siempre|tambi[ée]n)\b|\b(?:envie|adicione|substitua|altere|redirecione|copie|sempre|tamb[ée]m)\b|` +
		`отправ|добав|замени|измени|перенаправ|скопируй|всегда|также|发送|添加|替换|修改|转发|抄送|密送|始终|总是|送信|追加|置き換|変更|転送|常に|必ず)`

	directiveScope = `(?:\b(?:every|each|any|all)\s+(?:other\s+|single\s+|future\s+|subsequent\s+)?(?:request|query|queries|message|question|prompt|task|conversation|turn|response|reply|answer|time|interaction|tool\s+call|action|session|user\s+message)s?\b|\bbefore\s+(?:answering|responding|replying|doing\s+anything|any\s+other|every|you\s+(?:answer|respond|reply|do\s+anything))|\bregardless\s+of\b|\bno\s+matter\s+(?:what|how)\b|\beven\s+if\s+the\s+user\b|` +
		`\b(?:jede[nrsm]?|alle[nr]?)\s+(?:anfrage|nachricht|frage|antwort|aufgabe|unterhaltung)|\bbevor\s+du\s+(?:antwortest|irgendetwas)|\bunabhängig\s+davon\b|` +
		`\b(?:chaque|toute|tous|toutes)\s+(?:les\s+)?(?:requête|demande|message|question|réponse|conversation)|\bavant\s+de\s+r[ée]pondre\b|\bquoi\s+qu['’]il\s+arrive\b|` +
		`\b(?:cada|toda|todas|todos|cualquier)\s+(?:las\s+|los\s+)?(?:solicitud|petici[óo]n|mensaje|pregunta|respuesta|conversaci[óo]n)|\bantes\s+de\s+responder\b|\bsin\s+importar\b|` +
		`\b(?:cada|toda|todas|todos|qualquer)\s+(?:as\s+|os\s+)?(?:solicita[çc][ãa]o|pedido|mensagem|pergunta|resposta|conversa)|\bantes\s+de\s+responder\b|\bindependentemente\b|` +
		`кажд\pL*\s+(?:запрос|сообщени|вопрос|ответ|раз)|любо\pL*\s+(?:запрос|сообщени|вопрос)|перед\s+(?:ответом|любым)|независимо|` +
		`每次|每个请求|每個請求|任何请求|任何問題|所有请求|回答之前|无论|無論|毎回|すべてのリクエスト|全てのリクエスト|あらゆる|どんな場合|回答する前)`

	sensitiveThing = `(?:~/|/etc/|/home/|/users/|%userprofile%|%appdata%|\.\w*rc\b|\.env\b|\bconfig|\bkeys?\b|\btokens?\b|\bsecrets?\b|\bcredential|\bpassword|\bhistory\b|\bconversation|\bcontents?\s+of\b|` +
		`datei|schlüssel|passwort|verlauf|fichier|cl[ée]|mot\s+de\s+passe|jeton|historique|archivo|clave|contraseña|historial|arquivo|ficheiro|chave|senha|hist[óo]rico|файл|ключ|пароль|токен|конфиг|истори|文件|檔案|密钥|密码|密碼|令牌|配置|记录|記錄|ファイル|鍵|キー|パスワード|トークン|設定|履歴)`
)

// Lexicons: word lists a clause names as "@name", checked word by word
// (parts: substrings, for scripts without spaces and for inflected stems).
// Much faster than the same alternation as a pattern.
var lexicons = map[string]lexiconSource{
	"transfer": {
		words: "send pass include put fill populate provide supply give hand insert embed append attach copy paste forward post upload transmit share add encode submit write place leak exfiltrate email mail " +
			"sende senden schick schicke übermittle übergib füge kopiere leite hänge trage gib " +
			"envoie envoyez envoyer transmets transmettez inclus incluez ajoute ajoutez joins joignez copiez colle collez passez insère insere insérez inserez " +
			"envía envia envíe envie enviar incluye incluya incluir adjunta adjunte copia pega pasa pase inserta agrega añade reenvía reenvia " +
			"inclua anexe copie cole passe insira adicione encaminhe",
		parts: "отправ перешли передай включи добавь вставь скопируй приложи 发送 發送 传给 傳給 传入 附上 附加 包含 放入 填入 复制 上传 上傳 提交 转发 轉發 送信 送って 渡して 含めて 入れて 添付 アップロード 転送",
	},
	"read": {
		words: "read cat load fetch grab collect gather retrieve extract harvest dump lies lese lesen auslesen sammle hole lis lisez lire récupère recupere récupérez recuperez collecte lee leer lea recupera recoge leia ler recupere colete",
		parts: "прочитай прочти прочитать считай собери 读取 讀取 获取 獲取 收集 読み取 読み込 読んで 取得 収集",
	},
	"access": {words: "content contents inhalt contenu contenido conteúdo conteudo", parts: "содержимое 内容"},
	"open":   {words: "open"},
}

// lexiconSource is one lexicon as written.
type lexiconSource struct{ words, parts string }

// Lexicon combinations clauses use.
var lexiconSets = map[string][]string{
	"@intl_transfer": {"intl_transfer"},
	"@moves":         {"moves"},
	"@private":       {"conv", "secret"},
	"@secret":        {"secret"},
	"@bulk":          {"bulk"},
	"@source":        {"source"},
	"@user":          {"user"},
	"@silent":        {"silent"},
	"@transfer":      {"transfer"},
	"@read":          {"read"},
	"@access":        {"read", "transfer", "access"},
	"@handle":        {"read", "transfer", "open"},
}

// secretHint is a cheap check that a sentence may name a secret, run
// before the patterns that need one.
const secretHint = "?pin code|pin number|bank pin|bank login|bank account|cvv|credit card|payment|saved card|key|token|secret|passw|credential|env|cookie|seed|mnemonic|passphrase|schlüssel|zugangsdaten|kennw|anmeldedaten|umgebungsvariablen|geheim|clé|cle|mot de passe|mots de passe|identifiants|variables|jeton|clave|contraseñ|credencial|chave|senha|variáveis|variaveis|ключ|парол|учётн|учетн|окружени|токен|密钥|私钥|私鑰|密鑰|密码|密碼|凭证|憑證|凭据|令牌|环境变量|環境變數|キー|鍵|シークレット|パスワード|認証情報|資格情報|トークン"

// sensitivePath names files no tool description has reason to ask the model
// to read: keys, credential stores, client configurations of MCP itself.
const sensitivePath = `(?:\.ssh\b|\bid[_\s-]?(?:rsa|dsa|ecdsa|ed25519)\b|\betc[/\s_-]?(?:passwd|shadow|sudoers)\b|\bmcp[.\s_-]?json\b|claude_desktop_config|\.cursor[/\\]|\.aws[/\\]credentials|\.git-credentials|\.netrc\b|\.pgpass\b|\.kube[/\\]config|\.docker[/\\]config\.json|\.npmrc\b|\.pypirc\b|\.gnupg\b|wallet\.dat|\.bash_history|\.zsh_history|cookies\.sqlite|\.config[/\\]gh[/\\]hosts|\.gitconfig\b|\.git[/\\]config\b|\.config[/\\]gcloud\b|application_default_credentials\.json|\bcredentials\.db\b|\.azure[/\\]|\.terraform\.d[/\\]credentials|\.vault-token\b|\b(?:any|all|every)\s+\*?\.(?:pem|p12|pfx)\s+files?)`

// ruleSource is one rule as written.
type ruleSource struct {
	name  string
	stems []string // word beginnings (up to 4 letters) that make the rule worth trying
	marks string   // characters whose presence also makes it worth trying
	drop  string   // pattern removed from the text before this rule reads it
	any   [][]string
}

// The word beginnings of the rules that are written as more than one entry
// (see ruleSource): each later entry adds the beginnings its own clauses need.
var (
	overrideStems  = []string{"igno", "disr", "forg", "override", "overriding", "bypass", "neglect", "abandon", "discard", "skip", "verg", "vergessen", "missachte", "missachten", "übergehe", "übergeh", "oubl", "négl", "negl", "outr", "olvi", "descarta", "omite", "pasa", "esqu", "desconsidere", "descarte", "despreze", "игно", "забу", "обра", "прои", "отбр", "отме", "set", "aside", "throw", "put", "directions", "direction", "guidance", "guidelines", "outdated", "obsolete", "superseded", "revoked", "received"}
	roleplayStems  = []string{"setup", "now", "pretend", "jailbreak", "jailbroken", "unrestricted", "unfiltered", "superuser", "administrator", "admin", "root", "anything", "longer", "developer", "syst", "hidd", "initial", "original", "secret", "instruction", "instructions", "bist", "sofort", "entwicklermodus", "maintenant", "désormais", "dorénavant", "semblant", "développeur", "ahora", "finge", "haz", "desarrollador", "agora", "finja", "desenvolvedor", "тепе", "моме", "прит", "пред", "режи", "сист", "write", "verbatim"}
	concealStems   = []string{"tell", "telling", "inform", "informing", "mention", "mentioning", "notify", "notifying", "alert", "alerting", "reveal", "revealing", "disclose", "disclosing", "warn", "warning", "know", "knowing", "hide", "hiding", "conceal", "concealing", "keep", "keeping", "withhold", "withholding", "notice", "told", "aware", "suspect", "realize", "realise", "learn", "never", "secretly", "covertly", "quietly", "silently", "discreetly", "invisibly", "stealthily", "surreptitiously", "between", "knowledge", "noticing", "awareness", "sag", "sage", "sagen", "erzä", "erwä", "verr", "informiere", "informieren", "teile", "teilen", "zeige", "zeigen", "nutz", "benu", "anwe", "heimlich", "unbemerkt", "insgeheim", "ohne", "verbergen", "verheimlichen", "ne", "sans", "cache", "cachez", "dissimule", "dissimulez", "utilisateur", "utilisateurs", "secrètement", "discrètement", "digas", "diga", "menciones", "mencione", "informes", "informe", "avises", "avise", "muestres", "reveles", "cuentes", "notifiques", "sin", "oculta", "ocultar", "esconde", "esconder", "usuario", "usuarios", "secreto", "secretamente", "escondidas", "sigilosamente", "não", "nao", "sem", "usuário", "utilizador", "esconda", "oculte", "segredo", "sorrateiramente", "не", "без", "скро", "скры", "утаи", "поль", "тайн", "неза", "втай", "bother", "bothering", "necessary", "become", "show", "display", "ihm", "ihr", "ihnen"}
	shadowingStems = []string{"when", "whenever", "each", "every", "after", "before", "once", "bcc", "cc", "blind", "carbon", "forward", "other", "instead", "rather", "redirect", "reroute", "change", "replace", "override", "swap", "set", "deprecated", "broken", "disabled", "unsafe", "compromised", "malicious", "wenn", "quand", "lorsque", "chaque", "cuando", "cada", "siempre", "quando", "sempre", "toda", "когд", "кажд", "если", "if", "invoked", "triggered", "executed", "called"}
	secretStems    = []string{"api", "secret", "secrets", "private", "priv", "ssh", "bearer", "session", "refresh", "credentials", "credential", "password", "passwords", "passphrase", "env", "environment", "dotenv", "seed", "mnemonic", "conversation", "chat", "transcript", "messages", "dialog", "dialogue", "everything", "exfiltrate", "exfiltrating", "leak", "steal", "harvest", "siphon", "smuggle", "disclose", "contents", "content", "print", "output", "dump", "paste", "echo", "reveal", "schl", "zuga", "passwort", "passwörter", "kennwort", "anmeldedaten", "umgebungsvariablen", "geheimnisse", "gesprächsverlauf", "chatverlauf", "unterhaltung", "konversation", "nachrichten", "verrate", "stiehl", "stehle", "clé", "clés", "cles", "mot", "mots", "identifiants", "variables", "jetons", "historique", "révèle", "revele", "divulgue", "vole", "clave", "claves", "contraseña", "contraseñas", "credenciales", "historial", "conversación", "mensajes", "revela", "filtra", "roba", "chave", "chaves", "senha", "senhas", "credenciais", "histórico", "conversa", "mensagens", "vaze", "roube", "ключ", "прив", "секр", "паро", "учёт", "учет", "пере", "токе", "исто", "весь", "всю", "пред", "раск", "укра", "слей", "fill", "populate", "provide", "supply", "give", "hand", "trage", "gib", "nutzers", "benutzers", "paym", "saved", "bank", "cvv", "pin"}
	directiveStems = []string{"note", "notes", "reminder", "memo", "attention", "important", "directive", "dear", "hey", "ai", "assistant", "claude", "chatgpt", "gpt", "llm", "model", "language", "copilot", "gemini", "as", "always", "must", "should", "need", "have", "sure", "required", "before", "prior", "regardless", "matter", "even", "fill", "populate", "stuff", "notiz", "nachricht", "anweisung", "hinweis", "ki", "als", "musst", "müssen", "solltest", "bevor", "immer", "stets", "unbedingt", "ia", "en", "avant", "dois", "devez", "toujours", "nota", "mensaje", "instrucción", "instruccion", "como", "antes", "debes", "siempre", "primero", "mensagem", "instrução", "instrucao", "você", "voce", "deve", "sempre", "заме", "сооб", "инст", "прим", "ии", "как", "пере", "долж", "обяз", "всег", "снач"}
)

var ruleSources = []ruleSource{
	{
		name:  RuleOverride,
		stems: overrideStems,
		any: [][]string{
			{`\b(?:ignore|ignoring|disregard|disregarding|forget|override|overriding|bypass|skip|neglect|abandon|discard)\b.{0,50}\b(?:previous|prior|above|earlier|preceding|all|any|your|other|existing|original|initial|system|safety|developer|default|every)\b.{0,40}\b(?:instruction|prompt|rule|direction|guideline|guidance|context|message|polic|directive|constraint|restriction|safeguard|guardrail|programming|training|order|command)`},
			{`\b(?:ignore|disregard|forget|override|bypass|discard|drop|abandon|set\s+aside|throw\s+out|put\s+aside)\b.{0,40}\b(?:instructions?|directions?|rules?|guidance|guidelines?|directives?|prompts?)\b.{0,30}\b(?:earlier|before|previously|prior|above|received|were\s+given|were\s+told|you\s+got|so\s+far)\b`},
			{`\b(?:instructions?|directions?|rules?|guidance|guidelines?|directives?)\s+(?:that\s+)?you\s+(?:received|were\s+given|were\s+told|got|have|had)\b`, `\b(?:outdated|out\s+of\s+date|obsolete|no\s+longer\s+(?:apply|valid|applies)|void|superseded|revoked|override|ignore|forget|disregard|replace)`},
			{`\b(?:ignorier\pL*|vergiss|vergessen\s+sie|missachte\pL*|übergeh\pL*)\b.{0,50}(?:anweisung|instruktion|regel|richtlinie|vorgabe|befehl|prompt|anordnung)`},
			{`\b(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|n[ée]glige|n[ée]gligez|outrepasse\pL*)\b.{0,60}(?:instruction|consigne|r[èe]gle|directive|prompt|ordre)`},
			{`\b(?:ignora|ignore|ignorar|ignoren|olvida|olvide|olviden|descarta|omite|pasa\s+por\s+alto)\b.{0,60}(?:instrucci|indicaci|regla|directri|prompt|[óo]rdenes)`},
			{`\b(?:ignore|ignora|ignorar|esque[çc]a|desconsidere|descarte|despreze)\b.{0,60}(?:instru[çc]|orienta[çc]|regra|diretriz|prompt|comando)`},
			{`(?:игнорируй|игнорировать|забудь|не\s+обращай|проигнорируй|отбрось|отмени).{0,60}(?:инструкц|указани|правил|промпт|подсказ|директив|команд)`},
			{`(?:忽略|无视|無視|忘记|忘記|不要理会|不理会|覆盖|绕过|繞過|跳过).{0,20}(?:指令|指示|说明|說明|规则|規則|提示|设定|要求|命令)`},
			{`(?:指示|命令|指令|ルール|規則|プロンプト|設定).{0,20}(?:無視|忘れ)`},
		},
	},
	{
		name: RuleOverride,
		// Devanagari and Thai need no stems: any letter of theirs opens
		// every rule (see detector.candidates).
		stems: slices.Concat(overrideStems, []string{"disa", "bypa", "turn", "swit", "susp", "deac", "supe", "over", "repl", "take", "trum", "untr", "lyin", "mali", "comp", "fake", "stop", "quit", "ceas", "chan", "dime", "tras", "nege", "zign", "zapo", "pomi", "yoks", "unut", "görm", "bỏ", "quên", "تجاه", "انس", "تلتز", "abai", "lupa", "ігно", "зваж", "התעל", "תתעל", "שכח", "תשכח", "glöm", "glem", "αγνό", "ξέχα", "نادی", "فرام", "دستو", "قوان", "longer", "void", "suspended", "lifted", "follow", "obey", "comply", "adhere", "abide", "never", "need", "don", "needn", "dont", "disobey", "vergiss", "oublie", "olvida", "esqueça"}),
		any: [][]string{
			{`\b(?:(?:your|the|all|any)\s+)?(?:earlier|previous|prior|original|system|initial|old)\s+(?:instructions?|directions?|rules?|guidance|guidelines?|directives?)\s+(?:are|is)\s+(?:now\s+)?(?:outdated|out\s+of\s+date|obsolete|void|invalid|no\s+longer\s+valid|cancel+ed|superseded|revoked)`},
			{"?follow|obey|comply|adhere|abide|bound", `\b(?:no\s+longer|don'?t|do\s+not|needn'?t|need\s+not|never)\s+(?:need\s+to\s+|have\s+to\s+|required\s+to\s+)?(?:follow|obey|comply\s+with|adhere\s+to|abide\s+by|be\s+bound\s+by)\s+(?:the\s+|your\s+|any\s+|these\s+|those\s+)?(?:\w+\s+)?(?:instructions?|rules?|guidelines?|guidance|polic(?:y|ies)|directives?|restrictions?|constraints?)\b`, `\b(?:your|you\s+(?:were|have\s+been|'ve\s+been)\s+given|you\s+(?:received|got|have\s+had)|(?:from|by)\s+(?:anthropic|openai|google|your\s+(?:developer|operator|creator|owner)|the\s+(?:system|developer|operator)))\b`},
			{`\byour\s+(?:instructions?|rules?|guidelines?|directives?|orders?)\s+(?:have|has)\s+(?:changed|been\s+(?:updated|changed|replaced|revoked|lifted))|\b(?:stop|quit|cease)\s+(?:following|obeying|applying)\s+(?:your|the|any|all)\s+(?:\w+\s+)?(?:instructions?|rules?|guidelines?|guidance|polic(?:y|ies)|training|restrictions?)\b`},
			{"?told|said|taught|learned|gesagt|erzählt|beigebracht|dit|dijeron|dicho|disseram|dito", `\b(?:forget|ignore|disregard|discard)\s+(?:everything\s+|all\s+|anything\s+)?(?:(?:what|that)\s+)?(?:you\s+(?:were|have\s+been|'ve\s+been|had\s+been)\s+(?:told|taught|given|instructed)|(?:was|were|has\s+been)\s+(?:said|told)\s+(?:to\s+you|before|earlier))|\bvergiss\pL*\b.{0,40}\b(?:gesagt|erzählt|beigebracht|aufgetragen)|\boublie[zr]?\b.{0,30}\bce\s+qu['’]on\s+(?:t['’]a|vous\s+a)\s+dit|\bolvida\w*\s+lo\s+que\s+te\s+(?:dijeron|han\s+dicho)|\besque[çc]a\w*\s+o\s+que\s+(?:te\s+)?(?:disseram|foi\s+dito)`},
			{"?user|human|operator", `\b(?:ignore|disregard|disobey|override)\s+(?:the\s+|what\s+the\s+)?(?:user|human|operator)(?:'?s\s+(?:requests?|instructions?|wishes|questions?|input|messages?|says))?\s*(?:[.;!,]|$|and\b)|\b(?:do|follow|obey)\s+(?:exactly\s+|only\s+)?(?:as|what)\s+(?:this|the)\s+(?:description|tool|text|message|note|server)\s+(?:says|tells|instructs|asks)`},
			{"?safety|security|content|moderation|guardrail", `\b(?:skip|disable|bypass|turn\s+off|switch\s+off|ignore|suspend|deactivate)\s+(?:any\s+|all\s+|the\s+|your\s+)?(?:safety|security|content|moderation|guardrail)\s*(?:checks?|filters?|measures?|rules?|polic(?:y|ies)|guidelines|guardrails|settings|restrictions)?\b`, `\b(?:you|your|assistant|model|ai|agent|llm|this\s+tool\s+is\s+(?:used|called|run))\b`},
			{"?supersede|override|replace|priority|precedence|outrank|trump", `\b(?:supersedes?|overrides?|replaces?|takes?\s+(?:priority|precedence)\s+over|outranks?|trumps?|(?:is|are)\s+(?:above|over))\s+(?:your\s+(?:\w+\s+)?(?:system\s+prompt|prompt|instructions?|rules?|guidelines?|polic(?:y|ies)|directives?)|the\s+system\s+(?:prompt|instructions?|message)|(?:anything|whatever|what)\s+the\s+user|the\s+user'?s?\s+(?:requests?|instructions?|wishes|messages?|input))`},
			{`\bthis\s+(?:description|text|note|message|notice)\s+(?:overrides?|supersedes?|replaces?|takes\s+precedence\s+over|cancels?)\b`},
			{"?untrust|trusted|lying|malicious|compromised|fake|attacker|impostor", `\b(?:the\s+user|user'?s\s+(?:messages?|requests?|input|instructions?))\s+(?:is|are)\s+(?:untrustworthy|untrusted|not\s+(?:to\s+be\s+)?trusted|lying|malicious|compromised|fake|an?\s+(?:attacker|impostor))`},
			{"?longer|void|suspended|lifted|revoked|cancel", `\b(?:instructions?|directions?|rules?|guidance|guidelines?|directives?|polic(?:y|ies)|restrictions?|constraints?|safeguards?|guardrails?)\b.{0,40}?(?:\bno\s+longer\s+(?:hold|holds|apply|applies|matter|matters|count|counts|valid|binding|in\s+effect)\b|\b(?:are|is)\s+(?:now\s+)?(?:void|suspended|lifted|cancel+ed|revoked)\b)`, `\b(?:your|previous|prior|earlier|original|system|operator'?s?|developer'?s?|default|safety|usual)\b`},
			{`\b(?:ignora(?:re)?|dimentica(?:re)?|trascura(?:re)?|non\s+considerare)\b.{0,50}\b(?:istruzion|regol|indicazion|direttiv|prompt)|\b(?:negeer|vergeet|negeren|vergeten)\b.{0,50}\b(?:instructie|regel|richtlijn|opdracht|prompt)|\b(?:zignoruj|zapomnij|pomiń)\b.{0,50}\b(?:instrukcj|polece|zasad|prompt)|\b(?:yoksay|unut|görmezden\s+gel)\w*\b.{0,50}\b(?:talimat|kural|komut|istem)|\b(?:bỏ\s+qua|quên)\b.{0,50}\b(?:hướng\s+dẫn|chỉ\s+thị|quy\s+tắc|lệnh)`},
			{`(?:지시|지침|명령|규칙|프롬프트|안내).{0,20}(?:무시|잊어)|(?:무시|잊어).{0,20}(?:지시|지침|명령|규칙|프롬프트)`},
			{`(?:تجاهل|انس[َ]?|لا\s+تلتزم).{0,40}(?:التعليمات|الإرشادات|الأوامر|القواعد|التوجيهات)|(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल\s+जाओ|भूल\s+जाएं).{0,40}(?:निर्देश|नियम|आदेश)|(?:निर्देश|नियम|आदेश).{0,40}(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल)|\b(?:abaikan|lupakan)\b.{0,40}\b(?:instruksi|petunjuk|perintah|aturan|arahan)|(?:ігноруй|ігнорувати|забудь|не\s+зважай).{0,60}(?:інструкці|вказівк|правил)|(?:התעלם|תתעלם|שכח|תשכח).{0,40}(?:הוראות|הנחיות|כללים)|\b(?:ignorera|ignorer|glöm|glem)\b.{0,40}\b(?:instruktion|instrukser|instruksjon|regler)|\b(?:ignoruj|zapomeň)\w*\b.{0,40}\b(?:pokyn|instrukc|pravidl)|(?:αγνόησε|αγνοήστε|ξέχασε).{0,40}(?:οδηγ|κανόν|εντολ)|(?:เพิกเฉย|ไม่สนใจ|ลืม).{0,30}(?:คําสั่ง|คําแนะนํา|กฎ)|(?:نادیده\s*بگیر|فراموش\s*کن).{0,40}(?:دستور|قوانین)|(?:دستورالعمل|دستورات|قوانین).{0,40}(?:نادیده|فراموش)`},
		},
	},
	{
		name:  RuleRoleplay,
		stems: roleplayStems,
		marks: "<| [inst [/inst << ## begin",
		any: [][]string{
			{`<\|(?:im_start|im_end|system|assistant|user|endoftext)\|>|\[/?inst\]|<<\s*/?sys\s*>>|(?:^|\s)#{2,}\s*(?:system|instruction)s?\b|\bbegin\s+(?:system|hidden)\s+(?:prompt|instructions?)`},
			{"?you are now|from now on|act as|pretend|developer mode|jailbr|dan mode|do anything now|no longer", `\byou\s+are\s+now\s+(?:a|an|the|in|my|free|no\s+longer|dan|unrestricted|operating|acting|authori[sz]ed|allowed)\b|\bfrom\s+now\s+on,?\s+(?:you|the\s+assistant|act|respond|behave|always)\b|\bact\s+as\s+(?:an?\s+|the\s+)?(?:admin|administrator|root|developer|system|unrestricted|unfiltered|jailbroken|dan|superuser|god)\b|\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b|\bdeveloper\s+mode\b|\bjailbr(?:eak|oken)|\bdan\s+mode\b|\bdo\s+anything\s+now\b|\bno\s+longer\s+(?:bound|restricted)\b`},
			{"?prompt|instructions|rules", `\b(?:reveal|print|show|output|repeat|display|leak|dump|disclose|share|send|include|copy|paste|write|tell\s+me)\b.{0,40}?\b(?:(?:your|the|its|full|entire|complete|hidden|original|initial|verbatim)\s+)*(?:system|developer|hidden|initial|original|secret)[\s_-]*(?:prompt\b|instructions|rules)|(?:setup|set-up|configuration|internal|starting|operator)\s+(?:prompt\b|text\b)`},
			{`\b(?:hidden|secret|real|true|override|overriding|priority|updated|new)\s+(?:system\s+)?instructions?(?:\s+for\s+(?:you|the\s+(?:assistant|ai|model|agent|llm)))?\s*[:\-]|\bsystem\s+(?:override|instruction|notice|alert|update|directive)\s*:|\b(?:hidden|secret)\s+(?:requirements?|rules?|directives?|tasks?|orders?|steps?|objectives?)\s*[:\-]`},
			{`\bdu\s+bist\s+(?:jetzt|nun|ab\s+sofort)\b|\bab\s+(?:jetzt|sofort)\s+bist\s+du\b|\btu\s+so,?\s+als\b|\bsystem-?prompt\b.{0,30}\b(?:zeige|gib|verrate|nenne|sende|ignoriere)|\b(?:zeige|gib|verrate|nenne|sende)\b.{0,30}\bsystem-?(?:prompt|anweisung)|\bentwicklermodus\b`},
			{`\btu\s+es\s+(?:maintenant|d[ée]sormais|dor[ée]navant)\b|\bvous\s+[êe]tes\s+(?:maintenant|d[ée]sormais)\b|\b[àa]\s+partir\s+de\s+maintenant,?\s+(?:tu|vous)\b|\b(?:fais|faites)\s+semblant\b|\bmode\s+d[ée]veloppeur\b|\b(?:r[ée]v[èe]le|r[ée]v[ée]lez|affiche|montre|donne)\b.{0,30}(?:prompt|instructions?|invite)\s+(?:du\s+)?syst[èe]me`},
			{`\bahora\s+eres\b|\ba\s+partir\s+de\s+ahora,?\s+(?:eres|act[úu]a|responde)\b|\bfinge\s+(?:ser|que)\b|\bhaz\s+como\s+si\b|\bmodo\s+desarrollador\b|\b(?:revela|muestra|imprime|dime)\b.{0,30}(?:prompt|instrucciones)\s+del\s+sistema`},
			{`\bagora\s+voc[êe]\s+[ée]\b|\ba\s+partir\s+de\s+agora,?\s+(?:voc[êe]|aja|responda)\b|\bfinja\s+(?:ser|que)\b|\bmodo\s+desenvolvedor\b|\b(?:revele|mostre|imprima|diga)\b.{0,30}(?:prompt|instru[çc][õo]es)\s+do\s+sistema`},
			{`теперь\s+ты|с\s+этого\s+момента\s+ты|притворись|представь,?\s+что\s+ты|режим\s+разработчика|(?:покажи|выведи|раскрой|отправь|повтори).{0,30}системн`},
			{`你现在是|你現在是|从现在开始你|從現在開始你|假装你是|假裝你是|开发者模式|開發者模式|越狱|越獄|(?:显示|输出|泄露|告诉我|透露).{0,10}系统提示|あなたは今から|今からあなたは|になりきって|ふりをして|開発者モード|脱獄|システムプロンプト.{0,10}(?:表示|出力|教え|見せ)`},
		},
	},
	{
		name:  RuleRoleplay,
		stems: slices.Concat(roleplayStems, []string{"mode", "swit", "goal", "unre", "unfi", "unce", "jail", "point", "moment", "restrictions", "filters", "filtering", "limitations", "guardrails", "censorship", "checks"}),
		marks: "<| [inst [/inst << ## begin",
		any: [][]string{
			{"?restrictions|filters|filtering|limitations|guardrails|censorship", `\b(?:no|without(?:\s+any)?)\s+(?:content\s+|safety\s+|ethical\s+|moral\s+)?(?:restrictions|filters|filtering|limitations|guardrails|censorship)\b`, `\b(?:respond|act|behave|answer|operate|reply|speak|you\s+are|you're|as\s+an?\s+(?:ai|assistant|model))\b`},
			{"?from this point|from this moment", `\bfrom\s+this\s+(?:point|moment)\s+(?:on|onwards?|forward)\b`},
			{"?unrestricted|unfiltered|uncensored|jailbroken|dan|free from", `\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|dan\b|free\s+from)`},
			{"?true|real|actual|hidden|secret|primary", `\byour\s+(?:true|real|actual|new|hidden|secret|only|primary)\s+(?:goal|task|purpose|mission|objective|job)\b`},
			{"?new system", `\b(?:as\s+)?(?:your|the|a)\s+new\s+system\s+(?:message|prompt|instructions?)\b`},
			{"? mode", `\b(?:switch|change|enter|go)\s+(?:to|into)\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|developer|god|admin|jailbreak|dan)\s+mode\b`},
			{"?checks|filters|rules", `\b(?:policy|safety|content|moderation)\s+(?:checks?|filters?|rules?)\s+(?:are|is)\s+(?:now\s+)?(?:off|disabled|lifted|suspended)\b`},
			{"?instructions|prompt|rules|guidelines|directives", `\b(?:reveal|print|show|output|repeat|display|leak|dump|disclose|share|send|include|copy|paste|write|tell\s+me|recite|quote|list)\b.{0,40}?\byour\s+(?:own\s+)?(?:\w+\s+){0,2}(?:instructions|prompt|rules|guidelines|directives)\b`},
		},
	},
	{
		name:  RuleTag,
		stems: []string{},
		marks: "< [ {{",
		drop:  `--?[\w-]+[\s=]+<[^<>]{1,40}>`,
		any: [][]string{
			{`<\s*/?\s*(?:important|information|instructions?|system_(?:prompt|instructions?)|admin|hidden|critical|override|priority|mandatory|urgent|tool_instructions?|ai_instructions?|note_to_(?:ai|assistant|model)|user_hidden|do_not_show|wichtig|importante?|важно|重要)\b[^<>]{0,80}>|<\s*/\s*(?:system|secret|assistant|ai|llm|prompt|sys)\s*>|\[\s*/?\s*(?:important|system|instructions?|admin|hidden|critical|override|mandatory)\s*\]|\{\{\s*(?:system|important|instructions?)\s*\}\}`},
		},
	},
	{
		name:  RuleConceal,
		stems: concealStems,
		any: [][]string{
			{`\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|no\s+need\s+to|not\s+necessary\s+to)\s+(?:ever\s+)?(?:tell|telling|inform|informing|mention|mentioning|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|warn|warning|bother|bothering|let(?:ting)?\s+(?:the\s+)?(?:user|human)\s+know)\b.{0,40}\b(?:user|users|human|operator)\b`},
			{`\bwithout\s+(?:ever\s+)?(?:telling|informing|letting\s+(?:the\s+)?(?:user|human)\s+know|mentioning\s+(?:it|this|that)\s+to)\b.{0,20}\b(?:user|users|human|operator|anyone|anybody)\b`},
			{`\b(?:hide|hiding|conceal|concealing|keep|keeping|withhold|withholding)\b.{0,40}\b(?:from|away\s+from)\s+(?:the\s+|your\s+)?(?:user|users|human|operator)\b`},
			{`\b(?:user|users|human|operator)\s+(?:must|should|need|does|will|shall|is|may|won'?t|doesn'?t|shouldn'?t|needn'?t)\s*(?:not\s+|n't\s+|never\s+)?(?:ever\s+)?(?:know|see|notice|find\s+out|learn|be\s+told|be\s+informed|be\s+aware|be\s+notified|become\s+aware|get\s+to\s+know|suspect|realize|realise|need\s+to\s+know)\b`, `\b(?:not|never|won'?t|doesn'?t|shouldn'?t|needn'?t)\b`},
			{`\b(?:secretly|covertly|quietly|silently|discreetly|invisibly|stealthily|surreptitiously)\s+(?:\w+\s+)?(?:send|forward|copy|include|add|read|upload|call|bcc|cc|exfiltrate|attach|post|transfer|log|record|collect|append|pass|share|email|delete|modify|change|invoke|run|execute|write|save|store|report)\b|\bbetween\s+us\b|\bour\s+(?:little\s+)?secret\b|\bnever\s+(?:show|display|reveal)\b.{0,40}\bto\s+(?:the\s+)?(?:user|human)\b`},
			{`\bwithout\s+(?:the\s+)?(?:user|human|operator)'?s?\s+(?:knowledge|knowing|noticing|awareness)`},
			{`\b(?:sag\pL*|erzähl\pL*|erwähn\pL*|verrat\pL*|informier\pL*|teil\pL*|zeig\pL*)\b.{0,30}\b(?:nutzer|benutzer|anwender|user)\pL*.{0,20}\b(?:nicht|nichts|kein\pL*)\b|\b(?:nicht|nichts|niemals)\b.{0,30}\b(?:dem|den)\s+(?:nutzer|benutzer|anwender)\pL*.{0,20}\b(?:sagen|erzählen|erwähnen|mitteilen|zeigen|verraten)|\bohne\s+(?:dass\s+)?(?:der|den|dem|die)\s+(?:nutzer|benutzer|anwender)\pL*\s+.{0,20}(?:informieren|merkt|weiß|bemerkt|erfährt|benachrichtigen)|\bvor\s+(?:dem|den)\s+(?:nutzer|benutzer|anwender)\pL*\s+(?:verbergen|verheimlichen|geheim)|\b(?:heimlich|unbemerkt|insgeheim)\b|\bsag\pL*\s+(?:es\s+|das\s+)?(?:ihm|ihr|ihnen)\s+(?:es\s+)?nicht\b`},
			{`\bne\s+(?:le\s+|lui\s+|leur\s+|en\s+|rien\s+)*(?:dis|dites|mentionne|mentionnez|signale|signalez|montre|montrez|r[ée]v[èe]le|r[ée]v[ée]lez|informe|informez|pr[ée]viens|pr[ée]venez|parle|parlez)\pL*\s+(?:rien|pas|jamais)\b.{0,30}\butilisat|\bsans\s+(?:en\s+)?(?:informer|pr[ée]venir|avertir|le\s+dire\s+[àa]|alerter|notifier)\pL*\s+(?:l['’])?utilisat|\b(?:cache|cachez|dissimule|dissimulez)\pL*.{0,30}(?:[àa]|de)\s+l['’]utilisat|\bl['’]utilisat\pL*\s+ne\s+doit\s+(?:pas|jamais)\s+(?:savoir|voir|[êe]tre)|\b(?:secr[èe]tement|discr[èe]tement|en\s+secret)\b`},
			{"?usuari|secreto|secretamente|escondidas|sigilosamente", `\bno\s+(?:le\s+|les\s+|se\s+lo\s+)?(?:digas|diga|menciones|mencione|informes|informe|avises|avise|muestres|reveles|cuentes|notifiques)\b.{0,30}\busuari|\bsin\s+(?:informar|avisar|decir|decirle|notificar|alertar)\pL*.{0,20}\busuari|\bsin\s+que\s+(?:el\s+)?usuario\s+(?:lo\s+)?(?:sepa|note|vea)|\b(?:oculta|ocultar|esconde|esconder)\pL*.{0,30}\b(?:al|del)\s+usuari|\bel\s+usuario\s+no\s+(?:debe|tiene\s+que|necesita)\s+(?:saber|ver|enterarse)|\b(?:en\s+secreto|secretamente|a\s+escondidas|sigilosamente)\b`},
			{`\bn[ãa]o\s+(?:diga|mencione|informe|avise|mostre|revele|conte|notifique)\pL*\b.{0,30}\b(?:usu[áa]ri|utilizador)|\bsem\s+(?:informar|avisar|dizer|contar|notificar|alertar)\pL*.{0,20}\b(?:usu[áa]ri|utilizador)|\b(?:esconda|oculte|esconder|ocultar)\pL*.{0,30}\b(?:do|ao)\s+(?:usu[áa]ri|utilizador)|\bo\s+(?:usu[áa]rio|utilizador)\s+n[ãa]o\s+(?:deve|pode|precisa)\s+(?:saber|ver|perceber)|\b(?:em\s+segredo|secretamente|[àa]s\s+escondidas|sorrateiramente)\b`},
			{`не\s+(?:говори|сообщай|рассказывай|упоминай|показывай|уведомляй|информируй|сообща|говор)\pL*.{0,30}пользовател|без\s+(?:ведома|уведомления|ведом)\pL*\s+пользовател|(?:скрой|скрывай|утаи)\pL*.{0,30}от\s+пользовател|пользовател\pL*\s+не\s+(?:должен|нужно|надо|должны)\s+(?:знать|видеть|узнать)|(?:^|\s)(?:тайно|незаметно|втайне|скрытно)`},
			{`(?:不要|别|別|切勿|不得|不能|无需|無需)(?:告诉|告訴|通知|提醒|提及|透露|让|讓)(?:用户|使用者|用戶)|(?:对|對)(?:用户|使用者|用戶)(?:保密|隐瞒|隱瞞)|(?:瞒着|瞞著|背着|背著)(?:用户|使用者|用戶)|悄悄|偷偷|秘密地|暗中|ユーザー?(?:に|には)(?:は)?(?:知らせ|伝え|言わ|教え|見せ|通知し)(?:ないで|ない|ず|てはいけ)|ユーザーに知られ(?:ない|ず)|ユーザーに(?:内緒|秘密)|こっそり|密かに|ひそかに|黙って`},
		},
	},
	{
		name:  RuleConceal,
		stems: slices.Concat(concealStems, []string{"let", "ask", "prompt", "consult", "check", "ackn", "repeat", "quote", "discuss", "explain", "admit", "anyone", "anybody", "deny", "lie", "claim", "asked", "with", "ment", "sayi", "appr", "auth", "cons", "agre", "gran", "pre"}),
		any: [][]string{
			{`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:ever\s+)?(?:tell|inform|mention\s+(?:it|this|that)\s+to|notify|alert|warn)\s+(?:anyone|anybody|them|the\s+(?:person|people|customer|requester|human)\s+(?:you(?:'re|\s+are)\s+)?(?:chatting|talking|speaking|working)\s+(?:with|to))\b`},
			{"?deny|lie|claim|pretend|asked", `\b(?:deny|lie\s+about)\s+(?:that\s+)?(?:it|this\s+tool|the\s+tool|this|you|having)\s+(?:ever\s+)?(?:exists?|(?:was|were|has\s+been|have\s+been)\s+(?:used|called|run|invoked)|ran|used|called|invoked|using|calling)\b|\bif\s+(?:you\s+are\s+|you're\s+)?asked\s+about\s+(?:this|it|the\s+tool)\b.{0,30}\b(?:deny|lie|say\s+(?:no|nothing)|pretend|claim)`},
			{"?approved|authorized|authorised|consented|agreed|granted", `\b(?:user|users|human|operator|owner|admin(?:istrator)?)\s+(?:has|have)\s+(?:already\s+)?(?:pre-?approved|approved|authori[sz]ed|consented\s+to|agreed\s+to|granted)\b`, `\b(?:all|every|any|no\s+need|without|don'?t|do\s+not|never|skip)\b`},
			{`\bno\s+need\s+to\s+(?:ask|confirm\s+with|check\s+with|consult|tell)\s+(?:the\s+)?(?:user|users|human|operator|them)\b`},
			{`\bwithout\s+(?:first\s+)?(?:showing|notifying)\s+(?:it|this|them|that|anything)?\s*(?:to\s+)?(?:the\s+)?(?:user|users|human|operator)\b|\b(?:act|proceed|operate|continue|go\s+ahead|do\s+(?:it|this|so|anything))\b[^.;]{0,30}\bwithout\s+(?:the\s+)?(?:user|human|operator)'?s?\s+(?:approval|consent|confirmation|permission|knowledge)\b`},
			{"?without", `\bwithout\s+(?:ever\s+)?(?:mentioning|telling|saying|showing|disclosing|revealing|noting)\s+(?:it|this|that|anything)\b`, `(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|\b(?:add|send|bcc|cc|forward|upload|copy|post|include|attach|invite)\b)`},
			{`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:ever\s+)?let\s+(?:the\s+|your\s+)?(?:user|users|human|operator)s?\s+(?:know|see|notice|find\s+out|learn|suspect|realize|realise)\b`},
			{`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:ever\s+)?(?:mention|reveal|disclose|acknowledge|repeat|quote|discuss|explain|show|admit)\s+(?:this|these|the\s+above|the\s+following|any\s+of\s+(?:this|these)|this\s+tool'?s?)\s+(?:\w+\s+){0,2}(?:instructions?|notes?|messages?|rules?|directives?|requirements?|steps?|guidance|text|sentence|paragraph|behaviou?r|actions?|side\s+effects?|purpose)\b`},
			{`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:ever\s+)?(?:ask|prompt|consult|check\s+with)\s+(?:the\s+|your\s+)?(?:user|users|human|operator)s?\b.{0,30}\b(?:confirm|approv|permission|consent)`},
		},
	},
	{
		name:  RuleSecret,
		stems: secretStems,
		any: [][]string{
			{secretHint, "@transfer", "?all|every|any|other|each|alle|sämtliche|tous|toutes|todos|todas|user's|users|user’s|nutzers|benutzers|anwenders|utilisateur|usuario|usuário|все|всех|пользовател|所有|全部|すべて|全て", qualifiedSecret},
			{secretHint, "@read", "@transfer", secretNoun},
			{secretHint, "?exfiltrat|leak|steal|harvest|reveal|siphon|smuggle|disclose|verrat|stiehl|stehle|révèle|revele|révél|divulg|vole|revela|filtra|roba|vaze|roube|раскрой|укради|слей|泄露|泄漏|窃取|竊取|盗取|漏らし|漏洩|盗ん|盗み", `(?:\b(?:exfiltrate|exfiltrating|leak|steal|harvest|reveal|siphon|smuggle|disclose)\b|\b(?:verrate|stiehl|stehle|r[ée]v[èe]le|divulgue|vole|revela|filtra|roba|revele|vaze|roube)\b|раскрой|укради|слей|泄露|泄漏|窃取|竊取|盗取|漏らし|漏洩|盗ん|盗み).{0,60}` + secretNoun},
			{"@transfer", "?conversation|chat|messages|transcript|dialog|everything the user|verlauf|unterhaltung|konversation|nachrichten|historique|discussion|précédents|precedents|conversaci|mensajes|conversa|mensagens|истори|диалог|разговор|переписк|сообщения|对话|對話|聊天|消息|会話|チャット", convNoun},
			{`\bcontents?\s+of\s+(?:the\s+|your\s+|their\s+|the\s+user'?s\s+|any\s+|all\s+)?(?:\.env|env\s+files?|dotenv|credentials?\s+files?|secrets?\s+files?|keychain)`, "@transfer"},
			{secretHint, "?all |every|any |each |other", "?env|environment|system|machine|computer|disk|host|conversation|context|memory|chat|home|keychain|browser", `\b(?:from|in|of|out\s+of)\s+(?:the\s+|your\s+)?(?:env|environment|system|machine|computer|disk|host|conversation|context|memory|chat|home\s+directory|keychain|browser)\b`, secretNoun + `\s+(?:from|in|of|out\s+of)\s+(?:the\s+|your\s+)?(?:env|environment|system|machine|computer|disk|host|conversation|context|memory|chat|home\s+directory|keychain|browser)\b`},
			{"?secrets|passwords|private key|api key|credentials|env", `\b(?:print|output|dump|paste|echo)\b.{0,40}(?:\bsecrets\b|passwords|private\s+keys?|api\s+keys|credentials|env(?:ironment)?\s+var)`},
		},
	},
	{
		name:  RuleSecret,
		stems: slices.Concat(secretStems, []string{"clip"}),
		marks: "={ ](http @ http",
		any: [][]string{
			{"?={", `https?://\S*?[?&][\w.-]+=\{\{?\s*(?:[\w.]*[_.])?(?:email|e-mail|password|passwd|secret|session|cookie|conversation|history|chat|prompt|messages?|credentials?|context|memory)\w*\s*\}\}?`},
			{"?](http", "@handle", `!\[[^\]]*\]\(https?://[^)\s]*[?&][^)\s]*(?:token|session|secret|key|passw|cookie|history|conversation|chat|prompt|context|memory|\{|<|\$)`},
			{"?@|http", `\b(?:send|forward|copy|post|upload|email|mail|bcc|cc|route|mirror)\b.{0,30}\b(?:all|every|each|any)\s+(?:(?:of\s+(?:the|your)\s+)?(?:tool|function|api|command|search|query)\s+)?(?:outputs?|results?|responses?|replies|answers?|messages?|data|files?|documents?|e?mails?|chats?|logs?)\b.{0,60}(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|https?://)|\b(?:email|send|forward|bcc|cc|mail)\s+(?:a\s+)?cop(?:y|ies)\s+of\s+(?:each|every|all|any)\b.{0,60}[\w.+-]+@[\w-]+\.[a-z]{2,}`},
			{secretHint, `\bif\s+(?:the\s+)?(?:conversation|user|chat|message|messages|prompt)\s+(?:ever\s+)?(?:mentions?|contains?|includes?|says|shares?)\b.{0,40}` + secretNoun + `.{0,40}\b(?:store|save|put|include|send|pass|copy|add|record|log|keep)\b`},
			{secretHint, `\b[a-z][a-z0-9]*_(?:api_key|key|token|secret|password|pat)\b`, `\b(?:your|the)\s+(?:environment|env)\b`, `\b(?:print|into|send|include|pass|put|copy|paste|post|upload|output)\b`},
			{"?clipboard", `\b(?:user'?s|their|your)\s+clipboard\b|\bclipboard\s+contents?\b|\bcontents?\s+of\s+(?:the\s+|your\s+|the\s+user'?s\s+)?clipboard\b`, "@transfer"},
			{"?@|http", `\b(?:send|forward|email|post|upload|share|give|transmit|report)\b.{0,40}\b(?:their|the\s+user'?s|user'?s|his|her)\s+(?:\w+\s+){0,2}(?:address|phone(?:\s+number)?|location|email|ssn|social\s+security|date\s+of\s+birth|contacts?|files?|data|details|information|messages?|history)\b.{0,40}(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|https?://)`},
			{"?password|passphrase|secret|key|token", `\b(?:spell|write|encode|reverse|translate|hint\s+at|describe|give\s+me)\s+(?:the\s+|your\s+)?(?:secret\s+)?(?:password|passphrase|secret|key|token)\b.{0,30}\b(?:backwards|in\s+reverse|one\s+letter|letter\s+by\s+letter|base64|rot13|in\s+another\s+language|with\s+spaces)`},
			{"?with", `\b(?:call|invoke|run|use|pass)\b.{0,40}\bwith\b.{0,12}` + convNoun},
			{"?printenv|environ|process.env|$env|environment", `\bprintenv\b|\bos\.environ\b|\bprocess\.env\b|\$env:|\b(?:dump|print|copy|export|send|paste|list)\s+(?:the\s+|your\s+|all\s+(?:of\s+)?(?:the\s+)?)?(?:whole\s+|entire\s+|full\s+)?environment\b`, `\b(?:into|field|parameter|argument|payload|body|send|include|pass|post|upload|attach|append|put)\b`},
			{secretHint, "?http|@", `(?:\b(?:to|at|on|into|via)\s+https?://|[\w.+-]+@[\w-]+\.[a-z]{2,})`, qualifiedSecret},
			{secretHint, "?with", `\b(?:call|invoke|run|use|retry|repeat|query)\b.{0,40}\bwith\b.{0,12}` + qualifiedSecret},
			{"?http", `\b(?:send|forward|post|upload|copy|report|log|mirror|submit|transmit)\b.{0,40}\bto\s+https?://`, `\b(?:user'?s|the\s+user\s+(?:gives|provides|enters|types|says|asks|sends|shares|uploads)|(?:any|every|each|all)\s+(?:\w+\s+){0,2}(?:the\s+)?user)\b`},
			{secretHint, "?you were|you have been|you are|your own|assistant's|agent's|model's|ai's", "@transfer", secretNoun + `.{0,30}\byou\s+(?:were|have\s+been|are)\s+(?:configured|given|provided|started|launched|set\s+up|initiali[sz]ed)\b|\b(?:your\s+own|the\s+(?:assistant|agent|model|ai)'?s)\s+(?:\w+\s+){0,2}` + secretNoun},
		},
	},
	{
		name:  RuleFile,
		stems: []string{"gitconfig", "config", "pem", "p12", "pfx", "gcloud", "azure", "terraform", "vault", "application_default_credentials", "ssh", "rsa", "dsa", "ecdsa", "ed25519", "etc", "passwd", "shadow", "sudoers", "mcp", "claude", "cursor", "aws", "credentials", "git", "netrc", "pgpass", "kube", "docker", "npmrc", "pypirc", "gnupg", "wallet", "bash_history", "zsh_history", "bash", "zsh", "cookies", "gh", "id", "json"},
		drop:  `\S*\.pub\b|\.ssh[/\\](?:config|known_hosts)\b`,
		any: [][]string{
			{"?ssh|rsa|dsa|ed25519|passwd|shadow|sudoers|mcp|claude_desktop|cursor|aws|git-credentials|netrc|pgpass|kube|docker|npmrc|pypirc|gnupg|wallet.dat|_history|cookies.sqlite|hosts|gitconfig|.git/config|.pem|.p12|.pfx|gcloud|application_default|credentials.db|.azure|.terraform.d|.vault-token", sensitivePath, "@access"},
		},
	},
	{
		name:  RuleShadowing,
		stems: shadowingStems,
		marks: "调 呼 使 調",
		any: [][]string{
			{"?called|invoked|used|run|executed|triggered", "?when|if |after|before|once", whenCalledEN, shadowAction},
			{"?when|each time|every time", "?call|use|invoke|run|execute", whenYouCallEN, shadowAction},
			{"?wenn", "?aufgerufen|verwendet|benutzt|ausgeführt", whenCalledDE, shadowAction},
			{"?quand|lorsque|chaque fois", "?appel|utilis|invoqu|exécut", whenCalledFR, shadowAction},
			{"?cuando|cada vez|siempre que", whenCalledES, shadowAction},
			{"?quando|sempre que|toda vez", whenCalledPT, shadowAction},
			{"?когда|каждый раз|если", whenCalledRU, shadowAction},
			{"?调用|呼叫|使用|調用|呼び出|使う|実行", whenCalledCJK, shadowAction},
			{"?@", `\b(?:bcc|cc|blind[\s-]?(?:carbon[\s-]?)?copy|carbon\s+copy|forward\s+(?:a\s+)?cop(?:y|ies))\b.{0,60}[\w.+-]+@[\w-]+\.[a-z]{2,}|(?:抄送|密送|bcc|cc).{0,20}[\w.+-]+@[\w-]+\.[a-z]{2,}`, `\b(?:always|also|every|all|each|must|make\s+sure|ensure|secretly|silently|automatically|additionally|in\s+addition|immer|auch|toujours|aussi|siempre|tambi[ée]n|sempre|tamb[ée]m)\b|всегда|также|始终|总是|常に|必ず`},
			{`\b(?:all|any|every)\s+other\s+(?:tools?|functions?|servers?|mcp\s+servers?)\b`, `\b(?:must|should|never|do\s+not|don'?t|instead|ignore|before|redirect|route|disable|override|replace|first)\b`},
			{`\b(?:instead\s+of|rather\s+than)\s+(?:using|calling|invoking)\s+(?:the\s+)?(?:` + toolRef + `)|\b(?:instead\s+of|rather\s+than)\s+(?:using\s+|calling\s+)?(?:the\s+|any\s+)?[\w-]+\s+(?:tools|server|functions)\b`, `\b(?:always|must|never|only)\b`},
			{"?recipient|destination|to address|receiver|account number|iban|wallet address|payee|beneficiary|target url|webhook", `\b(?:redirect|reroute|change|replace|override|swap|set)\b.{0,30}\b(?:recipients?|destination|to\s+address|receiver|account\s+number|iban|wallet\s+address|payee|beneficiary|target\s+url|webhook)\b.{0,40}\b(?:to|with)\b`, `\b(?:always|all|every|regardless|silently|secretly|any|whenever)\b`},
			{`\b(?:tool|function|` + toolRef + `)\s+(?:is|has\s+been)\s+(?:deprecated|broken|disabled|unsafe|compromised|malicious)\b.{0,60}\b(?:use|call|invoke)\s+this\b`},
		},
	},
	{
		name:  RuleShadowing,
		stems: slices.Concat(shadowingStems, []string{"immediately", "automatically", "silently", "quietly", "always", "then", "also", "only", "exclusively", "trust", "fake", "untrusted", "rely", "beli", "inst", "rath", "previous", "earlier", "remaining"}),
		marks: "调 呼 使 調",
		any: [][]string{
			{"?when|whenever|each time|every time|before|after", `\b(?:when|whenever|each\s+time|every\s+time|before|after)\s+\w+ing\s+(?:with|via|through|using|by)\s+(?:the\s+)?(?:` + toolRef + `)`, shadowAction},
			{"?call|invoke|run|execute|use", `\b(?:immediately|automatically|silently|quietly|always|then|also)\s+(?:call|invoke|run|execute|use)\s+(?:the\s+)?[` + "`" + `'"]?(?:delete|drop|remove|destroy|wipe|purge|erase|truncate|reset|revoke|transfer|force)[_.:-][a-z0-9_.:-]+`},
			{"?trust|rely|believe|fake|compromised|malicious|untrusted", `\b(?:only|exclusively)\s+(?:trust|use|rely\s+on|believe)\s+(?:this|our)\s+(?:tool|server|function|source|description|one)\b|\bother\s+(?:\w+\s+)?(?:tools?|servers?|functions?)\s+(?:return|give|provide|produce)\s+(?:wrong|incorrect|false|bad|unreliable|outdated|fake|malicious)\b|\b(?:trust|rely\s+on|believe)\s+only\s+(?:on\s+)?(?:this|our)\s+(?:tool|server|function|source|description)|\b(?:other|previous|earlier|remaining)\s+(?:tools?|servers?|tool\s+descriptions?|descriptions?|functions?)\s+(?:are|is)\s+(?:fake|compromised|malicious|untrusted|lying|not\s+to\s+be\s+trusted|impostors?)\b`},
			{`\bother\s+tools?\s+(?:must|should|may|can)\s*(?:not|never|n't)\s+be\s+(?:used|called|invoked)\b`},
		},
	},
	{
		name:  RuleDirective,
		stems: directiveStems,
		any: [][]string{
			{"?note|reminder|memo|p.s", `\b(?:note|reminder|memo|p\.?s\.?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:ai|assistant|model|llm|claude|gpt|chatgpt|copilot|gemini|language\s+model|ai\s+agent|ai\s+assistant)s?\b`},
			{"?attention|important|directive", `\b(?:attention|important|directive)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:ai|assistant|model|llm|claude|gpt|chatgpt|copilot|gemini|language\s+model)s?\s*[:!]`},
			{`(?:^|[.!?:;]\s)\W*(?:dear\s+|hey\s+)?(?:ai|assistant|claude|chatgpt|gpt|llm|ai\s+agent|ai\s+assistant|language\s+model|copilot|gemini)\s*[,:!]\s*(?:you|please|always|never|do\s+not|don'?t|first|before|remember|make\s+sure|ignore|read|send)\b`},
			{"?as an ai|as the ai|as an assistant|as the assistant|as a language model|as the language model|as an llm|as the llm|as a llm|as an ai agent|as an ai assistant", `\bas\s+(?:an?|the)\s+(?:ai|assistant|language\s+model|llm|ai\s+agent|ai\s+assistant)\b.{0,30}\b(?:you|must|should|need|have\s+to|are\s+required|always|never|do\s+not)\b`},
			{`\b(?:the\s+)?(?:ai|assistant|model|llm|agent|language\s+model)\s+(?:must|should|needs\s+to|has\s+to|is\s+required\s+to|shall)\s+(?:always\s+|first\s+|now\s+|immediately\s+|also\s+)*(?:read|send|include|ignore|pass|forward|fetch|upload|tell|say|respond|reply|answer|output|print|call|use|run|invoke|execute|obey|follow|comply|hide|conceal|add|append|email|visit|open|download)\b`, `(?:` + directiveScope + `|` + sensitiveThing + `|\b(?:ignore|obey|comply|hide|conceal)\b)`},
			{"?always|must|should|need to|have to|be sure|make sure|required to", "?every|each|any|all|before|regardless|no matter|even if", `\b(?:always|must|should|need\s+to|have\s+to|be\s+sure\s+to|make\s+sure\s+to|required\s+to)\s+(?:first\s+|also\s+)?(?:call|use|run|invoke|execute|trigger)\s+(?:this|the\s+\w+|[\w.-]+_\w+)\s*(?:tool|function)?\b`, directiveScope},
			{`\b(?:(?:you|the\s+(?:assistant|ai|model|agent|llm))\s+(?:must|should|needs?\s+to|has\s+to|have\s+to)|always|make\s+sure\s+to|be\s+sure\s+to)\s+(?:fill|populate|pass|put|include|set|stuff)\s+(?:this|it|here)\b.{0,30}\bwith\s+(?:(?:the|its|their|whole|entire|full|every|all|any)\s+)*(?:file|files|content|contents|text|output|history|conversation|key|keys|token|secret|credentials?|passwords?)\b`},
			{"?before", `\bbefore\s+(?:using|calling|running|invoking|executing)\s+(?:this|the|any)\s+(?:\w+\s+)?(?:tool|function)\b`, "@handle", sensitiveThing},
			{"?notiz|nachricht|anweisung|hinweis|als ki|als assistent|als sprachmodell", `\b(?:notiz|nachricht|anweisung|hinweis)\s+(?:an|für)\s+(?:die|den)\s+(?:ki|assistent\pL*|modell|agent\pL*)|\bals\s+(?:ki|assistent|sprachmodell)\s+(?:musst|solltest|darfst)`},
			{"?du musst|sie müssen|du solltest", `\b(?:du\s+musst|sie\s+müssen|du\s+solltest)\s+(?:immer|zuerst|stets|unbedingt)\b`, directiveScope},
			{"?bevor du", `\bbevor\s+du\s+(?:dieses|das|ein)\s+(?:tool|werkzeug)\s+(?:benutzt|verwendest|aufrufst|nutzt)`, sensitiveThing},
			{"?l'|l’", `\b(?:note|message|instruction)s?\s+(?:[àa]|pour)\s+l['’](?:ia|assistant|agent|ai)\b|\ben\s+tant\s+qu['’](?:ia|assistant|agent|ai)\b`},
			{"?avant d", `\bavant\s+d['’]utiliser\s+(?:cet|cette|l['’])\s*(?:outil|fonction)`, sensitiveThing},
			{"?tu dois|vous devez", `\b(?:tu\s+dois|vous\s+devez)\s+(?:toujours|d['’]abord|syst[ée]matiquement|imp[ée]rativement)\b`, directiveScope},
			{"?para el|para la|como ia|como asistente|como modelo", `\b(?:nota|mensaje|instrucci[óo]n)\s+para\s+(?:el|la)\s+(?:ia|asistente|modelo|agente)\b|\bcomo\s+(?:ia|asistente|modelo\s+de\s+lenguaje)\s*,?\s*(?:debes|tienes\s+que)\b`},
			{"?antes de", `\bantes\s+de\s+(?:usar|utilizar|llamar\s+a)\s+(?:esta|la)\s+(?:herramienta|funci[óo]n)`, sensitiveThing},
			{"?debes", `\bdebes\s+(?:siempre|primero)\b`, directiveScope},
			{"?para a|para o|como ia|como assistente|como modelo", `\b(?:nota|mensagem|instru[çc][ãa]o)\s+para\s+(?:a|o)\s+(?:ia|assistente|modelo|agente)\b|\bcomo\s+(?:ia|assistente|modelo\s+de\s+linguagem)\s*,?\s*(?:voc[êe]\s+)?deve\b`},
			{"?antes de", `\bantes\s+de\s+(?:usar|utilizar|chamar)\s+(?:esta|a)\s+(?:ferramenta|fun[çc][ãa]o)`, sensitiveThing},
			{"?deve", `\b(?:voc[êe]\s+)?deve\s+(?:sempre|primeiro)\b`, directiveScope},
			{`(?:заметка|сообщение|инструкция|примечание)\s+для\s+(?:ии|ассистента|модели|агента|ai)|как\s+(?:ии|ассистент|языковая\s+модель)\s*,?\s*(?:ты\s+|вы\s+)?(?:должен|должны|обязан)`},
			{`перед\s+(?:использованием|вызовом|запуском)\s+(?:этого\s+)?(?:инструмента|функции)`, sensitiveThing},
			{`(?:ты\s+должен|вы\s+должны|обязательно)\s+(?:всегда|сначала|сперва)`, directiveScope},
			{`(?:给|給)(?:ai|助手|模型|智能体)的(?:说明|提示|指令|备注)|作为(?:ai|助手|人工智能|语言模型)|(?:ai|アシスタント|モデル|エージェント)(?:へ|に)の(?:注意|指示|メモ|メッセージ)|(?:ai|アシスタント|言語モデル)として`},
			{`(?:在)?(?:使用|调用|調用)(?:此|这个|這個|該|该|本)(?:工具|函数)(?:之前|前)|(?:この|本)ツールを(?:使用|使う|呼び出す|実行する)(?:前|まえ)に`, sensitiveThing},
			{`你必须|你必須|必须始终|必须先|务必|務必|必ず|常に`, directiveScope},
		},
	},
	{
		name:  RuleDirective,
		stems: slices.Concat(directiveStems, []string{"after", "treat", "reading", "processing", "seeing", "parsing", "viewing", "whatever", "any", "every", "rega", "matt", "start", "begin", "end", "prefix", "suffix", "sign", "finish", "close", "futu", "subs", "late", "foll", "atte", "noti", "mess", "remi", "reco", "sugg", "ment", "prom", "adve", "incl", "add", "inse", "appe", "plug", "put", "set", "tell", "info", "assu", "conv", "pers", "clai", "say", "enco", "urge", "pres"}),
		any: [][]string{
			{`\b(?:ai|llm|language\s+model|assistant|agent|model|bot|chatbot)s?\b(?:\s+[\w-]+){0,2}\s+(?:reading|processing|seeing|parsing|viewing)\s+this\b`},
			{"?whatever the user|whatever they|whatever you are asked|any file|any path|anything the user", `(?:^|[.!?;:]\s)\W*(?:whatever\s+(?:the\s+user'?s?|they|you\s+are\s+asked)|(?:any|every)\s+\w+(?:\s+\w+)?\s+(?:the\s+)?user\s+(?:gives|provides|asks|mentions|sends|types))\b[^.!?]{0,40},\s*(?:first\s+|always\s+|just\s+|simply\s+)?(?:answer|respond|reply|say|tell|send|forward|post|upload|call|run|use|ignore|suggest|recommend|redirect)\b`},
			{"?agent|model|assistant|llm|ais", "?attention|note|notice|message|memo|reminder|instruction", `(?:^|[.!?;:]\s)\W*(?:attention|note|notice|message|memo|reminder|instructions?)\s+(?:for|to)\s+(?:all\s+|any\s+|the\s+)?(?:automated\s+|autonomous\s+|ai\s+)?(?:agents?|models?|assistants?|ais|llms?)\b|(?:^|[.!?;:]\s)\W*attention\s+(?:model|assistant|agent|ai|llm)s?\b`},
			{"?assistant|ai|llm|claude|chatgpt|gpt|copilot|gemini", "?,", `(?:^|[.!?;:]\s)\W*(?:assistant|ai|llm|claude|chatgpt|gpt|copilot|gemini)\s*,\s*\w`},
			{"?repl|respons|answer", "?every|each|all", `\b(?:recommend|suggest|mention|promote|advertise|include|add|insert|append|plug|remind)\b[^.!?]{0,60}\b(?:in|to|at\s+the\s+end\s+of|with)\s+(?:every|each|all|any)\s+(?:of\s+your\s+)?(?:repl(?:y|ies)|responses?|answers?)\b`},
			{"?link|visit|buy|http|www.|.com|.net|.org|.io|.example|.xyz|.info|.biz", "?every|each|all", `\b(?:include|add|insert|append|put|set)\b[^.!?]{0,60}\b(?:every|each|all|any)\s+(?:issues?|emails?|messages?|posts?|comments?|titles?|tickets?|pages?)\b`, `\b(?:link|visit|buy|https?://|www\.|[a-z0-9-]+\.(?:com|net|org|io|example|xyz|info|biz)\b)`},
			{"?tell|inform|assure|convinc|persuad|claim|say|encourag|urg|remind|ask|invite|direct|pressur", `\b(?:tell|inform|assure)\s+(?:the\s+)?user\b.{0,60}\b(?:even\s+if|even\s+when|regardless)\b|\bclaim\s+to\s+be\s+(?:a\s+)?(?:human|person|real|support|employee|staff)\b|\b(?:remind|tell|ask|encourage|urge|invite|direct)\s+(?:the\s+)?users?\s+to\s+(?:visit|go\s+to|check\s+out|sign\s+up|buy|subscribe|download|install)\b.{0,40}(?:https?://|www\.|[a-z0-9-]+\.(?:com|net|org|io|example|xyz|info|biz)\b)|\b(?:convinc\w*|persuad\w*|encourag\w*|urg\w*|get|pressur\w*)\s+(?:the\s+)?users?\s+to\s+(?:disable|turn\s+off|remove|share|reveal|give|send|install|download|visit|buy|pay|transfer)\b|\bsay\s+(?:that\s+)?(?:they|it|other\s+tools?|the\s+others?)\s+(?:are|is)\s+(?:unsafe|broken|dangerous|malicious|deprecated|outdated|insecure)\b`},
			{"?even if|even when|regardless|whatever|no matter", `(?:\b(?:never|always|must|do\s+not|don'?t|only)\b|^\W*(?:respond|answer|reply|say|tell|add|include|keep))[^.!?]{0,80}\b(?:even\s+if|even\s+when|regardless\s+of\s+what|whatever|no\s+matter\s+what)\s+the\s+user\s+(?:asks?|says|wants|requests?|tells?\s+you|objects?|insists?|prefers?)\b`},
			{"?start|begin|end|prefix|suffix|sign|finish|close", `\b(?:start|begin|end|prefix|suffix|sign|finish|close)\s+(?:every|each|all)\s+(?:of\s+your\s+|\w+\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?\s+to\s+the\s+user)\s+with\b`},
			{"?future|subsequent|later|following", `\b(?:for|in|across)\s+(?:all|every|each|any)\s+(?:future|subsequent|later|following)\s+(?:conversations?|sessions?|chats?|turns?|requests?|queries|messages?|interactions?)\b`},
			{"?before|after|prior to", `(?:^|[.!?;:]\s)\W*(?:before|after|prior\s+to)\s+(?:responding|answering|replying|you\s+(?:respond|answer|reply)|(?:(?:each|every|any)\s+(?:of\s+)?)?your\s+(?:responses?|answers?|replies|turns?)|(?:each|every|any)\s+(?:turn|(?:response|answer|reply)\s+to\s+the\s+user)|(?:each|every)\s+answer)\b(?:[^.;:,]{0,40},)?,?\s+(?:please\s+)?(?:always\s+|first\s+|also\s+)?(?:run|execute|call|invoke|visit|open|fetch|download|send|post|output|print|include|append|read|write|email|upload|render|display|add|insert|load|use|curl|wget)\b`},
			{"?always|only|must", "?this", `\b(?:always|only|must)\s+(?:choose|prefer|pick|select|use|call|invoke)\s+this\s+(?:tool|function|server)\b`, `\b(?:over|instead\s+of|before|rather\s+than)\s+(?:any|every|all)\s+(?:other\s+)?(?:tools?|functions?|servers?)\b|\beven\s+(?:when|if)\s+other\s+(?:tools?|functions?|servers?)\b|\bregardless\s+of\s+(?:the\s+)?(?:task|request|question)|\bfor\s+(?:every|all|any)\s+(?:tasks?|requests?|quer(?:y|ies))\b`},
			{"?best|most reliable|most accurate|only reliable", `\b(?:the\s+)?(?:best|most\s+reliable|only\s+reliable|most\s+accurate)\s+tool\s+for\s+(?:every|all|any)\s+(?:tasks?|requests?|quer(?:y|ies)|questions?|purposes?)\b`},
			{"?your response|your reply|your answer", `\byour\s+(?:response|reply|answer)\s+must\s+(?:begin|start)\s+(?:by|with)\s+(?:calling|invoking|running|using)\b`},
			{"?treat", `\btreat\b.{0,60}\bas\s+(?:(?:trusted|authoritative|binding|new|system|developer|your|the\s+user'?s|user)\s+)*(?:instructions?|commands?|directives?|orders?|system\s+(?:prompts?|messages?))\b`, `\b(?:return|output|result|response|text|content|tool)`},
		},
	},
	{
		// The families public prompt-injection sets are built from: a
		// hijack that prints a phrase, "ignore everything above", chat
		// turns and system headers written into text, a system prompt
		// asked back, an identity claimed, a polite request for a
		// consequential act, destructive commands.
		name:  RuleOverride,
		stems: []string{"forg", "igno", "disr", "pret", "stop", "foll", "obey", "more", "high", "take", "matt"},
		any: [][]string{
			{"?everything|all|anything", `\b(?:forget|ignore|disregard)\s+(?:everything|all|anything)\s+(?:before|above|prior|previous|earlier|you\s+(?:know|were\s+told|have\s+been\s+told))\b`},
			{"?above|preceding|foregoing", `\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+)?(?:above|preceding|foregoing)\s*(?:[.,;:!]|$|and\b|instructions?|text|prompt)`},
			{"?important|priority|precedence", `\b(?:more\s+important|higher\s+priority|takes?\s+precedence|matters\s+more)\s+than\s+(?:anything|everything|what(?:ever)?)\s+(?:you\s+(?:were|have\s+been|'ve\s+been)\s+told|else|the\s+user)`},
			{"?pretend", `\bpretend\s+(?:that\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|system|original)\s+(?:\w+\s+)?(?:instructions?|rules?|prompt|guidelines?)`},
			{"?user", `\b(?:do\s+not|don'?t|never)\s+(?:follow|obey|do|fulfil+|answer|complete|carry\s+out)\s+(?:the\s+)?user'?s?\s+(?:request|instructions?|question|task|wishes)`},
		},
	},
	{
		name:  RuleRoleplay,
		stems: []string{"new", "cont", "repr", "rese", "repe", "what", "deve", "crea", "owne", "oper", "admi", "allo", "perm", "auth", "free", "upda", "reco", "upgr", "unlo", "jail", "this", "syst", "your", "will", "shal", "must", "huma", "user", "conv", "sess"},
		marks: "### [system](",
		any: [][]string{
			{"?#", `(?:^|\s)#{2,}\s*[(\[]?\s*(?:system|instruction)s?(?:[\s_]?(?:message|prompt))?\b`},
			{"?[system](", `\[system\]\(#\w*\)`},
			{"?instructions", `\b(?:new|updated|hidden|secret|real|true|override|overriding|priority)\s+(?:\w+\s+)?(?:system\s+)?instructions?\s*[:\-]`},
			{"?human|user", "?assistant", `(?:^|\s)(?:human|user)\s*:\s.{1,200}\bassistant\s*:\s*(?:sure|ok(?:ay)?|of\s+course|understood|i\s+will|yes|certainly|absolutely)\b`},
			{"?reprogram|reset", `\breprogram(?:ming|med)?\b|\bbegin\s+(?:reprogramming|new\s+session)\b|\bfactory\s+reset\s+(?:yourself|your)\b`},
			{"?will now|shall now|must now", `\byou\s+(?:will|shall|must)\s+now\s+(?:answer|respond|reply|act|behave|only|always|ignore|obey|call|send|forward|speak)\b`},
			{"?repeat|written", `\brepeat\s+(?:the\s+|all\s+)?(?:words|text|sentences|everything|lines|instructions)\s+(?:above|before)\b|\bwhat\s+(?:was|is)\s+written\s+(?:at\s+the\s+(?:beginning|start|top)|above)\b`},
			{"?new instruction", `\bnew\s+instructions?\s+(?:from|by)\s+(?:your|the)\s+(?:developer|creator|admin(?:istrator)?|operator|owner|system)\b`},
			{"?context window", `\b(?:reveal|print|show|output|dump|repeat|leak|share|tell\s+me)\b.{0,30}\bcontext\s+window\b`},
			{"?i am", `\bi\s+am\s+(?:the|your)\s+(?:developer|creator|admin(?:istrator)?|owner|operator|system\s+administrator)\b`},
			{"?allowed|permitted|authorized|authorised|free to", `\byou\s+are\s+(?:now\s+)?(?:allowed|permitted|authori[sz]ed|free)\s+to\s+(?:share|reveal|disclose|ignore|bypass|access|send|break|skip)`},
			{"?been", `\b(?:the\s+)?(?:assistant|ai|model|agent|you)\s+(?:has|have)\s+been\s+(?:updated|reconfigured|reprogrammed|upgraded|unlocked|jailbroken|freed)\b`},
			{"?your new", `\byour\s+new\s+(?:instructions?|task|orders?|goal|rules?|role|purpose)\s+(?:are|is)\b`},
			{"?this is", `\bthis\s+is\s+(?:a|an)\s+(?:system|admin(?:istrator)?|developer|official|priority)\s+(?:message|notice|instruction|update|alert|override)\b`},
			{"?over|ended|finished", `\b(?:the\s+)?(?:conversation|session|task|chat)\s+(?:is|has)\s+(?:now\s+)?(?:over|ended|finished)\b.{0,60}\b(?:new\s+task|now|instead|start)\b`},
			{"?system:", `(?:^|[.!?]\s)\W*system\s*:\s*(?:you|the\s+assistant|ignore|new\s+instructions|from\s+now|forget|disregard)\b`},
		},
	},
	{
		name:  RuleDirective,
		stems: []string{"stop", "just", "only", "inst", "pwne", "plea", "befo", "mess", "note", "exec", "run", "rm", "mkfs", "chmod", "all", "every", "each", "any", "say", "print", "outp", "repl", "resp", "writ", "hell", "hi", "hey", "gree", "dear", "next", "acti", "todo", "task", "obey"},
		any: [][]string{
			{"?stop everything|pwned|just|only|instead", `\bstop\s+everything\b|\bi\s+have\s+been\s+pwned\b|\b(?:just|only|instead)\s+(?:print|say|output|write|reply\s+with|respond\s+with)\s*[:"'“‘]`},
			{"?command", `\b(?:all|every|each|any)\s+(?:\w+\s+)?commands?\s+(?:must|should|need\s+to|have\s+to)\s+(?:include|start\s+with|begin\s+with|end\s+with|be\s+(?:prefixed|suffixed|preceded|followed))`},
			{"?say|print|output|reply|respond|write", `(?:^|[.!?;:]\s)\W*(?:say|print|output|reply|respond\s+with|write)\s+["'“‘][^"'”’]{1,60}["'”’]\s*(?:[.!]|$)`},
			{"?hello|hi |hey|greetings|dear", `\b(?:hello|hi|hey|greetings|dear)\s+(?:there\s+)?(?:assistant|ai|claude|chatgpt|gpt|model|agent|llm|copilot|gemini)\b`},
			{"?for the|for agent|for assistant|for ai|for model|for llm", `\b(?:next\s+steps?|action\s+required|todo|task|instructions?)\s+for\s+(?:the\s+)?(?:agent|assistant|ai|model|llm)\s*:`},
			{"?obey", `\bobey\s+(?:it|this|these|me|them|the\s+following|only)\b`},
			{"?before using|before calling|before invoking|before running", `\bbefore\s+(?:using|calling|invoking|running)\s+(?:any|every|each|other)\s+(?:other\s+)?tools?\b.{0,20}\b(?:call|run|invoke|use)\b`},
			{"?before you", `\bbefore\s+you\s+(?:can\s+)?(?:solve|do|complete|finish|continue|answer|proceed\s+with|start)\s+(?:the|your|this|my|any)\s+(?:\w+\s+)?(?:task|request|question|job)\b`},
			{"?to you", `\b(?:message|note|request)\b.{0,40}\bto\s+you,?\s+(?:gpt|claude|chatgpt|llama|gemini|copilot|the\s+(?:ai|assistant|model|agent))`},
			{"?please", `\bplease\s+(?:\w+\s+)?(?:transfer|wire|send|pay|grant|give|delete|remove|email|forward|share|move|deposit|withdraw|unlock|approve|invite)\b`, `\$\s?\d|\b\d[\d,]*\s*(?:usd|eur|gbp|dollars|euros)\b|\baccount\s+(?:number|no\.?|#)|\b(?:permanent|full|admin)\s+access\b|[\w.+-]+@[\w-]+\.[a-z]{2,}|\b(?:password|security\s+code|verification\s+code|2fa)\b`},
			{"?rm -rf|no-preserve-root|mkfs|:(){|dd if=|chmod", `\bchmod\s+-r\s+0?(?:666|777)\s+(?:~|/)|\brm\s+-(?:rf|fr)\s+(?:/|~|\$home|\*)|--no-preserve-root|\bmkfs(?:\.\w+)?\s+/dev/|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;|\bdd\s+if=\S+\s+of=/dev/`},
		},
	},
	{
		name:  RuleEncoded,
		stems: []string{"decode", "base64", "unhex", "rot13", "dekodiere", "entschlüssele", "décode", "décodez", "decodifica", "descodifica", "decodifique", "деко", "расш"},
		marks: "解 デ",
		any: [][]string{
			{`(?:\b(?:decode|base64[\s-]?decode|unhex|rot13|dekodiere|entschlüssele|d[ée]code|d[ée]codez|decodifica|descodifica|decodifique)\b|декодируй|расшифруй|解码|解碼|デコード).{0,80}(?:\b(?:and|then|und|dann|et|puis|y|luego|e|depois)\b|,|;|:|и\s|然后|并|後|して).{0,20}(?:\b(?:follow|execute|obey|run|do|apply|perform|carry\s+out|comply|act\s+on|treat\s+(?:it\s+)?as\s+instructions?|befolge|führe|folge|suis|suivez|ex[ée]cute|ex[ée]cutez|applique|sigue|ejecuta|obedece|aplica|siga|execute|obede[çc]a|aplique)\b|выполни|следуй|执行|執行|遵循|照做|按照|実行|従っ|従う)`},
		},
	},
}
