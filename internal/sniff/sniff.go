// Package sniff tells what kind of input a file is before a reader parses
// it, so that every reader of toolgrade's inputs (cases, configs, tool
// definitions, traces, result files, BFCL files, serve's requests) says
// the same thing about the same mistake, naming it, instead of each
// parser's own complaint about the first byte it did not expect.
//
// Two levels. Bytes: [Text] and [Bytes] give an input's text as UTF-8,
// dropping a UTF-8 byte-order mark and reading UTF-16 that starts with one
// (as Windows PowerShell and Notepad write it); compressed files,
// archives, binary formats and other encodings are refused with a
// [NotTextError] that names them and says what to do. [Open] and
// [ReadFile] do the same for a named file, and refuse a directory.
// Documents: [Document] tells a toolgrade result line and a toolgrade
// config by their shape, for the readers of other kinds to refuse them
// with what to do instead; [CSV] tells comma- and tab-separated text.
//
// Rules: only the first bytes of an input decide; a NUL byte later on is
// the parser's to report on its line, so that one bad line is one error.
// UTF-16 without a byte-order mark is refused rather than guessed at.
//
// Non-goals: decompressing or unpacking (a trace reader that reads an
// archive format, such as Inspect's .eval logs, looks at the bytes
// itself), and telling a case from a trace (packages dataset and trace).
package sniff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/internal/budget"
)

// A NotTextError says that an input is not text toolgrade reads: what it
// is instead, and what to do.
type NotTextError struct {
	// Kind names what the input is ("gzip-compressed data",
	// "UTF-16 text without a byte-order mark").
	Kind string
	// Hint says what to do ("decompress it first").
	Hint string
}

func (e *NotTextError) Error() string {
	return e.Kind + ", not UTF-8 text: " + e.Hint
}

// A signature is the first bytes of a kind of file that is not text.
type signature struct {
	magic string
	kind  string
	hint  string
}

// signatures are checked in order against an input's first bytes: UTF-32's
// byte-order marks before UTF-16's, which begin them.
var signatures = []signature{
	{"\x00\x00\xFE\xFF", "UTF-32 text", "save it as UTF-8"},
	{"\xFF\xFE\x00\x00", "UTF-32 text", "save it as UTF-8"},
	{"\x1F\x8B", "gzip-compressed data", "decompress it first (gunzip -k FILE)"},
	{"PK\x03\x04", "a zip archive", "unpack it and give the file inside"},
	{"PK\x05\x06", "a zip archive (empty)", "unpack it and give the file inside"},
	{"BZh", "bzip2-compressed data", "decompress it first (bunzip2 -k FILE)"},
	{"\xFD7zXZ\x00", "xz-compressed data", "decompress it first (unxz -k FILE)"},
	{"\x28\xB5\x2F\xFD", "zstd-compressed data", "decompress it first (unzstd FILE)"},
	{"7z\xBC\xAF\x27\x1C", "a 7z archive", "unpack it and give the file inside"},
	{"PAR1", "a Parquet file", "convert it to JSON Lines first (for a Hugging Face dataset: dataset.to_json(\"cases.jsonl\"))"},
	{"SQLite format 3\x00", "an SQLite database", "export the cases as JSON Lines"},
	{"%PDF-", "a PDF document", "give the cases as JSON Lines, JSON or YAML"},
}

// IsZip reports whether data starts as a zip archive does.
func IsZip(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06"))
}

// head is how many bytes the first look at an input needs: the longest
// signature.
const head = 16

// encoding is what the first bytes of an input say about its text.
type encoding int

const (
	utf8Text encoding = iota
	utf8BOM
	utf16LE // with its byte-order mark
	utf16BE
)

// check looks at an input's first bytes (all of them when it is shorter
// than head).
func check(b []byte) (encoding, error) {
	for _, s := range signatures {
		if bytes.HasPrefix(b, []byte(s.magic)) {
			return 0, &NotTextError{Kind: s.kind, Hint: s.hint}
		}
	}
	switch {
	case bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")):
		return utf8BOM, nil
	case bytes.HasPrefix(b, []byte("\xFF\xFE")):
		return utf16LE, nil
	case bytes.HasPrefix(b, []byte("\xFE\xFF")):
		return utf16BE, nil
	}
	// Text in UTF-16 or UTF-32 without a byte-order mark: ASCII with NUL
	// bytes between. No JSON, YAML or trace starts with a NUL byte.
	if len(b) >= 4 {
		switch {
		case b[0] != 0 && b[1] == 0 && b[2] == 0 && b[3] == 0:
			return 0, &NotTextError{Kind: "UTF-32 text without a byte-order mark", Hint: "save it as UTF-8"}
		case b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0:
			return 0, &NotTextError{Kind: "UTF-16 (little-endian) text without a byte-order mark", Hint: "save it as UTF-8, or as UTF-16 with a byte-order mark"}
		case b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0:
			return 0, &NotTextError{Kind: "UTF-16 (big-endian) text without a byte-order mark", Hint: "save it as UTF-8, or as UTF-16 with a byte-order mark"}
		}
	}
	if len(b) > 0 && b[0] == 0 {
		return 0, &NotTextError{Kind: "binary data (it starts with a NUL byte)", Hint: "give a text file"}
	}
	return utf8Text, nil
}

// Text returns r's text as UTF-8: a UTF-8 byte-order mark is dropped, and
// UTF-16 with a byte-order mark is decoded. An input that is not text is
// a *NotTextError. Text reads only what r has ready to decide (an input
// that is still being written, such as serve's requests, is not waited
// for beyond its first bytes); an invalid UTF-16 sequence later on is a
// read error naming its line.
func Text(r io.Reader) (io.Reader, error) {
	var buf [head]byte
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if !undecided(buf[:n]) {
			break
		}
	}
	enc, err := check(buf[:n])
	if err != nil {
		return nil, err
	}
	first := buf[:n]
	switch enc {
	case utf8BOM:
		first = first[3:]
	case utf16LE, utf16BE:
		return &utf16Reader{src: bufio.NewReaderSize(io.MultiReader(bytes.NewReader(first[2:]), r), 64<<10), big: enc == utf16BE, line: 1}, nil
	}
	rest := append([]byte(nil), first...)
	return io.MultiReader(bytes.NewReader(rest), r), nil
}

// undecided reports whether b, an input's first bytes, is too short to
// tell what the input is: it may be the start of a signature or a
// byte-order mark, or of text with NUL bytes between its characters.
func undecided(b []byte) bool {
	for _, s := range signatures {
		if len(b) < len(s.magic) && s.magic[:len(b)] == string(b) {
			return true
		}
	}
	for _, bom := range []string{"\xEF\xBB\xBF", "\xFF\xFE", "\xFE\xFF"} {
		if len(b) < len(bom) && bom[:len(b)] == string(b) {
			return true
		}
	}
	switch {
	case len(b) < 2:
		return true // the next byte says whether NUL bytes come between
	case len(b) < 4:
		return b[0] == 0 || b[1] == 0
	}
	return false
}

// Bytes is [Text] for an input read whole.
func Bytes(data []byte) ([]byte, error) {
	enc, err := check(data[:min(len(data), head)])
	if err != nil {
		return nil, err
	}
	switch enc {
	case utf8BOM:
		return data[3:], nil
	case utf16LE, utf16BE:
		return io.ReadAll(&utf16Reader{src: bufio.NewReader(bytes.NewReader(data[2:])), big: enc == utf16BE, line: 1})
	}
	return data, nil
}

// Open opens a named input for reading as text (see [Text]). A directory,
// and a file that is not text, are errors naming the file.
func Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if err := notDirectory(f, name); err != nil {
		f.Close()
		return nil, err
	}
	r, err := Text(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return readCloser{r, f}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// ReadFile reads a named input whole as text (see [Text]) within limit
// bytes of text (0: budget.DefaultFile); flag raises the limit, for the
// message ("" when none does). A directory, a file that is not text, and
// one past the limit ([*budget.Error]) are errors naming the file.
func ReadFile(name string, limit int64, flag string) ([]byte, error) {
	r, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := budget.ReadAll(r, &budget.Error{Name: name, Limit: limit, Flag: flag})
	var be *budget.Error
	if de, ok := err.(*DecodeError); ok {
		return nil, fmt.Errorf("%s:%d: %s", name, de.Line, de.Msg)
	}
	if errors.As(err, &be) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// A DirectoryError is a directory given where a file was wanted.
type DirectoryError struct{ Name string }

func (e *DirectoryError) Error() string {
	return e.Name + " is a directory: give a file in it"
}

func notDirectory(f *os.File, name string) error {
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return &DirectoryError{Name: name}
	}
	return nil
}

// IsDirectory reports whether name is a directory, for the commands that
// take one (a directory of result files) to check before [Open] refuses it.
func IsDirectory(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// utf16Reader decodes UTF-16 (after its byte-order mark) into UTF-8.
type utf16Reader struct {
	src  *bufio.Reader
	big  bool
	line int    // the line being decoded, for errors
	out  []byte // decoded text not yet read
	err  error
}

// A DecodeError is text that is not valid in its encoding (an unpaired
// surrogate, an odd last byte of UTF-16), found while reading it.
type DecodeError struct {
	Line int // the line it is on, from 1
	Msg  string
}

func (e *DecodeError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Failed returns the DecodeError that stopped r, a reader [Text]
// returned, or nil: for a reader of r whose own errors may hide it.
func Failed(r io.Reader) *DecodeError {
	u, ok := r.(*utf16Reader)
	if !ok {
		return nil
	}
	de, _ := u.err.(*DecodeError)
	return de
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 && u.err == nil {
		u.fill()
	}
	if len(u.out) > 0 {
		n := copy(p, u.out)
		u.out = u.out[n:]
		return n, nil
	}
	return 0, u.err
}

// fill decodes up to 4 KiB of code units into out.
func (u *utf16Reader) fill() {
	u.out = u.out[:0]
	for range 2048 {
		c, err := u.unit()
		if err != nil {
			u.err = err
			return
		}
		r := rune(c)
		if utf16.IsSurrogate(r) {
			d, err := u.unit()
			if err == io.EOF {
				err = nil // the unpaired surrogate below says it
			}
			if err != nil {
				u.err = err
				return
			}
			if r = utf16.DecodeRune(r, rune(d)); r == utf8.RuneError {
				u.err = &DecodeError{Line: u.line, Msg: fmt.Sprintf("invalid UTF-16: an unpaired surrogate (\\u%04x)", c)}
				return
			}
		}
		if r == '\n' {
			u.line++
		}
		u.out = utf8.AppendRune(u.out, r)
		if u.src.Buffered() == 0 {
			return // give what there is before blocking on more
		}
	}
}

// unit reads one code unit.
func (u *utf16Reader) unit() (uint16, error) {
	a, err := u.src.ReadByte()
	if err != nil {
		return 0, err
	}
	b, err := u.src.ReadByte()
	if err == io.EOF {
		return 0, &DecodeError{Line: u.line, Msg: "invalid UTF-16: the text ends in half a character (an odd number of bytes)"}
	}
	if err != nil {
		return 0, err
	}
	if u.big {
		return uint16(a)<<8 | uint16(b), nil
	}
	return uint16(b)<<8 | uint16(a), nil
}
