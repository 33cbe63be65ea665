package upstream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
)

// stderrTailSize is how much of a child's stderr is kept for error messages.
const stderrTailSize = 4 << 10

// process is one running stdio server: the child, its pipes, and the tail of
// its stderr.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of the child's stdin
	stdout *os.File // our end of the child's stdout
	stderr *tailBuffer

	exited    chan struct{} // closed once the child has been waited for
	exitErr   error         // the child's exit status; read after exited closes
	stderrEOF chan struct{} // closed once the stderr copy has ended
}

// startProcess starts s's command in its own process group with the
// environment of [serverEnv], in s.Cwd. Our ends of the pipes are
// *os.File so that cmd.Wait never closes them under a reader.
func startProcess(s config.Server, logger *slog.Logger) (*process, error) {
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Dir = s.Cwd
	cmd.Env = serverEnv(s, os.LookupEnv)
	inOwnGroup(cmd)

	var ends []*os.File // both ends of every pipe, closed on failure
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			ends = append(ends, r, w)
		}
		return r, w, err
	}
	inR, inW, err1 := pipe()
	outR, outW, err2 := pipe()
	errR, errW, err3 := pipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		closeAll(ends)
		return nil, fmt.Errorf("making pipes: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll(ends)
		return nil, fmt.Errorf("starting %s: %w", s.Command, err)
	}
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	errW.Close()

	p := &process{
		cmd:       cmd,
		stdin:     inW,
		stdout:    outR,
		stderr:    &tailBuffer{max: stderrTailSize},
		exited:    make(chan struct{}),
		stderrEOF: make(chan struct{}),
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	go func() {
		defer close(p.stderrEOF)
		defer errR.Close()
		copyStderr(p.stderr, errR, s, logger)
	}()
	return p, nil
}

// copyStderr keeps the tail of r in tail and logs each line at debug level,
// scrubbed of s's secrets.
func copyStderr(tail *tailBuffer, r io.Reader, s config.Server, logger *slog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Bytes()
		tail.Write(line)
		tail.Write([]byte{'\n'})
		logger.Debug("upstream stderr", "server", s.Name, "line", s.Redact(string(line)))
	}
	// A line over the scanner's limit ends the scan; keep draining so the
	// child never blocks writing stderr.
	io.Copy(tail, r)
}

// stop ends the child: it closes stdin and waits up to grace for the child
// to exit, then sends SIGTERM to the whole group and waits again, then
// SIGKILL. The group is killed in any case, so that nothing the child
// started outlives it.
func (p *process) stop(grace time.Duration) {
	p.stdin.Close()
	pid := p.cmd.Process.Pid
	select {
	case <-p.exited:
	case <-time.After(grace):
		terminateGroup(pid)
		select {
		case <-p.exited:
		case <-time.After(grace):
		}
	}
	killGroup(pid)
	<-p.exited
	p.stdout.Close()
	select {
	case <-p.stderrEOF:
	case <-time.After(grace):
		// A grandchild that left the group keeps stderr open; stop reading.
	}
}

// hasExited reports whether the child has exited, even if its Wait has not
// returned yet. The session over its pipes may not have ended yet either: its
// output ends only when every process holding the pipe is gone, and is read
// by goroutines that a loaded machine runs late.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return exitedNow(p.cmd.Process.Pid)
	}
}

// exitStatus describes how the child ended, or "" while it runs.
func (p *process) exitStatus() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	if p.exitErr == nil {
		return "exited with status 0"
	}
	return p.exitErr.Error()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int

	mu  sync.Mutex // guards buf
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the tail, trimmed of surrounding space.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}

// jsonLineReader reads the lines of r that are JSON-RPC messages (or
// batches), one per line, for the session ([stdioConn]), and skips (and
// logs) everything else: some servers print a banner, progress or JSON log
// lines on stdout, on which the session would otherwise fail. Each message
// is also shown to tap.
type jsonLineReader struct {
	r      *bufio.Reader
	closer io.Closer
	max    int // longest line accepted
	tap    *listTap
	server config.Server // for its name, and its secrets scrubbed from logs
	logger *slog.Logger
	cur    line // the line being read

	// fatal is why reading stopped for good, when the stream itself was
	// fine (a line over max); read by the goroutine reporting the failure.
	fatal atomic.Pointer[error]
}

func newJSONLineReader(r io.ReadCloser, max int, tap *listTap, server config.Server, logger *slog.Logger) *jsonLineReader {
	return &jsonLineReader{r: bufio.NewReaderSize(r, 64<<10), closer: r, max: max, tap: tap, server: server, logger: logger}
}

// next returns the next message go-sdk reads, without its newline, or the
// error that ended the stream. The message is valid until the next call.
func (j *jsonLineReader) next() ([]byte, error) {
	for {
		l, err := j.readLine()
		if l != nil {
			if msg := j.message(l); msg != nil {
				return msg, nil // an error with it comes again on the next call
			}
		}
		if err != nil {
			return nil, err
		}
	}
}

// message returns what go-sdk reads for line l, or nil when the line is
// skipped. An answer to a watched tools/list may be kept by the tap from
// the line's blocks as they are; any other message is read whole.
func (j *jsonLineReader) message(l *line) []byte {
	if msg, kept := j.tap.receivedLine(l); kept {
		l.release() // the page holds slices of its blocks
		return msg
	}
	msg := bytes.TrimSpace(l.bytes())
	if len(msg) == 0 {
		return nil
	}
	// Whether a JSON line is JSON-RPC is settled when it is decoded (see
	// stdioConn.readLines, which skips it then): reading every message
	// twice cost each run a pass over its answer.
	if msg[0] != '{' && msg[0] != '[' {
		j.skip(msg)
		return nil
	}
	if stub := j.tap.received(msg); stub != nil {
		return stub
	}
	return msg
}

// skip logs a line of the server's stdout that is not JSON-RPC.
func (j *jsonLineReader) skip(line []byte) {
	j.logger.Warn("skipped a line on upstream stdout that is not JSON-RPC", "server", j.server.Name, "line", j.server.Redact(excerpt(line, 200)))
}

// isJSONRPC reports whether msg is a JSON-RPC 2.0 object, or a batch.
func isJSONRPC(msg []byte) bool {
	switch msg[0] {
	case '[':
		return json.Valid(msg)
	case '{':
		var m struct {
			Version string `json:"jsonrpc"`
		}
		return json.Unmarshal(msg, &m) == nil && m.Version == "2.0"
	}
	return false
}

// readLine reads one line, without its newline, of at most j.max bytes.
// The line is valid until the next call.
func (j *jsonLineReader) readLine() (*line, error) {
	l := &j.cur
	l.reset()
	for {
		chunk, err := j.r.ReadSlice('\n')
		if l.n+len(chunk) > j.max {
			err := fmt.Errorf("%w: a message over %d bytes", ErrMessageTooLarge, j.max)
			j.fatal.Store(&err)
			return nil, err
		}
		l.write(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		l.trimNewline()
		return l, err
	}
}

func (j *jsonLineReader) Close() error { return j.closer.Close() }

// failure returns why reading stopped, if the stream was cut by the reader.
func (j *jsonLineReader) failure() error {
	if p := j.fatal.Load(); p != nil {
		return *p
	}
	return nil
}

// tappedWriter shows each outgoing message to tap before writing it, and
// to the tap's cancellations once written.
type tappedWriter struct {
	w   io.WriteCloser
	tap *listTap
}

func (t tappedWriter) Write(p []byte) (int, error) {
	t.tap.sent(p)
	n, err := t.w.Write(p)
	if err == nil {
		t.tap.cancels.sent(p)
	}
	return n, err
}

func (t tappedWriter) Close() error { return t.w.Close() }

// excerpt returns at most n bytes of b as a string, marking a cut.
func excerpt(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}
