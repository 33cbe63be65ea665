package bridge

// Gauges are sizes of the bridge's bounded in-memory state, for a soak to
// watch for growth.
type Gauges struct {
	Actions       int   // actions numbered for action ids (ids themselves cost nothing)
	PagedResults  int   // results whose later pages are kept behind cursors
	Cursors       int   // live cursors: those whose page is kept
	PageBytes     int64 // page text kept
	Validators    int   // compiled validators cached
	RecordsCached int   // stored tool rows kept for runs
}

// Gauges reports the sizes of the bridge's in-memory state now.
func (b *Server) Gauges() Gauges {
	var g Gauges
	b.handles.mu.Lock()
	g.Actions = len(b.handles.acts)
	b.handles.mu.Unlock()
	g.PagedResults, g.Cursors, g.PageBytes = b.pager.Sizes()
	b.validators.mu.Lock()
	g.Validators = len(b.validators.byHash)
	b.validators.mu.Unlock()
	b.mu.Lock()
	g.RecordsCached = len(b.records)
	b.mu.Unlock()
	return g
}
