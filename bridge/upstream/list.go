package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Listing is one server's tools/list, every page, within the catalog
// limits.
type Listing struct {
	Server string
	// Tools holds each tool object exactly as the server sent it.
	Tools []json.RawMessage
	Bytes int64 // the tool objects' bytes, in all
	Pages int
	// Refusal says why listing stopped before the last page (a catalog
	// limit, a cursor loop); "" when the whole catalog was read. Tools then
	// holds what was read within the limits.
	Refusal string
	// Lossy is set when a page could not be captured raw and was rebuilt
	// from the SDK's decoded tools, which drop fields the SDK does not know.
	Lossy bool
	Took  time.Duration
}

// listTools reads every page of tools/list, each page bounded by the call
// timeout.
func (up *upstream) listTools(ctx context.Context) (*Listing, error) {
	select {
	case up.listMu <- struct{}{}:
		defer func() { <-up.listMu }()
	case <-ctx.Done():
		return nil, up.fail("list", ctx.Err(), nil)
	}
	c, err := up.acquire(ctx)
	if err != nil {
		return nil, err
	}
	l, err := up.readPages(ctx, c)
	up.release(err == nil)
	return l, err
}

func (up *upstream) readPages(ctx context.Context, c *conn) (*Listing, error) {
	lim := up.u.opts.Limits
	timeout := up.callTimeout()
	began := time.Now()
	l := &Listing{Server: up.name}
	cursors := make(map[string]bool)
	cursor := ""
	for {
		if l.Pages >= lim.MaxPages {
			l.Refusal = fmt.Sprintf("catalog refused past %d pages of tools/list (the server may page forever)", lim.MaxPages)
			break
		}
		page, err := up.readPage(ctx, c, cursor, timeout)
		if err != nil {
			return nil, err
		}
		l.Pages++
		if page.lossy {
			l.Lossy = true
		}
		for _, raw := range page.Tools {
			if len(l.Tools) >= lim.MaxTools {
				l.Refusal = fmt.Sprintf("catalog refused past %d tools", lim.MaxTools)
				break
			}
			if l.Bytes+int64(len(raw)) > lim.MaxBytes {
				l.Refusal = fmt.Sprintf("catalog refused past %d bytes of tools", lim.MaxBytes)
				break
			}
			// A name listed twice is kept twice: the normalizer counts
			// identical copies once and refuses copies that differ.
			l.Tools = append(l.Tools, raw)
			l.Bytes += int64(len(raw))
		}
		if l.Refusal != "" || page.NextCursor == "" {
			break
		}
		if cursors[page.NextCursor] {
			l.Refusal = "catalog refused: the server repeated a tools/list cursor"
			break
		}
		cursors[page.NextCursor] = true
		cursor = page.NextCursor
	}
	l.Took = time.Since(began)
	if l.Refusal != "" {
		up.u.opts.Logger.Warn("upstream catalog cut short", "server", up.name, "reason", l.Refusal, "tools", len(l.Tools))
	}
	return l, nil
}

// rawPage is one tools/list result as sent.
type rawPage struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor"`
	ResultType json.RawMessage   `json:"resultType"`
	lossy      bool
}

func (up *upstream) readPage(ctx context.Context, c *conn, cursor string, timeout time.Duration) (*rawPage, error) {
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c.tap.arm(c.stubsListings())
	res, err := c.session.ListTools(pctx, &mcp.ListToolsParams{Cursor: cursor})
	page, stubbed, captured := c.tap.take()
	switch {
	case err == nil && stubbed:
		// go-sdk saw the page without its tools; the tap has them.
		return page, nil
	case err == nil:
	case captured:
		// The server answered, but go-sdk could not decode the answer into
		// its types (a schema with a number past float64, say). The page
		// as sent is what the catalog keeps anyway: the normalizer refuses
		// the tool that is at fault, alone, and its siblings are indexed.
		up.u.opts.Logger.Warn("go-sdk could not decode a tools/list page; using it as sent", "server", up.name, "err", err)
		return page, nil
	case ctx.Err() != nil:
		return nil, up.fail("list", ctx.Err(), nil)
	case pctx.Err() != nil:
		return nil, up.fail("list", fmt.Errorf("tools/list: %w after %s: %w", ErrTimeout, timeout, pctx.Err()), nil)
	default:
		return nil, up.broken("list", c, fmt.Errorf("tools/list: %w", err))
	}
	if captured {
		return page, nil
	}
	// Not seen on the wire: the SDK answered from its cache (SEP-2549 TTL)
	// or the tap missed it. Rebuild from the decoded tools.
	page = &rawPage{NextCursor: res.NextCursor, lossy: true}
	for _, t := range res.Tools {
		b, err := json.Marshal(t)
		if err != nil {
			return nil, up.fail("list", fmt.Errorf("re-encoding tool %q: %w", t.Name, err), nil)
		}
		page.Tools = append(page.Tools, b)
	}
	up.u.opts.Logger.Warn("tools/list page rebuilt from decoded tools; unknown fields are lost", "server", up.name)
	return page, nil
}

// stubsListings reports whether go-sdk may be handed tools/list answers
// without their tools (see [listTap.arm]): only through our stdio reader,
// the one transport that can replace a message. Over HTTP go-sdk also reads
// tool definitions from its list results (x-mcp-header), so it gets them.
func (c *conn) stubsListings() bool {
	return c.stdout != nil
}
