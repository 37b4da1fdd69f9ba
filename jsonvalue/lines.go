package jsonvalue

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unsafe"
)

// blockSize is the size of the blocks a LineReader reads into.
const blockSize = 256 << 10

// A LineReader splits its input into lines, as JSON Lines are read. The
// lines share large blocks, so that a line costs neither an allocation nor
// a copy of its own: a block is never written again where a line was
// handed out, so lines are strings that point into it (and so do the
// values [ParseString] makes of them). A line kept alive keeps its whole
// block (256 KiB, or the longest line) alive.
//
// A line longer than the reader's limit ([LineReader.Limit]) is not held:
// Next reports it as [ErrLineTooLong] once the limit is passed, and the
// Next after that goes on from the line that follows it, so that memory
// stays within about twice the limit whatever the input.
type LineReader struct {
	r     io.Reader
	block []byte // the bytes read; the next line starts at start
	start int
	seen  int   // bytes from start known to hold no newline
	err   error // from r, reported once the lines before it are out
	limit int   // the longest line held (0: no limit)
	skip  bool  // the line at start went past limit: drop it up to its newline
}

// ErrLineTooLong is the error of a line longer than a LineReader's limit.
var ErrLineTooLong = errors.New("line too long")

// NewLineReader returns a LineReader that reads r.
func NewLineReader(r io.Reader) *LineReader { return &LineReader{r: r} }

// Limit sets the longest line, in bytes, that Next returns (0: no
// limit); a longer line is [ErrLineTooLong].
func (lr *LineReader) Limit(n int) { lr.limit = n }

// Next returns the next line without its line ending ("\n" or "\r\n"),
// and io.EOF after the last one.
func (lr *LineReader) Next() (string, error) {
	for {
		if i := bytes.IndexByte(lr.block[lr.start+lr.seen:], '\n'); i >= 0 {
			end := lr.start + lr.seen + i
			line := lr.block[lr.start:end]
			lr.start, lr.seen = end+1, 0
			if lr.skip {
				lr.skip = false
				continue
			}
			if lr.limit > 0 && len(line) > lr.limit && len(bytes.TrimSuffix(line, []byte("\r"))) > lr.limit {
				return "", ErrLineTooLong
			}
			return shared(line), nil
		}
		lr.seen = len(lr.block) - lr.start
		if lr.skip || lr.limit > 0 && lr.seen > lr.limit+1 { // +1: "\r" may end it
			// Drop what is read of the line: it is over the limit.
			lr.start, lr.seen = len(lr.block), 0
			if !lr.skip {
				lr.skip = true
				return "", ErrLineTooLong
			}
		}
		if lr.err != nil {
			if lr.skip && lr.err == io.EOF {
				lr.skip = false
				return "", io.EOF
			}
			if lr.seen > 0 && lr.err == io.EOF { // a last line without a newline
				line := lr.block[lr.start:]
				lr.start, lr.seen = len(lr.block), 0
				if lr.limit > 0 && len(bytes.TrimSuffix(line, []byte("\r"))) > lr.limit {
					return "", ErrLineTooLong
				}
				return shared(line), nil
			}
			return "", lr.err
		}
		if len(lr.block) == cap(lr.block) {
			// Full: carry the partial line over to a new block with room
			// for at least as much again.
			lr.block, lr.start = newBlock(lr.block[lr.start:], max(blockSize, 2*len(lr.block[lr.start:]))), 0
		}
		n, err := lr.r.Read(lr.block[len(lr.block):cap(lr.block)])
		lr.block = lr.block[:len(lr.block)+n]
		lr.err = err
	}
}

// shared returns line, less a trailing "\r", as a string that shares its
// memory: the block is never written again where a line was handed out.
func shared(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	return unsafe.String(unsafe.SliceData(line), len(line))
}

// newBlock returns a block of capacity size holding a copy of partial,
// the rest of it not zeroed.
//
// A block is written by the reads before a line is cut from it, so
// zeroing it first (as make does) is wasted: 0.7% of a run of eval on
// small cases went into it. The standard library makes buffers without
// zeroing them in one place a program can reach: strings.Builder.Grow,
// which guarantees room for size bytes without another allocation, and
// whose String shares the builder's buffer; the builder is dropped, and
// the block is the only thing left that refers to the buffer. noZero
// checks that String shares the buffer when the package starts; where it
// does not, blocks are made the ordinary way. Reads see a block's stale
// bytes past what was read (as a Builder's writes would): a reader is
// only given room to write into.
func newBlock(partial []byte, size int) []byte {
	if !noZero {
		b := make([]byte, len(partial), size)
		copy(b, partial)
		return b
	}
	var sb strings.Builder
	sb.Grow(size)
	sb.Write(partial)
	if len(partial) == 0 {
		sb.WriteByte(0) // so that String has a pointer to give
	}
	s := sb.String()
	return unsafe.Slice(unsafe.StringData(s), size)[:len(partial)]
}

// noZero reports whether newBlock makes blocks from a strings.Builder:
// whether its String shares the buffer that Grow made room in, so that
// the bytes up to what Grow promised lie in the same allocation.
var noZero = builderShares()

func builderShares() bool {
	var sb strings.Builder
	sb.Grow(64)
	sb.WriteByte('a')
	first := sb.String()
	sb.WriteByte('b')
	second := sb.String()
	return unsafe.StringData(first) == unsafe.StringData(second) && second == "ab"
}

// Rest returns what the LineReader has not handed out, followed by the
// rest of its input.
func (lr *LineReader) Rest() io.Reader {
	unread := bytes.NewReader(lr.block[lr.start:])
	switch lr.err {
	case nil:
		return io.MultiReader(unread, lr.r)
	case io.EOF:
		return unread
	}
	return io.MultiReader(unread, failedReader{lr.err})
}

// A failedReader fails with its error.
type failedReader struct{ err error }

func (f failedReader) Read([]byte) (int, error) { return 0, f.err }
