package upstream

// clientHooks route what a server sends its client unasked (notifications)
// to the pool's callbacks, each on a goroutine the pool waits for on Close.
type clientHooks struct {
	up *upstream
}

func (h *clientHooks) featuresChanged() {
	if f := h.up.u.opts.OnFeaturesChanged; f != nil {
		h.up.u.goCallback(func() { f(h.up.name) })
	}
}

func (h *clientHooks) resourceUpdated(uri string) {
	if f := h.up.u.opts.OnResourceUpdated; f != nil {
		h.up.u.goCallback(func() { f(h.up.name, uri) })
	}
}
