package output

// Sizes reports what the pager keeps now: results with pages behind
// cursors, the cursors whose page it can still serve, and page text bytes.
// What has expired by now is let go first.
func (p *Pager) Sizes() (results, cursors int, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sweep(p.now().Sub(p.epoch))
	return len(p.entries), len(p.cursors), p.size
}
