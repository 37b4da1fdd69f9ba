package jsonvalue_test

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// refLines splits s as a LineReader must: at "\n", less a trailing "\r",
// with no empty last line for input that ends in a newline.
func refLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

func readAll(t *testing.T, r io.Reader) []string {
	t.Helper()
	lr := jsonvalue.NewLineReader(r)
	var got []string
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 600<<10) // longer than a block: carried over twice
	for _, tt := range []struct{ name, in string }{
		{"empty", ""},
		{"one line, no newline", `{"a":1}`},
		{"newline at the end", "a\nb\n"},
		{"CRLF", "a\r\nb\r\n"},
		{"blank lines", "\n\na\n\n"},
		{"a line longer than a block", "a\n" + long + "\nb"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := refLines(tt.in)
			if diff := cmp.Diff(want, readAll(t, strings.NewReader(tt.in))); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, readAll(t, iotest.HalfReader(strings.NewReader(tt.in)))); diff != "" {
				t.Errorf("lines from short reads (-want +got):\n%s", diff)
			}
		})
	}
}

// Lines handed out are never overwritten by the reads that follow, in
// blocks made with and without zeroing; lines are checked after
// collections, which would free a block that nothing seemed to refer to.
func TestLineReaderLinesStay(t *testing.T) {
	if !jsonvalue.NoZero() {
		t.Error("blocks are zeroed: strings.Builder no longer shares its buffer (see newBlock)")
	}
	for _, noZero := range []bool{true, false} {
		t.Run(fmt.Sprintf("noZero=%v", noZero), func(t *testing.T) {
			defer jsonvalue.SetNoZero(noZero)()
			testLinesStay(t)
		})
	}
}

func testLinesStay(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		b.WriteString(strings.Repeat(string(rune('a'+i%26)), i%50))
		b.WriteString("\n")
	}
	lr := jsonvalue.NewLineReader(iotest.OneByteReader(strings.NewReader(b.String())))
	var kept []string
	for {
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		kept = append(kept, line)
		if len(kept)%5000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	if diff := cmp.Diff(refLines(b.String()), kept); diff != "" {
		t.Errorf("kept lines changed (-want +got):\n%s", diff)
	}
}

func TestLineReaderRest(t *testing.T) {
	lr := jsonvalue.NewLineReader(strings.NewReader("a\nb\nc"))
	if _, err := lr.Next(); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(lr.Rest())
	if err != nil || string(rest) != "b\nc" {
		t.Errorf("Rest = %q, %v; want %q", rest, err, "b\nc")
	}
}

func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "a\r\nb", "\n\n", "\r\n\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff := cmp.Diff(refLines(s), readAll(t, iotest.HalfReader(strings.NewReader(s)))); diff != "" {
			t.Errorf("lines of %q (-want +got):\n%s", s, diff)
		}
	})
}

// limitedLines reads every line of r with a LineReader of the given
// limit, writing a line past it as "<too long>".
func limitedLines(t *testing.T, r io.Reader, limit int) []string {
	t.Helper()
	lr := jsonvalue.NewLineReader(r)
	lr.Limit(limit)
	var got []string
	for {
		line, err := lr.Next()
		switch {
		case err == io.EOF:
			return got
		case errors.Is(err, jsonvalue.ErrLineTooLong):
			line = "<too long>"
		case err != nil:
			t.Fatal(err)
		}
		got = append(got, line)
	}
}

// refLimited is what limitedLines must give.
func refLimited(s string, limit int) []string {
	lines := refLines(s)
	for i, l := range lines {
		if len(l) > limit {
			lines[i] = "<too long>"
		}
	}
	return lines
}

func TestLineReaderLimit(t *testing.T) {
	long := strings.Repeat("x", 600<<10)
	for _, tt := range []struct {
		name  string
		in    string
		limit int
	}{
		{"at the limit", "abc\nde\n", 3},
		{"at the limit with CRLF", "abc\r\nde\r\n", 3},
		{"one past", "abcd\nde\n", 3},
		{"the last line, no newline", "ab\nabcd", 3},
		{"longer than a block, between short lines", "a\n" + long + "\nb\n" + long + "x\nc", 1000},
		{"only a long line", long, 1000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := refLimited(tt.in, tt.limit)
			if diff := cmp.Diff(want, limitedLines(t, strings.NewReader(tt.in), tt.limit)); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, limitedLines(t, iotest.HalfReader(strings.NewReader(tt.in)), tt.limit)); diff != "" {
				t.Errorf("lines from short reads (-want +got):\n%s", diff)
			}
		})
	}
}

// zeros is an endless input without a newline, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// An endless line is reported once it passes the limit, not read to an
// end it does not have.
func TestLineReaderEndlessLine(t *testing.T) {
	lr := jsonvalue.NewLineReader(zeros{})
	lr.Limit(1 << 20)
	if _, err := lr.Next(); !errors.Is(err, jsonvalue.ErrLineTooLong) {
		t.Fatalf("Next = %v, want ErrLineTooLong", err)
	}
}

func FuzzLineReaderLimit(f *testing.F) {
	for _, s := range []string{"", "abcd", "ab\nabcd\n", "a\r\nbb\r", "\n\n"} {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, limit uint8) {
		n := int(limit) + 1
		if diff := cmp.Diff(refLimited(s, n), limitedLines(t, iotest.HalfReader(strings.NewReader(s)), n)); diff != "" {
			t.Errorf("lines of %q within %d (-want +got):\n%s", s, n, diff)
		}
	})
}

// chunkReader reads its input in the sizes it is given, in turn.
type chunkReader struct {
	s     string
	sizes []int
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := min(len(p), len(r.s), r.sizes[r.i%len(r.sizes)])
	r.i++
	n = copy(p, r.s[:n])
	r.s = r.s[n:]
	return n, nil
}

// TestLineReaderBlocks checks lines across blocks (whose memory is not
// zeroed first) against the reference, read in random sizes, with and
// without a limit, and that lines handed out stay as they were while the
// reader goes on into new blocks.
func TestLineReaderBlocks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lens := rapid.SliceOfN(rapid.IntRange(0, 300<<10), 1, 8).Draw(t, "lens")
		ends := rapid.SliceOfN(rapid.SampledFrom([]string{"\n", "\r\n", "\r"}), len(lens), len(lens)).Draw(t, "ends")
		last := rapid.Bool().Draw(t, "last newline")
		var sb strings.Builder
		for i, n := range lens {
			sb.WriteString(strings.Repeat(string(rune('a'+i)), n))
			if i < len(lens)-1 || last {
				sb.WriteString(ends[i])
			}
		}
		s := sb.String()
		sizes := rapid.SliceOfN(rapid.IntRange(1, 400<<10), 1, 4).Draw(t, "sizes")
		limit := rapid.SampledFrom([]int{0, 1, 1000, 200 << 10, 1 << 20}).Draw(t, "limit")
		want := refLines(s)
		if limit > 0 {
			want = refLimited(s, limit)
		}
		lr := jsonvalue.NewLineReader(&chunkReader{s: s, sizes: sizes})
		lr.Limit(limit)
		var got []string
		for {
			line, err := lr.Next()
			if err == io.EOF {
				break
			}
			if errors.Is(err, jsonvalue.ErrLineTooLong) {
				line = "<too long>"
			} else if err != nil {
				t.Fatal(err)
			}
			got = append(got, line)
		}
		if !cmp.Equal(want, got) {
			t.Fatalf("lines differ: want %d lines, got %d", len(want), len(got))
		}
	})
}

func BenchmarkLineReader(b *testing.B) {
	line := strings.Repeat("x", 700) + "\n"
	data := strings.Repeat(line, 4<<20/len(line))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		lr := jsonvalue.NewLineReader(strings.NewReader(data))
		for {
			if _, err := lr.Next(); err != nil {
				break
			}
		}
	}
}
