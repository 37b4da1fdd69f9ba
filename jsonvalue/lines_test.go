package jsonvalue_test

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
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

// Lines handed out are never overwritten by the reads that follow.
func TestLineReaderLinesStay(t *testing.T) {
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
	}
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
