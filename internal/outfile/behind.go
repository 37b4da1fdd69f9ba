package outfile

import (
	"io"
	"sync/atomic"
)

// behindPiece is the size of the pieces a behind writer hands over, and
// behindPieces how many it has: the caller fills one while the others
// wait to be written or are being written.
const (
	behindPiece  = 256 << 10
	behindPieces = 3
)

// A behind writer writes to w on a goroutine of its own, a piece at a
// time, while its caller goes on: a run's results, written to a file as
// they were graded, held the run up while the kernel took them (200,000
// small cases: 0.351 s of wall time with a results file, 0.331 s writing
// behind; bench/README.md). What Write takes is written later, in order;
// the first error comes back from a later Write, or from wait. A behind
// writer is used by one goroutine at a time.
type behind struct {
	w    io.Writer
	cur  []byte      // the piece being filled
	full chan []byte // pieces to write, in order
	free chan []byte // pieces written, to fill again
	done chan struct{}
	stop atomic.Bool           // write no more (see drop)
	err  atomic.Pointer[error] // the first write error
}

func newBehind(w io.Writer) *behind {
	b := &behind{w: w, full: make(chan []byte, behindPieces), free: make(chan []byte, behindPieces), done: make(chan struct{})}
	for range behindPieces - 1 {
		b.free <- make([]byte, 0, behindPiece)
	}
	b.cur = make([]byte, 0, behindPiece)
	go b.write()
	return b
}

// write writes the pieces handed over until there are no more, or until
// one fails or the writer is dropped: then it only gives them back.
func (b *behind) write() {
	defer close(b.done)
	for p := range b.full {
		if !b.stop.Load() {
			if _, err := b.w.Write(p); err != nil {
				b.err.Store(&err)
				b.stop.Store(true) // no later piece is written
			}
		}
		b.free <- p[:0]
	}
}

// failed returns the first write error, if any.
func (b *behind) failed() error {
	if err := b.err.Load(); err != nil {
		return *err
	}
	return nil
}

func (b *behind) Write(p []byte) (int, error) {
	if err := b.failed(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		k := copy(b.cur[len(b.cur):cap(b.cur)], p)
		b.cur, p = b.cur[:len(b.cur)+k], p[k:]
		if len(b.cur) == cap(b.cur) {
			b.full <- b.cur
			b.cur = <-b.free
		}
	}
	return n, nil
}

// wait hands over what is left, waits until everything is written, and
// returns the first write error. The writer is not used after it.
func (b *behind) wait() error {
	if len(b.cur) > 0 {
		b.full <- b.cur
	}
	close(b.full)
	<-b.done
	return b.failed()
}

// drop ends the writer without writing what it still holds: the output
// is abandoned. It waits for a write under way to return.
func (b *behind) drop() {
	b.stop.Store(true)
	close(b.full)
	<-b.done
}
