package demo

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Banner is the line the banner fault prints before the protocol starts.
const Banner = "capbridge demo server starting (this line is not JSON-RPC)"

// ServeStdio runs a demo server on a process's stdin and stdout: the faults
// that misuse stdout (banner, garbage) and exit-at-start happen here. stdout
// is written only through one synchronized writer, so a fault's lines never
// split a JSON-RPC message.
func ServeStdio(ctx context.Context, stdin io.ReadCloser, stdout io.Writer, opts *Options) error {
	o := opts.withDefaults()
	out := &lineWriter{w: stdout, garbage: o.Fault.Mode == FaultGarbage}
	switch o.Fault.Mode {
	case FaultSlowStart:
		o.Logger.Warn("reading nothing for a while, as the fault asks", "delay", o.Fault.Delay)
		t := time.NewTimer(o.Fault.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	case FaultExitAtStart:
		o.Logger.Warn("exiting at start, as the fault asks")
		o.Exit(ExitAtStart)
		return fmt.Errorf("demo: exit-at-start")
	case FaultBanner:
		if _, err := io.WriteString(out, Banner+"\n"); err != nil {
			return fmt.Errorf("writing banner: %w", err)
		}
	case FaultMute:
		// Read (and drop) every message, answer none, initialize included,
		// until stdin ends or ctx does.
		o.Logger.Warn("answering nothing, as the fault asks")
		done := make(chan error, 1)
		go func() { _, err := io.Copy(io.Discard, stdin); done <- err }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if o.Fault.Mode == FaultFlood {
		o.flood = out.flood
	}
	return Serve(ctx, &mcp.IOTransport{Reader: stdin, Writer: out}, &o)
}

// lineWriter serializes writes to stdout. The SDK writes each message with
// one Write ending in a newline; with garbage set, a non-JSON line follows
// every message.
type lineWriter struct {
	w       io.Writer
	garbage bool

	mu    sync.Mutex
	lines int // guarded by mu: garbage lines written
}

func (lw *lineWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	n, err := lw.w.Write(p)
	if err != nil || !lw.garbage || len(p) == 0 || p[len(p)-1] != '\n' {
		return n, err
	}
	lw.lines++
	if _, err := io.WriteString(lw.w, garbageLine(lw.lines)); err != nil {
		return n, fmt.Errorf("writing garbage line: %w", err)
	}
	return n, nil
}

// Close leaves the underlying stdout open: the process owns it.
func (lw *lineWriter) Close() error { return nil }

// garbageLine is the i-th of a few kinds of junk real servers print.
func garbageLine(i int) string {
	kinds := []string{
		"[INFO] demo server: handled a message (log line on stdout)\n",
		"{this is not json\n",
		"\x1b[33mWARN\x1b[0m deprecated option in config\n",
		"Downloading dependencies... 100%\n",
	}
	return kinds[i%len(kinds)]
}
