package budget_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/toolgrade/toolgrade/internal/budget"
)

// zeros is an endless input, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestReadAll(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     string
		limit  int64
		wantOK bool
	}{
		{"empty", "", 4, true},
		{"at the limit", "abcd", 4, true},
		{"one past", "abcde", 4, false},
		{"far past", strings.Repeat("x", 1<<20), 1000, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := budget.ReadAll(iotest.HalfReader(strings.NewReader(tt.in)), &budget.Error{Name: "in", Limit: tt.limit, Flag: "--flag"})
			if tt.wantOK {
				if err != nil || string(got) != tt.in {
					t.Errorf("ReadAll = %q, %v; want the input", got, err)
				}
				return
			}
			var be *budget.Error
			if !errors.As(err, &be) || be.Limit != tt.limit {
				t.Errorf("ReadAll error = %v, want a budget error of %d bytes", err, tt.limit)
			}
		})
	}
}

// An endless input ends in the budget's error, not in memory exhausted.
func TestReadAllEndless(t *testing.T) {
	_, err := budget.ReadAll(zeros{}, &budget.Error{Name: "-", Limit: 1 << 20, Flag: budget.FileFlag})
	want := "-: the file is larger than 1 MiB, the most toolgrade reads at once (--max-file-size raises it)"
	if err == nil || err.Error() != want {
		t.Errorf("ReadAll of an endless input = %v, want %q", err, want)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.json")
	if err := os.WriteFile(path, []byte(strings.Repeat(" ", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := budget.ReadFile(path, nil, 1000, ""); err == nil || err.Error() != path+": the file is larger than 1000 bytes, the most toolgrade reads at once" {
		t.Errorf("ReadFile past the budget = %v", err)
	}
	if got, err := budget.ReadFile(path, nil, 2000, ""); err != nil || len(got) != 2000 {
		t.Errorf("ReadFile at the budget = %d bytes, %v", len(got), err)
	}
	if got, err := budget.ReadFile("-", strings.NewReader("abc"), 0, ""); err != nil || string(got) != "abc" {
		t.Errorf("ReadFile of stdin = %q, %v", got, err)
	}
	if _, err := budget.ReadFile(filepath.Join(dir, "none"), nil, 0, ""); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of no file = %v", err)
	}
}

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64 // 0: an error
	}{
		{"100", 100},
		{"64MiB", 64 << 20},
		{"64 MiB", 64 << 20},
		{"1.5GiB", 3 << 29},
		{"2gb", 2e9},
		{"10KB", 10000},
		{"1KiB", 1024},
		{"0", 0},
		{"-1MiB", 0},
		{"0.1", 0},
		{"NaN", 0},
		{"Inf", 0},
		{"1e3", 0},
		{"64 lines", 0},
		{"", 0},
		{"99999999999GiB", 0},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := budget.Parse(tt.in)
			if tt.want == 0 {
				if err == nil {
					t.Errorf("Parse(%q) = %d, want an error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Parse(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 100: "100 bytes", 1024: "1 KiB", 64 << 20: "64 MiB", 3 << 29: "1.5 GiB"} {
		if got := budget.Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}

// Every size Format writes, Parse reads back (with its spaces).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1", "64MiB", "1.5 GiB", "2gb", "x", "-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := budget.Parse(s)
		if err != nil {
			return
		}
		if n <= 0 {
			t.Fatalf("Parse(%q) = %d, want a positive size", s, n)
		}
		if back, err := budget.Parse(budget.Format(n)); err != nil || back < n-n/1000 || back > n+n/1000 {
			t.Errorf("Parse(Format(%d)) = %d, %v", n, back, err)
		}
	})
}

func TestLines(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     string // the error; "" for none
	}{
		{"short lines", "abcd\nab\r\nabcd", ""},
		{"a long line", "abcd\nabcde\nab\n", "in:2: the line is larger than 4 bytes"},
		{"a long last line", "ab\n\nabcdef", "in:3: the line is larger than 4 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := io.ReadAll(budget.Lines("in", iotest.OneByteReader(strings.NewReader(tt.in)), 4, ""))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := io.Copy(io.Discard, budget.Lines("-", zeros{}, 1<<20, "")); err == nil {
		t.Error("an endless line was copied to its end")
	}
}

// FuzzLines: Lines fails exactly when a line (less a "\r" ending it) is
// longer than the limit, naming the first such line.
func FuzzLines(f *testing.F) {
	for _, s := range []string{"", "abc\nabcd\r\n", "ab\r\r\n", "abcde", "\n\nabcd\r"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, limit uint8) {
		n := int(limit) + 1
		want := 0
		for i, line := range strings.Split(s, "\n") {
			if len(strings.TrimSuffix(line, "\r")) > n {
				want = i + 1
				break
			}
		}
		_, err := io.ReadAll(budget.Lines("in", iotest.HalfReader(strings.NewReader(s)), int64(n), ""))
		var be *budget.Error
		switch {
		case want == 0 && err != nil:
			t.Fatalf("Lines(%q, %d): %v, want no error", s, n, err)
		case want > 0 && (!errors.As(err, &be) || be.Line != want):
			t.Fatalf("Lines(%q, %d): %v, want line %d past the budget", s, n, err, want)
		}
	})
}
