package search

import (
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Values in an intent: agents pass whole task sentences, and the paths,
// file names, URLs, domains, email addresses, ids and pasted blobs in
// them are not the topic ("list the files in ~/Music/albums" is not about
// music). Each value-shaped token is cut out of the intent before its
// words are read and replaced by the words its shape implies: a path by
// "file" and its format ("reports/q3.md": file markdown) or by
// "directory"; a URL by "url" and "web"; a domain by "domain" and "web";
// an email address by "email". A domain or URL to be opened ("go to example.org",
// "visit https://...") adds "url" and "navigate", what a browser does,
// and "go" there is no topic. The names inside a value (folders, a
// file's stem, a host's labels) are kept as weak words: the words leg's
// low-weight query at most, never the boosts; so is a name given or meant
// after a naming verb ("a directory called build", "a page titled 'Q3
// plans'", see namingVerbs). An opaque blob or id
// (base64, hex, a UUID) is dropped. A path that something is saved,
// written or exported to adds "write"; a file named with no word saying
// what to do to it adds "read". An SQL statement adds "sql" (see
// sqlSpan).

// valueReading is what readValues finds in an intent.
type valueReading struct {
	text  string   // the intent with every value cut out
	hints []string // words the values' shapes imply
	weak  []string // words of the values' own names, lower-cased
}

// formats maps a file extension to the words catalogs use for its format,
// grown from the file types the descriptions of the real catalogs name
// (testdata/catalogs): json, text, log, markdown, html, pdf, yaml, png,
// docx, xml, csv, excel, images, audio, video, archives, sql, source code.
var formats = map[string][]string{
	"json": {"json"}, "jsonl": {"json"}, "ndjson": {"json"},
	"txt": nil, "text": nil, "log": {"log"},
	"md": {"markdown"}, "markdown": {"markdown"}, "mdx": {"markdown"},
	"html": {"html"}, "htm": {"html"},
	"pdf":  {"pdf"},
	"yaml": {"yaml"}, "yml": {"yaml"}, "toml": {"toml"}, "xml": {"xml"},
	"csv": {"csv", "spreadsheet"}, "tsv": {"csv", "spreadsheet"},
	"xlsx": {"excel", "spreadsheet"}, "xls": {"excel", "spreadsheet"}, "xlsm": {"excel", "spreadsheet"},
	"ods":  {"spreadsheet"},
	"docx": {"docx", "document"}, "doc": {"document"}, "odt": {"document"}, "rtf": {"document"},
	"pptx": {"presentation", "slides"}, "ppt": {"presentation", "slides"},
	"png": {"png", "image"}, "jpg": {"jpeg", "image"}, "jpeg": {"jpeg", "image"}, "gif": {"gif", "image"},
	"webp": {"webp", "image"}, "svg": {"svg", "image"}, "bmp": {"image"}, "tiff": {"image"}, "ico": {"image"},
	"heic": {"image"},
	"mp3":  {"mp3", "audio"}, "wav": {"audio"}, "flac": {"audio"}, "ogg": {"audio"}, "m4a": {"audio"},
	"mp4": {"mp4", "video"}, "mov": {"video"}, "webm": {"video"}, "mkv": {"video"}, "avi": {"video"},
	"zip": {"zip", "archive"}, "tar": {"archive"}, "gz": {"archive"}, "tgz": {"archive"}, "7z": {"archive"},
	"rar": {"archive"},
	"sql": {"sql"}, "db": {"database"}, "sqlite": {"sqlite", "database"},
	"ipynb": {"notebook"},
}

// languages maps the extension of a source file to its language, where
// the catalogs use a word for it (python, javascript, typescript). A path
// to one is a file, and its language a weak word: it says how the file
// reads, not what to do with it ("update src/config.ts" asks for no
// TypeScript tooling). One-letter extensions (.c, .h) are left out: they
// end abbreviations (Washington, D.C.).
var languages = map[string]string{
	"py": "python", "js": "javascript", "mjs": "javascript", "cjs": "javascript",
	"jsx": "javascript", "ts": "typescript", "tsx": "typescript", "mts": "typescript",
	"go": "", "rs": "", "java": "", "kt": "", "rb": "", "php": "", "cs": "",
	"cpp": "", "hpp": "", "swift": "", "scala": "",
	"sh": "", "bash": "", "ps1": "", "css": "", "scss": "", "vue": "",
}

// extension reads a file extension (without its dot, any case): the
// format words it implies, the weak words it adds (a source file's
// language), and whether it is known at all.
func extension(ext string) (hints, weak []string, known bool) {
	ext = strings.ToLower(ext)
	if format, ok := formats[ext]; ok {
		return format, nil, true
	}
	lang, ok := languages[ext]
	if ok && lang != "" {
		weak = []string{lang}
	}
	return nil, weak, ok
}

// productEndings are extensions that also end product names written as
// one word (Node.js, Next.js): such a name alone, without a folder, is
// not a file.
var productEndings = setOf("js")

// topLevelDomains are the endings that make a dotted token a domain. A
// tool name's dotted form (weather.get) ends in none of them.
var topLevelDomains = setOf(
	"com", "org", "net", "io", "dev", "ai", "app", "co", "edu", "gov", "info", "xyz",
	"us", "uk", "de", "fr", "jp", "cn", "ru", "br", "ca", "au", "nl", "eu", "ch", "es",
	"se", "tv", "cloud", "site", "tech", "online", "biz",
)

// namedFiles are the files a project names without an extension, as
// the real catalogs' examples do (README, Dockerfile): each is a file,
// not the topic, in any case.
var namedFiles = setOf("readme", "dockerfile", "makefile", "gemfile", "procfile", "jenkinsfile",
	"vagrantfile", "rakefile", "codeowners", "containerfile")

// capitalFiles are such files whose names are also common words: a file
// only written in capitals ("update the LICENSE", not "check my license").
var capitalFiles = setOf("LICENSE", "CHANGELOG", "NOTICE", "AUTHORS", "CONTRIBUTING")

// writeVerbs are the verbs that, with a path they lead "to", "into" or
// "as", say a file is to be written.
var writeVerbs = setOf("save", "saves", "saved", "saving", "write", "writes", "writing",
	"export", "exports", "exporting", "store", "dump", "persist", "output")

// Hints for each kind of value.
var (
	urlHints    = []string{"url", "web"}
	domainHints = []string{"domain", "web"}
	emailHints  = []string{"email"}
)

// minBlobRunes: a token this long made only of base64 or hex characters,
// with the digits or symbols of an encoding, is a pasted blob.
const minBlobRunes = 40

// readValues cuts the value-shaped tokens out of intent (see the comment
// at the top of this file).
func readValues(intent string) valueReading {
	var r valueReading
	var text []string // the fields kept, values cut to their punctuation
	fields := strings.Fields(intent)
	writing, target := false, false
	visiting := false           // the words just before are a visit verb, and "to" if any
	visitAt := 0                // text's index of that verb
	asked, file := false, false // a word outside values says what to do; a file is named
	naming := -1                // text's index of the naming verb just before, or -1
	quoted := false             // inside a quoted name that a naming verb leads
	nameFields := 0             // the fields of that name so far
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if n, names := sqlSpan(fields, i); n > 0 && !quoted {
			// A statement to run: "sql", its names weak.
			r.hints = append(r.hints, sqlHints...)
			r.weak = append(r.weak, names...)
			i += n - 1
			asked, naming, target, visiting = true, -1, false, false
			continue
		}
		lead, tok, trail := trimToken(f)
		if quoted || naming >= 0 && nameAfterVerb(lead, tok) {
			// A name given or meant: its words are weak, and the verb
			// that led it says nothing of the topic.
			r.weak = append(r.weak, words(tok)...)
			if naming >= 0 {
				text = slices.Delete(text, naming, naming+1)
				quoted, nameFields = isQuote(lead), 0
			}
			nameFields++
			quoted = quoted && !isQuote(trail) && nameFields < maxNameFields
			naming = -1
			continue
		}
		hints, weak, kind := classify(tok)
		if kind == notValue {
			asked = asked || slices.ContainsFunc(words(tok), func(w string) bool { return !stopWords[w] })
			lw := strings.ToLower(tok)
			writing = writing || writeVerbs[lw]
			target = lw == "to" || lw == "into" || lw == "as"
			if visitVerbs[lw] {
				visitAt = len(text)
			}
			visiting = visitVerbs[lw] || visiting && lw == "to"
			naming = -1
			if namingVerbs[lw] && trail == "" {
				naming = len(text)
			}
			text = append(text, f)
			continue
		}
		naming = -1
		if writing && target && (kind == fileValue || kind == dirValue) {
			hints = append(hints, "write")
		}
		if visiting && (kind == domainValue || kind == linkValue) {
			// A page to load: its address, and what a browser does.
			hints = slices.Clone(hints)
			for _, h := range [...]string{"url", "navigate"} {
				if !slices.Contains(hints, h) {
					hints = append(hints, h)
				}
			}
			if w := strings.ToLower(text[visitAt]); w == "go" || w == "goes" {
				// "go to example.com": the verb is no topic (Go the language).
				text = slices.Delete(text, visitAt, visitAt+1)
			}
		}
		target, visiting = false, false
		file = file || kind == fileValue
		r.hints = append(r.hints, hints...)
		r.weak = append(r.weak, weak...)
		text = append(text, lead+" "+trail)
	}
	if file && !asked {
		// A file named with nothing to do to it ("what's in notes.md?")
		// is to be read.
		r.hints = append(r.hints, "read")
	}
	r.text = strings.Join(text, " ")
	return r
}

// namingVerbs say that what follows them is a name given or meant ("make
// a directory called build", "the branch named release", "a page titled
// 'Q3 plans'"): a value, not the topic.
var namingVerbs = setOf("called", "named", "titled", "entitled")

// nameAfterVerb reports whether a field (its leading punctuation and its
// token) right after a naming verb is the name: quoted, or a word that
// is no stop word ("called by main" names nothing) and no value of its own.
func nameAfterVerb(lead, tok string) bool {
	if isQuote(lead) {
		return true
	}
	if tok == "" || isValue(tok) {
		return false
	}
	return slices.ContainsFunc(words(tok), func(w string) bool { return !stopWords[w] })
}

// isQuote reports whether a field's leading or trailing punctuation
// holds a quote mark.
func isQuote(punct string) bool {
	return strings.ContainsAny(punct, "'\"`")
}

// maxNameFields bounds a quoted name: a quote left open ends there.
const maxNameFields = 8

// trimToken splits a whitespace-separated field into the quotes and
// punctuation around it and the token inside: `'./a.png',` -> `'`,
// `./a.png`, `',`. A trailing full stop is punctuation; a trailing slash
// is kept (it makes a directory).
func trimToken(f string) (lead, tok, trail string) {
	const around = "'\"`()[]{}<>,;!?"
	tok = strings.TrimLeft(f, around)
	lead = f[:len(f)-len(tok)]
	end := strings.TrimRight(tok, around+".:")
	trail = tok[len(end):]
	return lead, end, trail
}

// visitVerbs are the verbs that, right before a domain (or before "to"
// and a domain), say it is a page to load: "open google.com", "go to
// example.org".
var visitVerbs = setOf("open", "opens", "opening", "visit", "visits", "visiting", "go", "goes",
	"navigate", "navigates", "navigating", "browse", "browsing", "load", "loads", "loading")

// valueKind is what classify found.
type valueKind int

const (
	notValue valueKind = iota
	fileValue
	dirValue
	domainValue
	linkValue  // a URL
	otherValue // an email address, blob or id
)

// classify reads one token: the words it implies, the weak words of its
// names, and its kind.
func classify(tok string) (hints, weak []string, kind valueKind) {
	switch {
	case tok == "":
		return nil, nil, notValue
	case strings.HasPrefix(tok, "data:") && strings.Contains(tok, ";base64,"):
		// data:image/png;base64,...: the media type's top level.
		mime, _, _ := strings.Cut(strings.TrimPrefix(tok, "data:"), ";")
		top, _, _ := strings.Cut(mime, "/")
		return words(top), nil, otherValue
	case strings.Contains(tok, "://") || strings.HasPrefix(strings.ToLower(tok), "www."):
		return urlValue(tok)
	case isEmail(tok):
		return emailHints, nil, otherValue
	case isBlob(tok) || isID(tok):
		return nil, nil, otherValue
	case isPath(tok):
		return pathValue(tok)
	}
	if namedFiles[strings.ToLower(tok)] || capitalFiles[tok] {
		return []string{"file"}, words(tok), fileValue
	}
	if strings.Contains(tok, ".") && !strings.ContainsAny(tok, "/\\") {
		ext := path.Ext(tok)
		e := strings.ToLower(ext[1:])
		if format, lang, known := extension(e); known && len(ext) < len(tok) && !productEndings[e] {
			return append([]string{"file"}, format...), append(words(strings.TrimSuffix(tok, ext)), lang...), fileValue
		}
		if isDomain(tok) {
			return domainHints, hostWords(tok), domainValue
		}
	}
	return nil, nil, notValue
}

// isValue reports whether tok is shaped as a value.
func isValue(tok string) bool {
	_, _, kind := classify(tok)
	return kind != notValue
}

// urlValue reads a URL: url and web, the format of the file it names if
// its path ends in a known extension, and its host's labels as weak words.
func urlValue(tok string) (hints, weak []string, kind valueKind) {
	rest := tok
	if _, after, ok := strings.Cut(tok, "://"); ok {
		rest = after
	}
	host, p, _ := strings.Cut(rest, "/")
	host, _, _ = strings.Cut(host, "?")
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	host, _, _ = strings.Cut(host, ":")
	hints = urlHints
	p, _, _ = strings.Cut(p, "?")
	weak = hostWords(host)
	if ext := path.Ext(p); ext != "" {
		format, lang, _ := extension(ext[1:])
		hints = append(slices.Clone(hints), format...)
		weak = append(weak, lang...)
	}
	return hints, weak, linkValue
}

// hostWords are the weak words of a host name: its labels but "www" and
// the top-level domain.
func hostWords(host string) []string {
	labels := strings.Split(strings.ToLower(host), ".")
	var out []string
	for i, l := range labels {
		if l == "www" || i == len(labels)-1 {
			continue
		}
		out = append(out, words(l)...)
	}
	return out
}

// pathValue reads a file system path: "file" and its format when its
// last segment has an extension, else "directory"; its folders and stem
// as weak words.
func pathValue(tok string) (hints, weak []string, kind valueKind) {
	p := strings.ReplaceAll(tok, `\`, "/")
	if len(p) > 2 && p[1] == ':' { // C:/data
		p = p[2:]
	}
	dir := strings.HasSuffix(p, "/")
	p = strings.TrimRight(p, "/")
	base := path.Base(p)
	ext := path.Ext(base)
	folders := path.Dir(p)
	for _, seg := range strings.Split(folders, "/") {
		if seg != "~" && seg != "." && seg != ".." {
			weak = append(weak, words(seg)...)
		}
	}
	if dir || ext == "" || ext == base {
		return []string{"directory"}, append(weak, words(base)...), dirValue
	}
	weak = append(weak, words(strings.TrimSuffix(base, ext))...)
	format, lang, _ := extension(ext[1:])
	return append([]string{"file"}, format...), append(weak, lang...), fileValue
}

// isPath reports whether tok is shaped as a file system path: it starts
// at a root, home or relative directory or a drive, or has backslashes,
// or has a slash and ends in one or in a known extension. A slash alone
// is not enough: "files/delete_file" names a server's tool, "and/or" is
// a word.
func isPath(tok string) bool {
	switch {
	case strings.HasPrefix(tok, "~/"), strings.HasPrefix(tok, "./"), strings.HasPrefix(tok, "../"):
		return true
	case len(tok) > 3 && unicode.IsLetter(rune(tok[0])) && tok[1] == ':' && (tok[2] == '\\' || tok[2] == '/'):
		return true
	case strings.HasPrefix(tok, "/"):
		// "/s" and "/FI" are command switches; "/tmp" and "/a/b" are paths.
		return strings.Count(tok, "/") > 1 || utf8.RuneCountInString(tok) > 3
	case strings.Count(tok, `\`) > 0 && !strings.ContainsAny(tok, " "):
		return true
	case strings.Contains(tok, "/"):
		if strings.HasSuffix(tok, "/") {
			return true
		}
		_, _, known := extension(strings.TrimPrefix(path.Ext(tok), "."))
		return known
	}
	return false
}

// isEmail reports whether tok is shaped as an email address.
func isEmail(tok string) bool {
	at := strings.IndexByte(tok, '@')
	return at > 0 && strings.Contains(tok[at+1:], ".") && !strings.ContainsAny(tok, "/:")
}

// isDomain reports whether tok is a host name: dot-separated labels of
// letters, digits and hyphens, ending in a known top-level domain.
func isDomain(tok string) bool {
	labels := strings.Split(strings.ToLower(tok), ".")
	if len(labels) < 2 || !topLevelDomains[labels[len(labels)-1]] {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.ContainsFunc(l, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
		}) {
			return false
		}
	}
	return true
}

// isBlob reports whether tok is a pasted blob: minBlobRunes or more of
// the base64 (standard or URL) or hex alphabets, with the digits or
// symbols an encoding has and words lack.
func isBlob(tok string) bool {
	if len(tok) < minBlobRunes {
		return false
	}
	digits, symbols := 0, 0
	for _, r := range tok {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' || r == '/' || r == '=' || r == '-' || r == '_' || r == '.':
			symbols++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		default:
			return false
		}
	}
	return digits*10 >= len(tok) || strings.ContainsAny(tok, "+=")
}

// isID reports whether tok is an opaque id: a UUID, or a hex string of 16
// or more with both digits and letters (a commit, a hash).
func isID(tok string) bool {
	if len(tok) < 16 {
		return false
	}
	digits, letters := 0, 0
	for _, r := range tok {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F':
			letters++
		case r == '-' && len(tok) == 36:
		default:
			return false
		}
	}
	return digits > 0 && letters > 0
}
