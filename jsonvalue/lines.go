package jsonvalue

import (
	"bytes"
	"io"
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
type LineReader struct {
	r     io.Reader
	block []byte // the bytes read; the next line starts at start
	start int
	seen  int   // bytes from start known to hold no newline
	err   error // from r, reported once the lines before it are out
}

// NewLineReader returns a LineReader that reads r.
func NewLineReader(r io.Reader) *LineReader { return &LineReader{r: r} }

// Next returns the next line without its line ending ("\n" or "\r\n"),
// and io.EOF after the last one.
func (lr *LineReader) Next() (string, error) {
	for {
		if i := bytes.IndexByte(lr.block[lr.start+lr.seen:], '\n'); i >= 0 {
			end := lr.start + lr.seen + i
			line := lr.block[lr.start:end]
			lr.start, lr.seen = end+1, 0
			return shared(line), nil
		}
		lr.seen = len(lr.block) - lr.start
		if lr.err != nil {
			if lr.seen > 0 && lr.err == io.EOF { // a last line without a newline
				line := lr.block[lr.start:]
				lr.start, lr.seen = len(lr.block), 0
				return shared(line), nil
			}
			return "", lr.err
		}
		if len(lr.block) == cap(lr.block) {
			// Full: carry the partial line over to a new block with room
			// for at least as much again.
			partial := lr.block[lr.start:]
			b := make([]byte, len(partial), max(blockSize, 2*len(partial)))
			copy(b, partial)
			lr.block, lr.start = b, 0
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
