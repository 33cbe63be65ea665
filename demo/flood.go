package demo

import (
	"io"
	"time"
)

// listChangedLine is one notifications/tools/list_changed, as a stdio
// server writes it.
const listChangedLine = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}` + "\n"

// floodOnce starts the list-changed-flood fault, once per process: n
// notifications/tools/list_changed, one a millisecond, with no change to the
// catalog behind them. Only a stdio server floods (see ServeStdio).
func (s *server) floodOnce(n int) {
	s.mu.Lock()
	if s.flooded || s.opts.flood == nil {
		s.mu.Unlock()
		return
	}
	s.flooded = true
	s.mu.Unlock()
	s.opts.Logger.Warn("sending tools/list_changed notifications, as the fault asks", "count", n)
	go s.opts.flood(n)
}

// flood writes n notifications/tools/list_changed between the SDK's
// messages, each a whole line, one a millisecond: a client that handles
// each as it comes has finished with one before the next arrives.
func (lw *lineWriter) flood(n int) {
	for range n {
		lw.mu.Lock()
		_, err := io.WriteString(lw.w, listChangedLine)
		lw.mu.Unlock()
		if err != nil {
			return // the client went away: nothing more to flood
		}
		time.Sleep(time.Millisecond)
	}
}
