package upstream

import (
	"bytes"
	"io"
)

// Block sizes of a [line], and how much of the blocks of lines already read
// a reader keeps to fill again.
const (
	firstBlockBytes = 64 << 10
	lineBlockBytes  = 256 << 10
	spareBlockBytes = 1 << 20
)

// line is one line of an upstream's stdout, held in blocks. A long line is
// never copied to grow one buffer (growing a buffer to a 3 MB page of a
// listing allocates several times its size, and holds two copies at the
// last step), and a captured listing keeps its tools as slices of the
// blocks instead of copies of them ([line.release]).
type line struct {
	blocks [][]byte // the line's bytes, in order
	n      int      // bytes in all
	spare  [][]byte // emptied blocks of earlier lines, filled before new ones
}

// reset empties l for the next line. Its blocks are filled again, up to
// spareBlockBytes of them.
func (l *line) reset() {
	kept := 0
	for _, b := range l.spare {
		kept += cap(b)
	}
	for _, b := range l.blocks {
		if kept+cap(b) <= spareBlockBytes {
			l.spare = append(l.spare, b[:0])
			kept += cap(b)
		}
	}
	clear(l.blocks)
	l.blocks, l.n = l.blocks[:0], 0
}

// release gives the line's blocks away: they are not filled again.
func (l *line) release() {
	l.blocks = nil
}

// write appends p, filling the last block and then new ones.
func (l *line) write(p []byte) {
	l.n += len(p)
	for len(p) > 0 {
		if k := len(l.blocks); k == 0 || len(l.blocks[k-1]) == cap(l.blocks[k-1]) {
			l.blocks = append(l.blocks, l.newBlock())
		}
		last := &l.blocks[len(l.blocks)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
}

// newBlock returns a spare block, or a new one.
func (l *line) newBlock() []byte {
	if k := len(l.spare); k > 0 {
		b := l.spare[k-1]
		l.spare[k-1] = nil
		l.spare = l.spare[:k-1]
		return b
	}
	if len(l.blocks) == 0 {
		return make([]byte, 0, firstBlockBytes)
	}
	return make([]byte, 0, lineBlockBytes)
}

// trimNewline drops a final '\n'.
func (l *line) trimNewline() {
	if len(l.blocks) == 0 {
		return
	}
	last := &l.blocks[len(l.blocks)-1]
	if n := len(*last); n > 0 && (*last)[n-1] == '\n' {
		*last = (*last)[:n-1]
		l.n--
	}
}

// bytes returns the line in one slice: its only block, or a copy of all of
// them. It is valid until the line is reset.
func (l *line) bytes() []byte {
	if len(l.blocks) == 1 {
		return l.blocks[0]
	}
	b := make([]byte, 0, l.n)
	for _, blk := range l.blocks {
		b = append(b, blk...)
	}
	return b
}

// reader reads the line from its start.
func (l *line) reader() io.Reader {
	rs := make([]io.Reader, len(l.blocks))
	for i, blk := range l.blocks {
		rs[i] = bytes.NewReader(blk)
	}
	return io.MultiReader(rs...)
}

// slice returns the bytes from start to end: a slice of the block that
// holds them all, or a copy when they cross from one block to the next.
func (l *line) slice(start, end int) []byte {
	var b []byte
	for _, blk := range l.blocks {
		lo, hi := max(start, 0), min(end, len(blk))
		switch {
		case lo >= hi: // none of it in this block
		case b == nil && lo == start && hi == end:
			return blk[lo:hi:hi]
		default:
			if b == nil {
				b = make([]byte, 0, end-start)
			}
			b = append(b, blk[lo:hi]...)
		}
		start, end = start-len(blk), end-len(blk)
		if end <= 0 {
			break
		}
	}
	return b
}
