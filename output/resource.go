package output

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources a result carries are text the model reads like any other, so
// they are served inside the page's text, framed and read by the detector
// like it: an embedded text resource as its lines under a title line that
// names it, a resource link as one line. An embedded resource holding a
// blob, like an image or audio, is passed through as it is.

// isResourceText reports an embedded resource that holds text.
func isResourceText(c mcp.Content) bool {
	r, ok := c.(*mcp.EmbeddedResource)
	return ok && r.Resource != nil && r.Resource.Blob == nil
}

// isResource reports content served as resource text: a text resource or
// a resource link.
func isResource(c mcp.Content) bool {
	_, link := c.(*mcp.ResourceLink)
	return link || isResourceText(c)
}

// resourceSection renders a text resource or a resource link as text. A
// text resource's title line ("resource URI (TYPE):") opens every page
// that shows its lines.
func resourceSection(c mcp.Content) Section {
	switch c := c.(type) {
	case *mcp.EmbeddedResource:
		res := c.Resource
		sec := textSection(res.Text)
		sec.Header = "resource " + escapeLine(res.URI) + mimeNote(res.MIMEType, 0) + ":"
		return sec
	case *mcp.ResourceLink:
		line := "resource link: " + escapeLine(cmp.Or(c.Title, c.Name)) + " " + escapeLine(c.URI)
		var size int64
		if c.Size != nil {
			size = *c.Size
		}
		line += mimeNote(c.MIMEType, size)
		if c.Description != "" {
			line += ": " + escapeLine(c.Description)
		}
		return Section{Form: FormText, Units: []Unit{{Text: line}}}
	}
	return Section{Form: FormMedia, Content: c}
}

// mimeNote is " (TYPE, N bytes)" with the parts that are known, or "".
func mimeNote(mime string, size int64) string {
	var parts []string
	if mime != "" {
		parts = append(parts, escapeLine(mime))
	}
	if size > 0 {
		parts = append(parts, strconv.FormatInt(size, 10)+" bytes")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
