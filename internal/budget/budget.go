// Package budget bounds what toolgrade reads into memory at once, so that
// no input, however large or endless (/dev/zero, a line without end, a
// file of one huge value), can exhaust memory: every reader of every
// command opens its input through this package.
//
// Two sizes bound an input: a line (of an input read as it streams, and
// a record of a case file: a JSON array's element, a YAML document or
// list item) and a whole file (of an input read whole: a trace, a config,
// a tools file, a BFCL result file). An input past a budget is an
// [*Error] naming the input, the line, the budget and the flag that
// raises it; the rest of the input is not read.
//
// Non-goals: bounding the time an endless input of short lines takes (it
// streams, as cat does, in bounded memory), and the budgets of what is
// decoded (nesting depth, YAML aliases, schemas, calls per case), which
// the packages that decode keep beside their decoders.
package budget

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The default budgets, and the flags that change them.
const (
	// DefaultLine bounds a line of an input read as it streams, or a
	// record of a case file.
	DefaultLine int64 = 64 << 20
	// DefaultFile bounds an input read whole.
	DefaultFile int64 = 256 << 20

	LineFlag = "--max-line-size"
	FileFlag = "--max-file-size"
)

// Sizes are a run's budgets; a zero size is the default.
type Sizes struct {
	Line int64
	File int64
}

// LineOr returns the line budget (the default when unset).
func (s Sizes) LineOr() int64 { return cmpOr(s.Line, DefaultLine) }

// FileOr returns the whole-file budget (the default when unset).
func (s Sizes) FileOr() int64 { return cmpOr(s.File, DefaultFile) }

func cmpOr(n, def int64) int64 {
	if n > 0 {
		return n
	}
	return def
}

// An Error says an input went past a budget.
type Error struct {
	// Name is the input ("-" for standard input; "" when the message
	// names it otherwise).
	Name string
	// Line is where the line or record starts (0: the input as a whole).
	Line int
	// What went past the budget: "line", "record starting here", "file".
	What string
	// Limit is the budget, in bytes.
	Limit int64
	// Flag raises the budget ("--max-line-size", or a setting); "" when
	// none does.
	Flag string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Name)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "the %s is larger than %s, the most toolgrade reads at once", e.What, Format(e.Limit))
	if e.Flag != "" {
		fmt.Fprintf(&b, " (%s raises it)", e.Flag)
	}
	return b.String()
}

// ReadFile reads the named file whole, "-" being stdin, within limit
// bytes (0: [DefaultFile]); flag is the flag that raises limit, for the
// message. A file larger than that is an [*Error], found before reading
// it when its size is known.
func ReadFile(name string, stdin io.Reader, limit int64, flag string) ([]byte, error) {
	limit = cmpOr(limit, DefaultFile)
	tooLarge := &Error{Name: name, What: "file", Limit: limit, Flag: flag}
	if name == "-" {
		return readAll(stdin, limit, 0, tooLarge)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	if size > limit {
		return nil, tooLarge
	}
	return readAll(f, limit, size, tooLarge)
}

// ReadAll reads r to its end within tooLarge.Limit bytes (0:
// [DefaultFile]), and past it fails with tooLarge, which names what is
// read ("file" when What is empty).
func ReadAll(r io.Reader, tooLarge *Error) ([]byte, error) {
	e := *tooLarge
	e.Limit = cmpOr(e.Limit, DefaultFile)
	if e.What == "" {
		e.What = "file"
	}
	return readAll(r, e.Limit, 0, &e)
}

func readAll(r io.Reader, limit, size int64, tooLarge *Error) ([]byte, error) {
	// Read into chunks that grow, and join them at the end: unlike a
	// buffer grown by copying, reading leaves no garbage behind, so an
	// input past the budget costs about the budget, whatever its size.
	// One byte past the limit tells a file of exactly limit bytes from a
	// larger one. A file of known size takes one chunk.
	var chunks [][]byte
	total := int64(0)
	next := max(min(size, limit)+1, 64<<10)
	for {
		chunk := make([]byte, min(next, limit+1-total))
		n, err := io.ReadFull(r, chunk)
		chunks = append(chunks, chunk[:n])
		total += int64(n)
		switch {
		case total > limit:
			return nil, tooLarge
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			if len(chunks) == 1 {
				return chunks[0], nil
			}
			return bytes.Join(chunks, nil), nil
		case err != nil:
			return nil, err
		}
		next = min(2*next, 16<<20)
	}
}

// Format writes a size as a person reads it: "64 MiB", "1.5 GiB", "100
// bytes".
func Format(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift {
			return strconv.FormatFloat(float64(n)/float64(int64(1)<<u.shift), 'f', -1, 64) + " " + u.name
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Parse reads a size as the flags take it: a whole number of bytes, or a
// number with a unit, KiB, MiB, GiB (powers of 1024), or KB, MB, GB
// (powers of 1000): "64MiB", "1.5GiB", "100000". It must be positive.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	mult := map[string]float64{"": 1, "B": 1, "BYTE": 1, "BYTES": 1, "KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "KB": 1e3, "MB": 1e6, "GB": 1e9}[unit]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || !(f*mult >= 1) || f*mult > 1<<62 {
		return 0, fmt.Errorf("want a size such as 64MiB or 2GiB (a number of bytes, or with KiB, MiB, GiB, KB, MB, GB), got %q", s)
	}
	return int64(f * mult), nil
}

// Lines returns a reader of r that fails with an [*Error] once a line of
// r passes limit bytes (0: [DefaultLine]), for an input copied before it
// is read: the copy stops where reading it would.
func Lines(name string, r io.Reader, limit int64, flag string) io.Reader {
	limit = cmpOr(limit, DefaultLine)
	return &lines{r: r, tooLarge: Error{Name: name, Line: 1, What: "line", Limit: limit, Flag: flag}}
}

type lines struct {
	r        io.Reader
	run      int64 // bytes of the current line read so far
	cr       bool  // the last byte read is "\r"
	tooLarge Error // Line is the current line
}

func (l *lines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	limit := l.tooLarge.Limit
	over := false
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.run += int64(len(b))
			l.cr = b[len(b)-1] == '\r'
			// Past the limit by more than a "\r" that may end it.
			over = l.run > limit+1
			break
		}
		if i > 0 {
			l.cr = b[i-1] == '\r'
		}
		length := l.run + int64(i)
		if l.cr {
			length--
		}
		if over = length > limit; over {
			break
		}
		l.run, l.cr = 0, false
		l.tooLarge.Line++
		b = b[i+1:]
	}
	if over || err == io.EOF && l.run > limit && !(l.cr && l.run-1 <= limit) {
		e := l.tooLarge
		return n, &e
	}
	return n, err
}
