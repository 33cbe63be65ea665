package output

// Sizes reports what the pager keeps now: results with pages behind
// cursors, cursors remembered, and page text bytes.
func (p *Pager) Sizes() (results, cursors int, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.entries), len(p.cursors), p.size
}
