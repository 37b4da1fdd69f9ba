package report_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/report"
)

// device stands in for a file whose Stat reports mode.
type device struct {
	io.Writer
	mode os.FileMode
	err  error
}

func (d device) Stat() (os.FileInfo, error) { return info{d.mode}, d.err }

type info struct{ mode os.FileMode }

func (i info) Name() string       { return "tty" }
func (i info) Size() int64        { return 0 }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }

func TestShowProgress(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	env := func(term string) func(string) string {
		return func(k string) string {
			if k == "TERM" {
				return term
			}
			return ""
		}
	}
	tty := os.ModeDevice | os.ModeCharDevice
	tests := []struct {
		name   string
		w      io.Writer
		getenv func(string) string
		want   bool
	}{
		{"a terminal", device{mode: tty}, env("xterm-256color"), true},
		{"a terminal, no environment", device{mode: tty}, nil, true},
		{"a dumb terminal", device{mode: tty}, env("dumb"), false},
		{"a regular file", file, env("xterm"), false},
		{"a pipe", pw, env("xterm"), false},
		{"a buffer", &bytes.Buffer{}, env("xterm"), false},
		{"stat fails", device{mode: tty, err: errors.New("closed")}, env("xterm"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := report.ShowProgress(tt.w, tt.getenv); got != tt.want {
				t.Errorf("ShowProgress = %v, want %v", got, tt.want)
			}
		})
	}
}

// syncBuffer is a buffer safe for the progress bar's drawing goroutine.
type syncBuffer struct {
	ch  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.ch <- struct{}{}
	defer func() { <-b.ch }()
	return b.buf.Write(p)
}

func TestProgressDraws(t *testing.T) {
	out := &syncBuffer{ch: make(chan struct{}, 1)}
	p := report.NewProgress(out, 0)
	p.SetTotal(3) // as a count finishing after the start does
	for _, ok := range []bool{true, false, false} {
		if err := p.Add(&toolgrade.Result{Success: ok}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Finish(nil); err != nil {
		t.Fatal(err)
	}
	got := out.buf.String() // Finish waited for the drawing goroutine
	for _, want := range []string{"grading, 2 failed", "done!", "3 cases"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress output lacks %q:\n%q", want, got)
		}
	}
}
