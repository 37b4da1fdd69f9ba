package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stopGrace is how long a server gets to exit after its input closes,
// before it is killed.
const stopGrace = 2 * time.Second

// A process is a server started from a command line, with the end of its
// standard error kept for messages.
type process struct {
	argv   []string
	dir    string
	cmd    *exec.Cmd
	stderr tail

	startErr error
	stdin    *os.File // our end of its input
	stdout   *os.File // our end of its output
	done     chan struct{}
	waitErr  error

	stopOnce sync.Once
	mu       sync.Mutex
	stopping bool
}

func newProcess(argv []string, dir string) *process {
	return &process{argv: argv, dir: dir, done: make(chan struct{})}
}

// transport starts the process and returns the transport over its
// standard input and output; a process that cannot start gives a transport
// whose Connect fails with the reason.
func (p *process) transport() sdk.Transport {
	p.startErr = p.start()
	if p.startErr != nil {
		return failTransport{p.startErr}
	}
	return &sdk.IOTransport{Reader: p.stdout, Writer: p.stdin, MaxLineLength: 64 << 20}
}

func (p *process) start() error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	p.cmd = exec.Command(p.argv[0], p.argv[1:]...)
	p.cmd.Dir = p.dir
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, &p.stderr
	p.cmd.WaitDelay = time.Second // a grandchild holding stderr open does not stall Wait
	err = p.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		close(p.done)
		return err
	}
	p.stdin, p.stdout = inW, outR
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.done)
	}()
	return nil
}

// settle waits up to d for the process to exit on its own, and reports
// whether it did: after a failed request, so that its exit status and
// last words are there to report.
func (p *process) settle(d time.Duration) bool {
	if p == nil || p.startErr != nil {
		return false
	}
	select {
	case <-p.done:
	case <-time.After(d):
	}
	return p.exited()
}

// exited reports whether the process ended on its own, before stop.
func (p *process) exited() bool {
	if p == nil || p.startErr != nil {
		return false
	}
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return !p.stopping
	default:
		return false
	}
}

// stop ends the process, closing its input first and killing it if it
// does not exit within stopGrace, and returns what it wrote to standard
// error, for messages ("" for none, or for a nil process).
func (p *process) stop() string {
	if p == nil || p.startErr != nil {
		return ""
	}
	p.stopOnce.Do(func() {
		select {
		case <-p.done: // exited on its own
		default:
			p.mu.Lock()
			p.stopping = true
			p.mu.Unlock()
			p.stdin.Close()
			select {
			case <-p.done:
			case <-time.After(stopGrace):
				p.cmd.Process.Kill()
				<-p.done
			}
		}
		p.stdin.Close()
		p.stdout.Close()
	})
	var b strings.Builder
	if p.exitedOnItsOwn() {
		fmt.Fprintf(&b, " (%v)", p.waitErr)
	}
	if s := p.stderr.String(); s != "" {
		fmt.Fprintf(&b, "; the server's stderr ends: %s", s)
	}
	return b.String()
}

func (p *process) exitedOnItsOwn() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.stopping && p.waitErr != nil
}

// failTransport fails to connect, with the reason the server did not
// start.
type failTransport struct{ err error }

func (t failTransport) Connect(context.Context) (sdk.Connection, error) { return nil, t.err }

// tailSize is how much of a server's standard error is kept.
const tailSize = 4 << 10

// A tail keeps the last tailSize bytes written to it.
type tail struct {
	mu   sync.Mutex
	buf  []byte
	lost bool
}

var _ io.Writer = (*tail)(nil)

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
		t.lost = true
	}
	return len(p), nil
}

// String returns the text kept, trimmed, marked with "..." when the start
// was dropped; at most the last 1000 bytes, for messages.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	lost := t.lost
	if len(s) > 1000 {
		s, lost = s[len(s)-1000:], true
	}
	if lost && s != "" {
		s = "..." + s
	}
	return s
}
