package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// stopSignals interrupt a run, each the same way: the cases in flight are
// left out, the summary says so, nothing is renamed into place, and the
// exit status is 128 plus the signal's number. A second signal ends the
// program at once.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// An interruption is why a run's context was canceled: a signal, or nil
// for a caller's cancellation (as in tests).
type interruption struct{ sig os.Signal }

func (i *interruption) Error() string { return "interrupted by " + i.name() }

func (i *interruption) name() string {
	switch i.sig {
	case nil:
		return "a cancellation"
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return i.sig.String()
}

// code is the exit status of an interrupted run: 128 plus the signal's
// number, as a shell reports a command the signal ended.
func (i *interruption) code() int {
	if s, ok := i.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// interruptible returns a context that stopSignals cancel, with an
// *interruption as its cause. It also keeps SIGPIPE from ending the
// program, so that a closed pipe on standard output is a write error
// toolgrade ends on cleanly (see Main.Run).
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	stops := make(chan os.Signal, 1)
	signal.Notify(stops, stopSignals...)
	pipes := make(chan os.Signal, 1)
	signal.Notify(pipes, syscall.SIGPIPE)
	go func() {
		select {
		case s := <-stops:
			signal.Stop(stops) // a second signal acts as by default
			cancel(&interruption{sig: s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		cancel(nil)
		signal.Stop(stops)
		signal.Stop(pipes)
	}
}

// interrupted returns what interrupted ctx, or nil when it is not done.
func interrupted(ctx context.Context) *interruption {
	if ctx.Err() == nil {
		return nil
	}
	var in *interruption
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return &interruption{}
}

// A stream is standard output or error as a command writes it. It keeps
// the first write error, after which it writes nothing more, so that the
// command fails with it however the write was made (see Main.Run).
type stream struct {
	w    io.Writer
	name string

	mu  sync.Mutex
	err error
}

func (s *stream) Write(p []byte) (int, error) {
	if err := s.failed(); err != nil {
		return 0, err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return n, err
}

func (s *stream) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Stat is the stream's file's, so that a terminal is still known as one.
func (s *stream) Stat() (os.FileInfo, error) {
	if f, ok := s.w.(interface{ Stat() (os.FileInfo, error) }); ok {
		return f.Stat()
	}
	return nil, errors.ErrUnsupported
}

// streamError is the exit of a command one of whose streams failed: a
// pipe its reader closed ends the command quietly with 141, as SIGPIPE
// ends cat or grep (what "toolgrade ... | head" expects); any other
// failure (a full disk, /dev/full) is an error naming the stream.
func streamError(streams ...*stream) error {
	for _, s := range streams {
		err := s.failed()
		switch {
		case err == nil:
		case errors.Is(err, syscall.EPIPE):
			return &ExitError{Code: 128 + int(syscall.SIGPIPE)}
		default:
			return &ExitError{Code: 2, Err: fmt.Errorf("writing %s: %w", s.name, err)}
		}
	}
	return nil
}
