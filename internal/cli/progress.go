package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// isTerminal reports whether w is a terminal (a character device), where
// a person watches long work.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progress counts the lines a long job reports, one per finished item.
// On a terminal it announces the job and numbers each line "[k/N]"; written
// to a file or a pipe, the lines pass through unchanged, so logs and
// scripts read the plain report.
type progress struct {
	w     io.Writer
	total int
	tty   bool

	mu   sync.Mutex // guards done and partial
	done int
	part string // a line written in pieces, until its newline
}

func newProgress(w io.Writer, total int, job string) *progress {
	p := &progress{w: w, total: total, tty: isTerminal(w)}
	if p.tty && total > 0 {
		fmt.Fprintf(w, "%s %d…\n", job, total)
	}
	return p
}

func (p *progress) Write(b []byte) (int, error) {
	if !p.tty {
		return p.w.Write(b)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.part += string(b)
	for {
		i := strings.IndexByte(p.part, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.done++
		if _, err := fmt.Fprintf(p.w, "[%d/%d] %s\n", p.done, p.total, p.part[:i]); err != nil {
			return 0, err
		}
		p.part = p.part[i+1:]
	}
}
