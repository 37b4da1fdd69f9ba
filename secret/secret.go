// Package secret keeps a run's secrets out of everything toolgrade writes.
//
// A [Set] holds the run's secrets: the API keys read from the environment
// (the judge's, the model's), the values of MCP headers and of the
// variables they name, the credentials in an MCP server's URL. Whoever
// reads a secret adds it to the run's Set ([Set.Getenv] adds what it
// reads), and every sink scrubs what it writes with the same Set: the
// standard streams, report and run files, the reply cache, requests sent
// to a model, serve's responses ([Set.Writer], [Set.Bytes],
// [Set.Error]). Sources are not trusted to have scrubbed anything: a
// secret that a server echoes back, in any field, is caught where it is
// written.
//
// What is redacted, replaced by [Redacted]:
//
//   - every run of at least [MinEcho] consecutive bytes of a secret: the
//     whole secret, its prefixes and suffixes, a quoted part of it;
//   - the same in each form toolgrade's writers and the protocols it
//     speaks give text: JSON-escaped (with and without HTML escaping),
//     HTML- and XML-escaped, Markdown-escaped, URL-encoded (query and
//     path), and each of these applied twice (JSON in a JSON string, JSON
//     in HTML, ...);
//   - a secret shorter than MinEcho bytes, only whole, and only when it
//     has at least [MinLen] bytes: shorter values are no credential, and
//     redacting them would garble every output.
//
// Outputs stay valid: a redaction never begins or ends inside an escape
// (\", \u0022, &#34;, %22), and keeps the markup bytes it covers
// (quotes, <, >, braces, brackets, comma, colon, |, /, =, white space),
// replacing what lies between. Scrubbing takes time linear in the text.
//
// A value is taken line by line, less white space around each. Non-goals:
// encodings a writer does not make (base64 of a secret, a secret spelled
// in another case or split by other text), and runs shorter than MinEcho
// (the last four characters of a key, as some APIs quote them).
//
// A nil *Set holds nothing and scrubs nothing. A Set is safe for
// concurrent use; secrets added after a write apply to the writes after
// it.
package secret

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolgrade/toolgrade/internal/escape"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Redacted replaces what is redacted.
const Redacted = "[redacted]"

// MinEcho is the shortest run of a secret's bytes that is redacted where
// it appears; MinLen the shortest secret kept at all.
const (
	MinEcho = 8
	MinLen  = 4
)

// maxPiece bounds the pieces a long secret is kept in.
const maxPiece = 1 << 10

// A Set is a run's secrets; the zero value is empty and ready.
type Set struct {
	mu     sync.Mutex
	values []string
	t      atomic.Pointer[table]
}

// Add adds secrets, each line of a value on its own (a PEM key, say), so
// that no secret spans lines; white space around a line is dropped, and
// lines shorter than [MinLen] are ignored.
func (s *Set) Add(values ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	added := false
	for _, value := range values {
		for line := range strings.Lines(strings.ReplaceAll(value, "\r", "\n")) {
			line = strings.TrimSpace(line)
			if len(line) < MinLen {
				continue
			}
			// A long line is kept in overlapping pieces, every run of
			// MinEcho bytes in one of them, so that what a secret costs
			// stays in proportion to its length whatever it holds.
			for at := 0; at == 0 || at+MinEcho <= len(line); at += maxPiece {
				v := line[at:min(len(line), at+maxPiece+MinEcho-1)]
				if !slices.Contains(s.values, v) {
					s.values = append(s.values, v)
					added = true
				}
			}
		}
	}
	if added {
		s.t.Store(newTable(s.values))
	}
}

// Getenv returns a getter that reads the environment with getenv
// (os.Getenv when nil) and adds every value it reads to the set: for
// reading credentials.
func (s *Set) Getenv(getenv func(string) string) func(string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return func(name string) string {
		v := getenv(name)
		s.Add(v)
		return v
	}
}

// Empty reports whether the set holds no secret.
func (s *Set) Empty() bool { return s.table() == nil }

func (s *Set) table() *table {
	if s == nil {
		return nil
	}
	return s.t.Load()
}

// Bytes returns b with the secrets redacted: b itself when there is
// nothing to redact, else a new slice.
func (s *Set) Bytes(b []byte) []byte {
	t := s.table()
	if t == nil {
		return b
	}
	spans := t.spans(b, nil)
	if len(spans) == 0 {
		return b
	}
	return redact(nil, b, spans)
}

// String returns str with the secrets redacted.
func (s *Set) String(str string) string {
	t := s.table()
	if t == nil {
		return str
	}
	b := []byte(str)
	if spans := t.spans(b, nil); len(spans) > 0 {
		return string(redact(nil, b, spans))
	}
	return str
}

// Error returns err with the secrets redacted from its message; it
// unwraps to err. Nil stays nil, and an error with nothing to redact is
// returned as it is.
func (s *Set) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := s.String(msg); clean != msg {
		return &scrubbed{msg: clean, err: err}
	}
	return err
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// A Writer writes to another writer with the secrets of a set redacted.
// A secret may be split across writes: the Writer holds back the end of
// what it was given while it could be the start of one (at most MinEcho-1
// bytes of the secrets' characters, or a run of a secret up to 64 KiB, an
// escape it ends in), so call [Writer.Flush] or [Writer.Close] when done;
// a line's end is never held. What it writes is what scrubbing the whole
// text at once gives. It is safe for concurrent use.
type Writer struct {
	set  *Set
	w    io.Writer
	mu   sync.Mutex
	held []byte
}

// Writer returns a Writer that writes to w.
func (s *Set) Writer(w io.Writer) *Writer { return &Writer{set: s, w: w} }

// Write writes p, less what is held back, with the secrets redacted. It
// reports len(p) unless the underlying writer fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.set.table()
	if t == nil { // nothing was ever held: the set only grows
		return w.w.Write(p)
	}
	buf := p
	if len(w.held) > 0 {
		buf = append(w.held, p...)
	}
	spans := t.spans(buf, nil)
	// What could begin a secret is held back, and so is an escape it
	// ends in, so that a span the next write finds is widened as it would
	// be in the whole text.
	cut := escapeStart(buf, len(buf)-t.partialSuffix(buf))
	// A run of a secret that reaches the cut may go on in the next write:
	// hold it whole.
	for j := len(spans) - 1; j >= 0 && (spans[j].end > cut || spans[j].end == len(buf)); j-- {
		cut = min(cut, spans[j].start)
		spans = spans[:j]
	}
	if len(buf)-cut > maxHeld { // a pathological run: let it go, redacted
		cut, spans = len(buf), t.spans(buf, nil)
	}
	out := buf[:cut]
	if len(spans) > 0 {
		out = redact(nil, out, spans)
	}
	var err error
	if len(out) > 0 {
		_, err = w.w.Write(out)
	}
	w.held = append(w.held[:0:0], buf[cut:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// maxHeld bounds what a Writer holds back.
const maxHeld = 64 << 10

// Flush writes what is held back.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.held) == 0 {
		return nil
	}
	out := w.set.Bytes(w.held)
	w.held = nil
	_, err := w.w.Write(out)
	return err
}

// Close flushes, then closes the underlying writer if it is an
// io.Closer.
func (w *Writer) Close() error {
	err := w.Flush()
	if c, ok := w.w.(io.Closer); ok {
		err = errors.Join(err, c.Close())
	}
	return err
}

// Unwrap returns the underlying writer.
func (w *Writer) Unwrap() io.Writer { return w.w }

// Stat reports the underlying writer's file information, so that a
// terminal behind a Writer is still seen as one; an error when it is no
// file.
func (w *Writer) Stat() (os.FileInfo, error) {
	if f, ok := w.w.(interface{ Stat() (os.FileInfo, error) }); ok {
		return f.Stat()
	}
	return nil, errors.New("secret: not a file")
}

// A span is a byte range to redact.
type span struct{ start, end int }

// redact appends b to dst with the spans (sorted, disjoint, within b)
// replaced by Redacted, all but the markup bytes they cover.
func redact(dst, b []byte, spans []span) []byte {
	at := 0
	for _, s := range spans {
		dst = append(dst, b[at:s.start]...)
		start := s.start
		for i := s.start; i < s.end; i++ {
			if markup[b[i]] && !escaped(b, i) {
				if i > start {
					dst = append(dst, Redacted...)
				}
				dst = append(dst, b[i])
				start = i + 1
			}
		}
		if s.end > start {
			dst = append(dst, Redacted...)
		}
		at = s.end
	}
	return append(dst, b[at:]...)
}

// A table is a set's secrets, compiled for matching.
type table struct {
	// grams holds every run of MinEcho bytes of every form of a secret:
	// a text's bytes to redact are the union of its windows of MinEcho
	// bytes found here, which is the union of its runs of MinEcho bytes
	// or more of a form, found in time linear in the text. filter is a
	// bitmap of their hashes, so that most windows are passed over
	// without a map lookup.
	grams  map[uint64]struct{}
	filter [filterBits / 64]uint64
	// short are the forms shorter than MinEcho, matched whole.
	short []string
	// inForm marks the bytes found in some form: a Writer holds back the
	// end of what it was given only while it is made of them.
	inForm [256]bool
}

const filterBits = 1 << 16

func gramHash(x uint64) uint64 { return (x * 0x9E3779B97F4A7C15) >> (64 - 16) }

func newTable(values []string) *table {
	t := &table{grams: map[uint64]struct{}{}}
	seen := map[string]bool{}
	for _, v := range values {
		for _, f := range forms(v) {
			if seen[f] {
				continue
			}
			seen[f] = true
			if len(f) < MinEcho {
				t.short = append(t.short, f)
			}
			for i := 0; i+MinEcho <= len(f); i++ {
				x := binary.LittleEndian.Uint64([]byte(f[i : i+MinEcho]))
				t.grams[x] = struct{}{}
				h := gramHash(x)
				t.filter[h/64] |= 1 << (h % 64)
			}
			for i := range len(f) {
				t.inForm[f[i]] = true
			}
		}
	}
	return t
}

// spans appends to out the ranges of b to redact, sorted and merged.
func (t *table) spans(b []byte, out []span) []span {
	for i := 0; i+MinEcho <= len(b); i++ {
		x := binary.LittleEndian.Uint64(b[i:])
		if h := gramHash(x); t.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		if _, ok := t.grams[x]; !ok {
			continue
		}
		end := i + MinEcho
		if n := len(out); n > 0 && i < out[n-1].end {
			out[n-1].end = max(out[n-1].end, end)
		} else {
			out = append(out, span{i, end})
		}
	}
	for _, f := range t.short {
		for at := 0; ; {
			k := bytes.Index(b[at:], []byte(f))
			if k < 0 {
				break
			}
			out = append(out, span{at + k, at + k + len(f)})
			at += k + 1
		}
	}
	if len(out) == 0 {
		return out
	}
	for i := range out {
		out[i] = span{escapeStart(b, out[i].start), escapeEnd(b, out[i].end)}
	}
	sorting.Sort(out, func(a, b span) int { return a.start - b.start })
	merged := out[:1]
	for _, s := range out[1:] {
		if last := &merged[len(merged)-1]; s.start < last.end {
			last.end = max(last.end, s.end)
		} else {
			merged = append(merged, s)
		}
	}
	return merged
}

// markup are the bytes that delimit in toolgrade's outputs: JSON (Lines),
// XML and HTML, Markdown tables, URLs, words. Redaction keeps those a span
// covers (unless a backslash escapes them), and replaces what lies
// between: the redaction of a secret that holds one must not swallow the
// output's own, which the data around it may happen to continue (a secret
// ending in a quote, and a string ending in the rest of it).
var markup = func() (set [256]bool) {
	for _, c := range []byte("\"'<>{}[],:|/= \t\n\r") {
		set[c] = true
	}
	return set
}()

// escaped reports whether b[i] is escaped by a backslash: a byte JSON or
// Markdown escapes, after an odd number of backslashes.
func escaped(b []byte, i int) bool {
	return i < len(b) && backslashEscapes[b[i]] && backslashesBefore(b, i)%2 == 1
}

// backslashEscapes are the bytes a backslash escapes in JSON and in
// Markdown.
var backslashEscapes = func() (set [256]bool) {
	for _, c := range []byte("\"\\/bfnrtu`*_[]|~#!(){}") {
		set[c] = true
	}
	return set
}()

// A span must not begin or end inside an escape: what would remain of it
// would garble the output (a JSON string with a lone backslash, XML with
// half a character reference). The escapes are those of the forms: a
// backslash and a byte (JSON, Markdown), \uXXXX, an HTML or XML
// character reference (&amp;, &#34;), a URL's %XX.
const maxReference = 10 // "&#x10FFFF;"

// escapeStart returns the start of the escape that i is inside of, or i.
func escapeStart(b []byte, i int) int {
	for {
		j := escapeStart1(b, i)
		if j == i {
			return i
		}
		i = j
	}
}

func escapeStart1(b []byte, i int) int {
	// at reports whether the byte at i could continue an escape; at the
	// end of b, any byte could come next.
	at := func(ok func(byte) bool) bool { return i >= len(b) || ok(b[i]) }
	if i > 0 && at(func(c byte) bool { return backslashEscapes[c] }) && backslashesBefore(b, i)%2 == 1 {
		return i - 1
	}
	if at(isHexByte) {
		for k := 2; k <= 5 && i-k >= 0; k++ {
			if p := i - k; b[p] == '\\' && b[p+1] == 'u' && isHex(b[p+2:i]) && backslashesBefore(b, p)%2 == 0 {
				return p
			}
		}
		switch {
		case i >= 1 && b[i-1] == '%':
			return i - 1
		case i >= 2 && b[i-2] == '%' && isHexByte(b[i-1]):
			return i - 2
		}
	}
	if at(func(c byte) bool { return isAlnum(c) || c == '#' || c == ';' }) {
		for k := 1; k <= maxReference && i-k >= 0; k++ {
			c := b[i-k]
			if c == '&' {
				return i - k
			}
			if !isAlnum(c) && c != '#' {
				break
			}
		}
	}
	return i
}

// escapeEnd returns the end of the escape that a span ending at e cuts,
// or e; at most len(b), for an escape that b does not hold whole.
func escapeEnd(b []byte, e int) int {
	s := escapeStart(b, e)
	if s == e {
		return e
	}
	end := e
	// hex extends end over up to n hex digits.
	hex := func(from, n int) int {
		end := from
		for end < from+n && end < len(b) && isHexByte(b[end]) {
			end++
		}
		return end
	}
	switch b[s] {
	case '\\':
		end = s + 2
		if s+1 < len(b) && b[s+1] == 'u' {
			end = hex(s+2, 4)
		}
	case '&':
		semi := bytes.IndexByte(b[s:min(len(b), s+maxReference)], ';')
		switch {
		case semi >= 0:
			end = s + semi + 1
		case s+maxReference > len(b):
			end = len(b) // it may yet end
		}
	case '%':
		end = hex(s+1, 2)
	}
	return min(max(end, e), len(b))
}

func backslashesBefore(b []byte, i int) int {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !isHexByte(c) {
			return false
		}
	}
	return true
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// partialSuffix returns the length of the longest end of b, shorter than
// MinEcho, made of bytes found in the secrets' forms: what may begin a
// secret that the next write completes. (More than needs holding, at
// times; never less, and never a line's end.)
func (t *table) partialSuffix(b []byte) int {
	n := 0
	for n < MinEcho-1 && n < len(b) && t.inForm[b[len(b)-1-n]] {
		n++
	}
	return n
}

// forms returns v and the forms toolgrade's writers and protocols give it
// (see the package comment), each escaper applied once and twice.
func forms(v string) []string {
	out := []string{v}
	for _, e := range escapers {
		out = append(out, e(v))
	}
	for _, first := range out[1 : 1+len(escapers)] {
		for _, e := range escapers {
			out = append(out, e(first))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// escapers are the ways toolgrade's writers and the protocols it speaks
// escape text.
var escapers = []func(string) string{
	// JSON, as toolgrade writes it and as encoding/json does (<, >, &
	// as \u003c ...).
	func(s string) string {
		b := jsonvalue.AppendString(nil, s)
		return string(b[1 : len(b)-1])
	},
	func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	},
	// HTML: html.EscapeString, and html/template, which also writes + as
	// &#43;.
	html.EscapeString,
	strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "+", "&#43;").Replace,
	// XML (JUnit): encoding/xml's escapes.
	strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;").Replace,
	// Markdown cells: HTML specials as entities, punctuation backslashed;
	// HTML in Markdown, and other writers that escape only what markup
	// needs.
	escape.Markdown,
	strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\n", "&#10;", "\t", "&#9;").Replace,
	url.QueryEscape,
	url.PathEscape,
}
