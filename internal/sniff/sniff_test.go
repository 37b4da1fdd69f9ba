package sniff_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"golang.org/x/text/encoding/unicode"
)

// encode16 encodes s as UTF-16 after a byte-order mark.
func encode16(s string, big bool) []byte {
	order := unicode.LittleEndian
	if big {
		order = unicode.BigEndian
	}
	out, err := unicode.UTF16(order, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(err)
	}
	return out
}

func TestText(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
		want  string // the text, or the error
	}{
		{"utf-8", []byte(`{"a":1}`), `{"a":1}`},
		{"empty", nil, ""},
		{"one byte", []byte("4"), "4"},
		{"utf-8 byte-order mark", []byte("\xEF\xBB\xBF{}"), "{}"},
		{"utf-16 little-endian", encode16("{\"é\":\"😀\"}\n", false), "{\"é\":\"😀\"}\n"},
		{"utf-16 big-endian", encode16("- id: a\n", true), "- id: a\n"},
		{"utf-16 empty", []byte{0xFF, 0xFE}, ""},
		{"gzip", []byte("\x1F\x8B\x08\x00"), "gzip-compressed data, not UTF-8 text: decompress it first (gunzip -k FILE)"},
		{"zip", []byte("PK\x03\x04"), "a zip archive, not UTF-8 text: unpack it and give the file inside"},
		{"bzip2", []byte("BZh91AY"), "bzip2-compressed data"},
		{"xz", []byte("\xFD7zXZ\x00"), "xz-compressed data"},
		{"zstd", []byte("\x28\xB5\x2F\xFD"), "zstd-compressed data"},
		{"parquet", []byte("PAR1"), "a Parquet file"},
		{"sqlite", []byte("SQLite format 3\x00"), "an SQLite database"},
		{"utf-32 little-endian", []byte("\xFF\xFE\x00\x00{\x00\x00\x00"), "UTF-32 text, not UTF-8 text"},
		{"utf-32 big-endian", []byte("\x00\x00\xFE\xFF\x00\x00\x00{"), "UTF-32 text, not UTF-8 text"},
		{"utf-32 without a mark", []byte("{\x00\x00\x00}\x00\x00\x00"), "UTF-32 text without a byte-order mark"},
		{"utf-16 without a mark", encode16("{}", false)[2:], "UTF-16 (little-endian) text without a byte-order mark, not UTF-8 text: save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"utf-16 big-endian without a mark", encode16("[]", true)[2:], "UTF-16 (big-endian) text without a byte-order mark"},
		{"a NUL byte first", []byte("\x00\x00\x00\x00\x00"), "binary data (it starts with a NUL byte)"},
		{"a NUL byte later is the parser's", []byte("{\"a\":\x00}"), "{\"a\":\x00}"},
		{"an unpaired high surrogate", append(encode16("{}\n[", false), 0x00, 0xD8, 'x', 0), "line 2: invalid UTF-16: an unpaired surrogate (\\ud800)"},
		{"an unpaired low surrogate", append(encode16("{}", false), 0x00, 0xDC), "line 1: invalid UTF-16: an unpaired surrogate (\\udc00)"},
		{"a surrogate at the end", append(encode16("{}", false), 0x00, 0xD8), "line 1: invalid UTF-16: an unpaired surrogate (\\ud800)"},
		{"half a character", append(encode16("{}", false), '{'), "line 1: invalid UTF-16: the text ends in half a character (an odd number of bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				read func([]byte) (string, error)
			}{
				{"Bytes", func(b []byte) (string, error) { out, err := sniff.Bytes(b); return string(out), err }},
				{"Text", readText(func(r io.Reader) io.Reader { return r })},
				{"Text, one byte at a time", readText(iotest.OneByteReader)},
			} {
				got, err := r.read(tt.input)
				if err != nil {
					got = err.Error()
				}
				if !strings.HasPrefix(got, tt.want) || got != tt.want && err == nil {
					t.Errorf("%s = %q, want %q", r.name, got, tt.want)
				}
			}
		})
	}
}

func readText(wrap func(io.Reader) io.Reader) func([]byte) (string, error) {
	return func(b []byte) (string, error) {
		r, err := sniff.Text(wrap(bytes.NewReader(b)))
		if err != nil {
			return "", err
		}
		out, err := io.ReadAll(r)
		return string(out), err
	}
}

// TestTextWaitsForNoMore: a request read as it comes (serve's stdin) is
// not held back until more bytes arrive than the first look needs.
func TestTextWaitsForNoMore(t *testing.T) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		r, err := sniff.Text(pr)
		if err == nil {
			buf := make([]byte, 16)
			var n int
			n, err = r.Read(buf)
			if err == nil && string(buf[:n]) != "{}\n" {
				err = errors.New("read " + string(buf[:n]))
			}
		}
		done <- err
	}()
	pw.Write([]byte("{}\n")) // and nothing more until the answer
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	pw.Close()
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if _, err := sniff.Open(dir); err == nil || err.Error() != dir+" is a directory: give a file in it" {
		t.Errorf("Open(directory) = %v", err)
	}
	gz := filepath.Join(dir, "cases.jsonl.gz")
	os.WriteFile(gz, []byte("\x1F\x8B\x08"), 0o644)
	if _, err := sniff.ReadFile(gz, 0, ""); err == nil || !strings.HasPrefix(err.Error(), gz+": gzip-compressed data") {
		t.Errorf("ReadFile(gzip) = %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, append(encode16("{}\n{}\n", false), 0x00, 0xDC), 0o644)
	if _, err := sniff.ReadFile(bad, 0, ""); err == nil || err.Error() != bad+":3: invalid UTF-16: an unpaired surrogate (\\udc00)" {
		t.Errorf("ReadFile(bad UTF-16) = %v", err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte("[1, 2, 3]\n"), 0o644)
	if _, err := sniff.ReadFile(big, 9, "--max-file-size"); err == nil || err.Error() != big+": the file is larger than 9 bytes, the most toolgrade reads at once (--max-file-size raises it)" {
		t.Errorf("ReadFile(past the limit) = %v", err)
	}
	if data, err := sniff.ReadFile(big, 10, ""); err != nil || string(data) != "[1, 2, 3]\n" {
		t.Errorf("ReadFile(at the limit) = %q, %v", data, err)
	}
	if _, err := sniff.ReadFile(filepath.Join(dir, "missing"), 0, ""); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v", err)
	}
}

func TestDocument(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		want sniff.DocKind
	}{
		{`{"id":"a","success":true,"metrics":[]}`, sniff.Result},
		{`{"id":"a","success":null,"metrics":[{"name":"x"}],"error":"e"}`, sniff.Result},
		{`{"id":"a","success":true,"metrics":{}}`, sniff.Other},
		{`{"metrics":[{"profile":"deepeval"}]}`, sniff.Config},
		{`{"judge":{"model":"m"},"tools":"t.json"}`, sniff.Config},
		{`{"tools":"t.json"}`, sniff.Other},
		{`{"metrics":[],"id":"c"}`, sniff.Other},
		{`{}`, sniff.Other},
		{`[]`, sniff.Other},
		{`"metrics"`, sniff.Other},
	} {
		v, err := jsonvalue.ParseString(tt.doc)
		if err != nil {
			t.Fatal(err)
		}
		if got := sniff.Document(v); got != tt.want {
			t.Errorf("Document(%s) = %v, want %v", tt.doc, got, tt.want)
		}
	}
}

func TestCSV(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"id,input,expected_tools", "comma"},
		{"id\tinput", "tab"},
		{"  a, b  ", "comma"},
		{"id: a, b", ""},
		{"- a,b", ""},
		{"{\"a\":1,\"b\":2}", ""},
		{"[1,2]", ""},
		{"# a, b", ""},
		{"\"id\",\"input\"", "comma"},
		{"id;input;expected_tools", "semicolon"},
		{"\"key\": a, b", ""},
		{"hello", ""},
		{"", ""},
		{"key:", ""},
	} {
		if got := sniff.CSV(tt.line); got != tt.want {
			t.Errorf("CSV(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// FuzzText: reading an input as text never panics, gives the same text
// or the same error however it is read, and reads UTF-16 back as the
// text it encodes.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "{}", "\xEF\xBB\xBF[]", "\x1F\x8B", "\x00\x00\xFE\xFF", "{\x00}\x00"} {
		f.Add([]byte(s))
	}
	f.Add(encode16("{\"é\":\"😀\"}\n", false))
	f.Add(encode16("- a\n", true))
	f.Add(append(encode16("x", false), 0x00, 0xD8))
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, werr := sniff.Bytes(data)
		streamed, serr := readText(iotest.OneByteReader)(data)
		if (werr == nil) != (serr == nil) {
			t.Fatalf("Bytes error %v, Text error %v", werr, serr)
		}
		if werr != nil {
			if werr.Error() != serr.Error() {
				t.Fatalf("Bytes error %q, Text error %q", werr, serr)
			}
			return
		}
		if string(whole) != streamed {
			t.Fatalf("Bytes %q, Text %q", whole, streamed)
		}
		if s := string(whole); strings.ToValidUTF8(s, "\uFFFD") == s && !bytes.HasPrefix(data, []byte{0xFF, 0xFE}) && !bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
			// Valid UTF-8 that was not UTF-16: encoded as UTF-16 and read
			// back, it is itself.
			back, err := sniff.Bytes(encode16(s, len(data)%2 == 0))
			if err != nil || string(back) != s {
				t.Fatalf("UTF-16 of %q read back as %q, %v", s, back, err)
			}
		}
	})
}
