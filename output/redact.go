package output

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Redacted is what a secret value becomes in text the model reads. It is
// plain words in brackets, not asterisks, so that Markdown stripping (which
// reads "***" as emphasis) leaves it whole.
const Redacted = "[redacted]"

// MinSecretChars is the shortest secret redacted, in characters. A shorter
// value ("noinit", "true", "8080") is far likelier to be ordinary text than
// a credential, and replacing it would garble names and numbers.
const MinSecretChars = 8

// Redact returns s with every secret of at least [MinSecretChars]
// characters replaced by [Redacted], and how many replacements it made.
// Longer secrets are replaced first, so one that contains another is
// replaced whole.
func Redact(s string, secrets []string) (string, int) {
	r := newRedactor(secrets)
	return r.text(s), r.count
}

// redactor replaces secrets and counts the replacements.
type redactor struct {
	secrets []string // at least MinSecretChars each, longest first, no duplicates
	count   int
}

func newRedactor(secrets []string) *redactor {
	r := &redactor{}
	for _, s := range secrets {
		if utf8.RuneCountInString(s) >= MinSecretChars && !slices.Contains(r.secrets, s) {
			r.secrets = append(r.secrets, s)
		}
	}
	slices.SortStableFunc(r.secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return r
}

// text redacts one string.
func (r *redactor) text(s string) string {
	for _, v := range r.secrets {
		if n := strings.Count(s, v); n > 0 {
			s = strings.ReplaceAll(s, v, Redacted)
			r.count += n
		}
	}
	return s
}

// value returns a copy of a decoded JSON value (of this package, or as
// encoding/json decodes into an any) with the secrets in its strings and
// keys redacted. The value passed in is not changed.
func (r *redactor) value(v any) any {
	if len(r.secrets) == 0 {
		return v
	}
	switch v := v.(type) {
	case string:
		return r.text(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = r.value(e)
		}
		return out
	case object:
		out := make(object, len(v))
		for i, m := range v {
			out[i] = member{key: r.text(m.key), val: r.value(m.val)}
		}
		return out
	case map[string]any: // structuredContent as a client decodes it
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[r.text(k)] = r.value(e)
		}
		return out
	}
	return v
}

// content returns a copy of a piece of media content with the secrets in
// its text fields redacted: an embedded resource's text and URI, a
// resource link's URI, name, title and description. Binary data is left alone.
func (r *redactor) content(c mcp.Content) mcp.Content {
	if len(r.secrets) == 0 {
		return c
	}
	switch c := c.(type) {
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return c
		}
		cp, res := *c, *c.Resource
		res.Text, res.URI = r.text(res.Text), r.text(res.URI)
		cp.Resource = &res
		return &cp
	case *mcp.ResourceLink:
		cp := *c
		cp.URI, cp.Name, cp.Title, cp.Description = r.text(cp.URI), r.text(cp.Name), r.text(cp.Title), r.text(cp.Description)
		return &cp
	}
	return c
}
