//go:build unix

package outfile

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBehindKeepsOrder: what is written behind arrives whole and in
// order, whatever the sizes of the writes (below, at and past a piece).
func TestBehindKeepsOrder(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		r := rand.New(rand.NewPCG(seed, 0))
		var got bytes.Buffer
		b := newBehind(&got)
		var want []byte
		for range 200 {
			var n int
			switch r.IntN(4) {
			case 0:
				n = r.IntN(16)
			case 1:
				n = r.IntN(4 << 10)
			case 2:
				n = behindPiece - len(b.cur) // exactly fills the piece
			default:
				n = r.IntN(3 * behindPiece)
			}
			p := make([]byte, n)
			for i := range p {
				p[i] = byte(r.Uint32())
			}
			if k, err := b.Write(p); k != n || err != nil {
				t.Fatalf("Write(%d bytes) = %d, %v", n, k, err)
			}
			want = append(want, p...)
		}
		if err := b.wait(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("seed %d: wrote %d bytes, %d arrived (equal: %v)", seed, len(want), got.Len(), bytes.Equal(got.Bytes(), want))
		}
	}
}

// failAfter takes n bytes, then fails every write.
type failAfter struct {
	n   int
	got bytes.Buffer
	err error
}

func (w *failAfter) Write(p []byte) (int, error) {
	if w.got.Len()+len(p) > w.n {
		return 0, w.err
	}
	return w.got.Write(p)
}

// TestBehindReportsWriteError: a write that fails comes back from a later
// Write or from wait, and nothing after it is written.
func TestBehindReportsWriteError(t *testing.T) {
	w := &failAfter{n: behindPiece, err: errors.New("disk full")}
	b := newBehind(w)
	p := bytes.Repeat([]byte("x"), 100<<10)
	var werr error
	for range 40 { // 4 MB: the second piece fails, many later ones follow
		if _, werr = b.Write(p); werr != nil {
			break
		}
	}
	err := b.wait()
	if !errors.Is(err, w.err) {
		t.Errorf("wait = %v, want %v", err, w.err)
	}
	if werr != nil && !errors.Is(werr, w.err) {
		t.Errorf("Write = %v, want nil or %v", werr, w.err)
	}
	if w.got.Len() != behindPiece {
		t.Errorf("%d bytes written; want the first piece alone, %d", w.got.Len(), behindPiece)
	}
}

// gate blocks its first write until released, and counts the writes.
type gate struct {
	entered, release chan struct{}
	mu               sync.Mutex
	writes           int
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	g.writes++
	first := g.writes == 1
	g.mu.Unlock()
	if first {
		close(g.entered)
		<-g.release
	}
	return len(p), nil
}

// TestBehindDropWritesNoMore: a writer dropped writes nothing it still
// held, once the write under way returns.
func TestBehindDropWritesNoMore(t *testing.T) {
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	b := newBehind(g)
	p := make([]byte, behindPiece)
	b.Write(p) // the first piece goes to the gate, which holds it
	<-g.entered
	b.Write(p)        // the second waits for it
	b.Write(p[:1024]) // and the third is being filled
	dropped := make(chan struct{})
	go func() { b.drop(); close(dropped) }()
	deadline := time.Now().Add(10 * time.Second)
	for !b.stop.Load() { // dropped while the first write is under way
		if time.Now().After(deadline) {
			close(g.release)
			t.Fatal("drop did not stop the writer")
		}
		runtime.Gosched()
	}
	close(g.release)
	<-dropped
	if g.writes != 1 {
		t.Errorf("%d writes; want the one under way alone", g.writes)
	}
}

// replacing starts a File that replaces a file holding "earlier\n".
func replacing(t *testing.T) (dir, path string, f *File) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "out")
	write(t, path, "earlier\n", 0o644)
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, path, f
}

// earlierKept checks that the file at path in dir is as replacing made
// it, and alone: no temporary file is left.
func earlierKept(t *testing.T, dir, path string) {
	t.Helper()
	if got := read(t, path); got != "earlier\n" {
		t.Errorf("out = %q; want the earlier file", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory; want the output alone", len(entries))
	}
}

// TestCommitReportsWriteBehindError: a file whose writing failed behind
// is not put in place; Commit says why, and the earlier file stays.
func TestCommitReportsWriteBehindError(t *testing.T) {
	dir, path, f := replacing(t)
	// The temporary file, open for reading only: every write behind
	// fails, and closing it does not.
	rw := f.f
	defer rw.Close()
	var err error
	if f.f, err = os.Open(f.tmp); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := f.Write(make([]byte, behindPiece)); err != nil && !errors.Is(err, fs.ErrPermission) && !strings.Contains(err.Error(), "bad file descriptor") {
			t.Errorf("Write = %v; want nil or the failed write's error", err)
		}
	}
	if err := f.Commit(); err == nil || !strings.Contains(err.Error(), "writing "+path) {
		t.Errorf("Commit = %v; want the write's error, naming %s", err, path)
	}
	earlierKept(t, dir, path)
}

// TestAbortDropsWhatIsBehind: Abort leaves the earlier file and no
// temporary file, with writes still behind.
func TestAbortDropsWhatIsBehind(t *testing.T) {
	dir, path, f := replacing(t)
	if _, err := f.Write(make([]byte, 5*behindPiece/2)); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	earlierKept(t, dir, path)
}

// TestWriteAfterEnd: a File committed or abandoned takes no more writes
// (a writer behind started then would never end).
func TestWriteAfterEnd(t *testing.T) {
	for _, end := range []string{"commit", "abort"} {
		_, _, f := replacing(t)
		if end == "commit" {
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
		} else {
			f.Abort()
		}
		if _, err := f.Write([]byte("late")); !errors.Is(err, os.ErrClosed) {
			t.Errorf("Write after %s = %v; want %v", end, err, os.ErrClosed)
		}
		if f.behind != nil {
			t.Errorf("a writer behind started after %s", end)
		}
	}
}
