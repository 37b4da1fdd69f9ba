package report

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
)

// JUnit returns a Writer of JUnit XML in the common (Jenkins/Ant) form: a
// <testsuites> root with one <testsuite> per metric, holding one
// <testcase> per case, named by the case id, with the metric as its
// classname. When the run repeated cases (trials) each test case is one
// trial, named "id [trial N]" so that names stay unique, N the result's
// trial index or else its place among the case's results. A case below the metric's threshold carries a <failure> whose
// message gives the score and the start of the reason and whose text is
// the whole reason, followed by a line for each trajectory detail the
// metric gives (failed calls, turns below the mark, broken data flows,
// broken process rules, state differences, ungrounded values; bounded);
// a case that could not be read or scored carries an <error>.
//
// A suite's counts come before its test cases, so each suite is spooled to
// a temporary file until Finish, and so are the ids of the results, to
// number the trials of a run that turns out to repeat cases: memory stays
// flat however long the run. The files have no name once created (on
// Unix), so nothing is left behind on any exit; call Finish, even after
// an error, to close them. When w is a file that can be written at any
// offset ([DirectWriter]), the first suite's test cases go straight into
// it instead, and Finish moves them up to make room for what comes before
// them. The run's metadata
// ([RunInfo]) goes into the first suite's properties.
// Characters XML 1.0 forbids (most control characters, invalid UTF-8) are
// written as visible escapes such as \u001b.
func JUnit(w io.Writer) Writer { return &junitReport{w: w} }

// A DirectWriter is a Writer whose bytes go to a file that can be read
// and written anywhere. DirectFile returns the file when writing to it
// gives the bytes that writing through the Writer would (not ok when it
// would not: a stream, or text a writer changes on its way, such as a
// scrubber of secrets); Write writes where the file was sought to. JUnit
// asks at its first test case, before it writes anything, and again at
// Finish.
type DirectWriter interface {
	io.Writer
	DirectFile() (*os.File, bool)
}

type junitReport struct {
	w      io.Writer
	suites []*junitSuite // in first-seen order
	// file is w's file when the first suite's test cases go straight into
	// it, from offset 0 (see [JUnit]).
	file *os.File
	// ids holds, for every result in order, its id, its trial index and
	// the suites of its test cases (see [junitReport.trials]); n counts
	// them.
	ids *spool
	n   int
	// rec, buf and text are reused by Add to put records and test cases
	// together.
	rec, buf, text []byte
}

type junitSuite struct {
	name, profile           string
	tests, failures, errors int
	spool                   *spool
	class                   []byte               // the suite's label, escaped
	heads                   map[[2]uint64]string // see [junitSuite.head]
}

// junitMessage bounds the message attribute; the element text has it all.
const junitMessage = 200

// suite returns the suite of m's metric and its number.
func (j *junitReport) suite(m *toolgrade.MetricResult) (*junitSuite, int, error) {
	for k, s := range j.suites {
		if s.name == m.Name && s.profile == m.Profile {
			return s, k, nil
		}
	}
	var sp *spool
	if len(j.suites) == 0 {
		if w, ok := j.w.(DirectWriter); ok {
			if f, ok := w.DirectFile(); ok {
				j.file, sp = f, spoolAt(f)
			}
		}
	}
	if sp == nil {
		var err error
		if sp, err = newSpool("toolgrade-junit-*.xml"); err != nil {
			return nil, 0, fmt.Errorf("junit: %w", err)
		}
	}
	s := &junitSuite{name: m.Name, profile: m.Profile, spool: sp, class: appendXML(nil, Label(m.Name, m.Profile))}
	j.suites = append(j.suites, s)
	return s, len(j.suites) - 1, nil
}

// A spool is text a report holds until Finish in a temporary file, written
// through a buffer, and read back by range. The file is nameless from the
// start where the system allows it (an open file stays readable), so that
// not even a kill leaves it behind; else close removes it.
type spool struct {
	f   *os.File       // nil when the spool is the start of an output
	at  io.ReaderAt    // f, or the output
	out countingWriter // to at
	w   *bufio.Writer  // to out
}

func newSpool(pattern string) (*spool, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	s := &spool{f: f, at: f, out: countingWriter{w: f}}
	s.w = bufio.NewWriterSize(&s.out, 64<<10)
	return s, nil
}

// spoolAt returns a spool written into f, which nothing was written to.
func spoolAt(f *os.File) *spool {
	s := &spool{at: f, out: countingWriter{w: f}}
	s.w = bufio.NewWriterSize(&s.out, 64<<10)
	return s
}

// size is the number of bytes written.
func (s *spool) size() int64 { return s.out.n + int64(s.w.Buffered()) }

// section returns the bytes [from, to) for reading, once what is
// buffered is written (its error, if that fails).
func (s *spool) section(from, to int64) (*io.SectionReader, error) {
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	return io.NewSectionReader(s.at, from, to-from), nil
}

// close closes and removes the file; nothing for a nil spool, or one in
// an output.
func (s *spool) close() {
	if s != nil && s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
	}
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (j *junitReport) Add(r *toolgrade.Result) error {
	// The trial is the result's index, else its place among the results
	// of its case, which Finish counts from the ids only if the run
	// repeated cases: counted here, it would keep every id for the run.
	if j.ids == nil {
		sp, err := newSpool("toolgrade-junit-ids-*")
		if err != nil {
			return fmt.Errorf("junit: %w", err)
		}
		j.ids = sp
	}
	j.rec = binary.AppendUvarint(j.rec[:0], uint64(len(r.ID)))
	j.rec = append(j.rec, r.ID...)
	j.rec = binary.AppendUvarint(j.rec, uint64(max(reliability.TrialIndex(r), 0)))
	j.n++
	for i := range r.Metrics {
		m := &r.Metrics[i]
		s, k, err := j.suite(m)
		if err != nil {
			return err
		}
		j.rec = binary.AppendUvarint(j.rec, uint64(k)+1)
		s.tests++
		// The test case is put together here and written at once.
		b := append(j.buf[:0], "    <testcase name=\""...)
		b = appendXML(b, r.ID)
		b = append(b, "\" classname=\""...)
		b = append(b, s.class...)
		switch {
		case m.Error != "":
			s.errors++
			b = append(b, "\">\n      <error type=\"error\" message=\""...)
			b = appendXML(b, clipRunes(firstLine(m.Error), junitMessage))
			b = append(b, "\">"...)
			b = appendXML(b, m.Error)
			b = append(b, "</error>\n    </testcase>\n"...)
		case !m.Verdict():
			s.failures++
			head := s.head(m.Score, *m.Threshold)
			b = append(b, "\">\n      <failure type=\"threshold\" message=\""...)
			b, j.text = appendFailure(b, j.text, head, m.Reason)
			if len(m.Details) > 0 { // there are none to list without
				for _, l := range metricDetails(m, r.Case) {
					b = append(b, "&#xA;"...)
					b = appendXML(b, l)
				}
			}
			b = append(b, "</failure>\n    </testcase>\n"...)
		default:
			b = append(b, "\"/>\n"...)
		}
		s.spool.w.Write(b) // an error stays in the buffer for Finish
		j.buf = b
	}
	j.rec = append(j.rec, 0)
	j.ids.w.Write(j.rec) // an error stays in the buffer for Finish
	return nil
}

// head is the start of a failure's text, "score S below threshold T",
// which is ASCII that XML escaping leaves as it is (numbers as strconv
// writes them). A metric's results fail at few distinct scores, so the
// texts are kept, up to junitHeads of them.
func (s *junitSuite) head(score, threshold float64) string {
	k := [2]uint64{math.Float64bits(score), math.Float64bits(threshold)} // -0 is not 0
	if h, ok := s.heads[k]; ok {
		return h
	}
	sc, th := scoreAgainst(score, threshold)
	h := "score " + sc + " below threshold " + th
	if s.heads == nil {
		s.heads = map[[2]uint64]string{}
	}
	if len(s.heads) < junitHeads {
		s.heads[k] = h
	}
	return h
}

// junitHeads bounds the failure heads a suite keeps.
const junitHeads = 1024

func (j *junitReport) Finish(st *Stats) error {
	defer func() {
		for _, s := range j.suites {
			s.spool.close()
		}
		j.ids.close()
	}()
	var trials [][]int
	if st.repeated() != nil {
		var err error
		if trials, err = j.trials(); err != nil {
			return fmt.Errorf("junit: %w", err)
		}
	}
	w, placed, err := j.placeFirst(st, trials)
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	if !placed {
		j.writeRoot(w, st)
	}
	for k, s := range j.suites {
		if k > 0 || !placed {
			j.writeSuiteHead(w, st, k)
			r, err := s.spool.section(0, s.spool.size())
			if err == nil {
				var t []int
				if trials != nil {
					t = trials[k]
				}
				err = copyBody(w, r, t)
			}
			if err != nil {
				return fmt.Errorf("junit: %w", err)
			}
		}
		w.WriteString("  </testsuite>\n")
	}
	if rel := st.Reliability(); rel != nil {
		writeJUnitReliability(w, rel)
	}
	w.WriteString("</testsuites>\n")
	return w.Flush()
}

// placeFirst returns the writer Finish writes the document with, and
// whether its start, up to the first suite's test cases, is in place.
// When those test cases went straight into the output, they stay there if
// the output still takes bytes as they are and no test case's name
// changes: they are moved up to make room for the start, which is
// written before them, and the writer goes on after them. Else they are
// moved out into a spool and the output emptied, for the writer to write
// the whole document through the output.
func (j *junitReport) placeFirst(st *Stats, trials [][]int) (w *bufio.Writer, placed bool, err error) {
	if j.file == nil {
		return bufio.NewWriterSize(j.w, 256<<10), false, nil
	}
	s := j.suites[0]
	if err := s.spool.w.Flush(); err != nil {
		return nil, false, err
	}
	n := s.spool.size()
	if _, ok := j.w.(DirectWriter).DirectFile(); ok && trials == nil {
		var head bytes.Buffer
		w := bufio.NewWriter(&head)
		j.writeRoot(w, st)
		j.writeSuiteHead(w, st, 0)
		w.Flush()
		err := moveUp(j.file, n, head.Bytes())
		return bufio.NewWriterSize(j.file, 256<<10), true, err
	}
	sp, err := newSpool("toolgrade-junit-*.xml")
	if err == nil {
		s.spool = sp
		_, err = io.Copy(sp.w, io.NewSectionReader(j.file, 0, n))
	}
	if err == nil {
		err = j.file.Truncate(0)
	}
	if err == nil {
		_, err = j.file.Seek(0, io.SeekStart)
	}
	return bufio.NewWriterSize(j.w, 256<<10), false, err
}

// moveUp moves the first n bytes of f up by len(head), from the end down
// so that every byte is read before it is written over, writes head
// before them, and leaves f's offset after them.
func moveUp(f *os.File, n int64, head []byte) error {
	d := int64(len(head))
	buf := make([]byte, min(n, 1<<20))
	for end := n; end > 0; {
		start := max(0, end-int64(len(buf)))
		b := buf[:end-start]
		_, err := f.ReadAt(b, start)
		if err == nil {
			_, err = f.Seek(start+d, io.SeekStart)
		}
		if err == nil {
			_, err = f.Write(b)
		}
		if err != nil {
			return err
		}
		end = start
	}
	_, err := f.Seek(0, io.SeekStart)
	if err == nil {
		_, err = f.Write(head)
	}
	if err == nil {
		_, err = f.Seek(d+n, io.SeekStart)
	}
	return err
}

// writeRoot writes the document's start: the XML declaration and the
// root's counts.
func (j *junitReport) writeRoot(w *bufio.Writer, st *Stats) {
	tests, failures, errs := 0, 0, 0
	for _, s := range j.suites {
		tests, failures, errs = tests+s.tests, failures+s.failures, errs+s.errors
	}
	if rel := st.Reliability(); rel != nil {
		tests += rel.Cases
		failures += rel.Cases - rel.Passed
	}
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"toolgrade\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n", tests, failures, errs)
}

// writeSuiteHead writes the start of suite k, up to its test cases: its
// counts and properties (the run's in the first suite's).
func (j *junitReport) writeSuiteHead(w *bufio.Writer, st *Stats, k int) {
	s := j.suites[k]
	w.WriteString("  <testsuite name=\"")
	writeXML(w, Label(s.name, s.profile))
	fmt.Fprintf(w, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\"", s.tests, s.failures, s.errors)
	if !st.Run.Started.IsZero() {
		w.WriteString(" timestamp=\"" + st.Run.Started.Format("2006-01-02T15:04:05") + "\"")
	}
	w.WriteString(">\n")
	var props []runField
	if k == 0 {
		props = st.Run.fields()
	}
	if t := st.thresholdText(s.name, s.profile); t != "-" {
		props = append(props, runField{"threshold", t})
	}
	for _, m := range st.Run.Metrics {
		if m.Label == Label(s.name, s.profile) {
			props = append(props, runField{"settings", m.Settings})
		}
	}
	writeProperties(w, props)
}

// trials reads the results' records back and returns, by suite, the
// trial of each of its test cases: the result's trial index, else its
// place among the results of its case (1 for the first).
func (j *junitReport) trials() ([][]int, error) {
	trials := make([][]int, len(j.suites))
	if j.n == 0 {
		return trials, nil
	}
	sec, err := j.ids.section(0, j.ids.size())
	if err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(sec, 64<<10)
	seen := map[string]int{}
	var id []byte
	for range j.n {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		id = slices.Grow(id[:0], int(n))[:n]
		if _, err := io.ReadFull(r, id); err != nil {
			return nil, err
		}
		index, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		seen[string(id)]++
		trial := int(index)
		if index == 0 {
			trial = seen[string(id)]
		}
		for {
			k, err := binary.ReadUvarint(r)
			if err != nil {
				return nil, err
			}
			if k == 0 {
				break
			}
			if k > uint64(len(trials)) {
				return nil, errRecords
			}
			trials[k-1] = append(trials[k-1], trial)
		}
	}
	return trials, nil
}

// copyBody copies a suite's test cases to w, each test case's name
// followed by " [trial N]" when trials, the suite's (see
// [junitReport.trials]), is not nil. A test case starts with the only
// '<' that "testcase name=\"" follows (text has its '<' escaped), and its
// name ends at the next '"'.
func copyBody(w *bufio.Writer, body io.Reader, trials []int) error {
	if trials == nil {
		_, err := io.Copy(w, body)
		return err
	}
	const start = "<testcase name=\""
	r := bufio.NewReaderSize(body, 64<<10)
	for k := 0; ; {
		err := copyTo(w, r, '<')
		if err == io.EOF && k == len(trials) {
			return nil
		}
		if err != nil {
			return errRecords
		}
		p, _ := r.Peek(len(start))
		if string(p) != start {
			w.Write(p[:1])
			r.Discard(1)
			continue
		}
		w.Write(p)
		r.Discard(len(p))
		if k == len(trials) || copyTo(w, r, '"') != nil {
			return errRecords
		}
		w.WriteString(" [trial " + strconv.Itoa(trials[k]) + "]")
		k++
	}
}

// errRecords says that the results' records and the test cases spooled
// disagree.
var errRecords = errors.New("the results' records and test cases disagree")

// copyTo copies r to w up to the next delim, which it leaves to be read.
func copyTo(w *bufio.Writer, r *bufio.Reader, delim byte) error {
	for {
		b, err := r.ReadSlice(delim)
		if err == nil {
			b = b[:len(b)-1]
			r.UnreadByte()
		}
		w.Write(b)
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// writeProperties writes a suite's <properties>, if any.
func writeProperties(w *bufio.Writer, props []runField) {
	if len(props) == 0 {
		return
	}
	w.WriteString("    <properties>\n")
	for _, p := range props {
		w.WriteString("      <property name=\"")
		writeXML(w, p.name)
		w.WriteString("\" value=\"")
		writeXML(w, p.value)
		w.WriteString("\"/>\n")
	}
	w.WriteString("    </properties>\n")
}

// failureMessage is the message of a failure whose text is head, ": "
// and reason (head alone without a reason): the start of its first line.
// The reason's first line is cut to one character more than the message
// holds before it is joined to head, so as not to copy it all; clipRunes
// reads no further.
func failureMessage(head, reason string) string {
	if reason == "" {
		return clipRunes(head, junitMessage)
	}
	return clipRunes(head+": "+firstRunes(firstLine(reason), junitMessage+1), junitMessage)
}

// appendFailure appends a failure's message attribute (its quotes and
// what comes before them being the caller's), '">' and the start of its
// text, head, ": " and reason, escaped, as
// appendXML(failureMessage(head, reason)) + "\">" + appendXML(text) is.
// The message is the start of the text, cut where a character starts, and
// maybe an ellipsis: the text is escaped once, in two pieces (escaping
// reads forward only, so the pieces are the whole's bytes), and the
// message copied from it. scratch is reused and returned. head is ASCII
// that escaping leaves as it is (see [junitSuite.head]).
func appendFailure(b, scratch []byte, head, reason string) ([]byte, []byte) {
	text := len(b)
	b = append(b, head...)
	if reason == "" {
		if len(head) > junitMessage {
			b = appendXML(b[:text], failureMessage(head, reason))
			b = append(b, "\">"...)
			return append(b, head...), scratch
		}
		b = append(b, "\">"...)
		return append(b, b[text:len(b)-2]...), scratch
	}
	b = append(b, ": "...)
	q, ellipsis, ok := messageEnd(head, reason)
	if !ok {
		b = appendXML(b, reason)
		scratch = append(scratch[:0], b[text:]...)
		b = appendXML(b[:text], failureMessage(head, reason))
		b = append(b, "\">"...)
		return append(b, scratch...), scratch
	}
	b = appendXML(b, reason[:q])
	end := len(b)
	b = appendXML(b, reason[q:])
	if q == len(reason) {
		b = append(b, "\">"...)
		return append(b, b[text:len(b)-2]...), scratch
	}
	scratch = append(scratch[:0], b[text:]...)
	b = b[:end]
	if ellipsis {
		b = append(b, "…"...)
	}
	b = append(b, "\">"...)
	return append(b, scratch...), scratch
}

// messageEnd returns how many bytes of reason the failure message of head
// (ASCII) and reason holds, and whether an ellipsis follows them (see
// [failureMessage]); not ok when head leaves the reason no room.
func messageEnd(head, reason string) (q int, ellipsis, ok bool) {
	k := junitMessage - len(head) - 2 // characters of the reason it holds
	if k < 1 {
		return 0, false, false
	}
	reason = firstLine(reason)
	switch {
	case len(reason) <= k: // no more characters than bytes
		return len(reason), false, true
	case asciiPrefix(reason, k): // more than k characters
		return k - 1, true, true
	}
	n := 0
	for pos := 0; pos < len(reason); {
		// Eight ASCII characters at once, short of the (k-1)th.
		if n+8 < k && len(reason)-pos >= 8 && ascii8(reason[pos:pos+8]) {
			n, pos = n+8, pos+8
			continue
		}
		if n == k-1 {
			q = pos
		}
		if n == k {
			return q, true, true
		}
		_, size := utf8.DecodeRuneInString(reason[pos:])
		pos += size
		n++
	}
	return len(reason), false, true
}

// ascii8 reports whether the eight bytes of w are ASCII (one load).
func ascii8(w string) bool {
	return (uint64(w[0])|uint64(w[1])<<8|uint64(w[2])<<16|uint64(w[3])<<24|
		uint64(w[4])<<32|uint64(w[5])<<40|uint64(w[6])<<48|uint64(w[7])<<56)&0x8080808080808080 == 0
}

// firstRunes is s cut after n characters (each invalid byte counting as
// one, as clipRunes counts them).
func firstRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if asciiPrefix(s, n) {
		return s[:n]
	}
	for pos := range s {
		if n == 0 {
			return s[:pos]
		}
		n--
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// writeXML writes s escaped as [appendXML] does. Write errors stay in w
// for Flush to report.
func writeXML(w *bufio.Writer, s string) {
	var buf [256]byte
	w.Write(appendXML(buf[:0], s))
}

// appendXML appends s escaped for XML text or a quoted attribute, line
// breaks and tabs as character references so that attributes keep them.
// Characters XML 1.0 cannot carry at all are written as visible escapes
// instead. It may write over up to eight bytes of dst's room beyond what
// it appends.
func appendXML(dst []byte, s string) []byte {
	for len(s) > 0 {
		// Printable ASCII other than the five escaped goes out as it is,
		// a run at a time: most of a report's text.
		n := 0
		for n < len(s) && plainXML[s[n]] {
			n++
		}
		dst = append(dst, s[:n]...)
		if n == len(s) {
			break
		}
		if c := s[n]; c < utf8.RuneSelf {
			// An escape is at most six bytes: stored as a word where
			// there is room.
			e, end := xmlEscapes[c], len(dst)
			if cap(dst)-end < 8 {
				dst = slices.Grow(dst, 8)
			}
			binary.LittleEndian.PutUint64(dst[end:end+8], e)
			dst = dst[:end+int(e>>56)]
			s = s[n+1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		dst = appendXMLRune(dst, s[n:], r)
		s = s[n+size:]
	}
	return dst
}

// xmlEscapes holds what appendXML writes for each ASCII byte, as a word:
// its bytes from the low one, and their number in the top byte.
var xmlEscapes = func() (t [utf8.RuneSelf]uint64) {
	for c := range t {
		var w [8]byte
		e := appendXMLRune(w[:0], string(rune(c)), rune(c))
		w[7] = byte(len(e))
		t[c] = binary.LittleEndian.Uint64(w[:])
	}
	return t
}()

// plainXML holds the bytes appendXML writes as they are.
var plainXML = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(`<>&"'`, rune(c))
	}
	return t
}()

// appendXMLRune appends r, the first character of s, as appendXML does.
func appendXMLRune(dst []byte, s string, r rune) []byte {
	switch {
	case r == '<':
		return append(dst, "&lt;"...)
	case r == '>':
		return append(dst, "&gt;"...)
	case r == '&':
		return append(dst, "&amp;"...)
	case r == '"':
		return append(dst, "&#34;"...)
	case r == '\'':
		return append(dst, "&#39;"...)
	case r == '\n':
		return append(dst, "&#xA;"...)
	case r == '\r':
		return append(dst, "&#xD;"...)
	case r == '\t':
		return append(dst, "&#x9;"...)
	case r == utf8.RuneError && !strings.HasPrefix(s, "\uFFFD"):
		return fmt.Appendf(dst, `\x%02x`, s[0]) // an invalid byte
	case !xmlChar(r):
		return fmt.Appendf(dst, `\u%04x`, r)
	default:
		return utf8.AppendRune(dst, r)
	}
}

// xmlChar reports whether XML 1.0 allows r (the Char production).
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// writeJUnitReliability adds a "reliability" suite: the suite's figures
// as properties, and a test case per case that fails when the case fails
// over its trials (a pass_k gate, or any failing trial without one).
func writeJUnitReliability(w *bufio.Writer, rel *reliability.Suite) {
	fmt.Fprintf(w, "  <testsuite name=\"reliability\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\">\n", rel.Cases, rel.Cases-rel.Passed)
	var props []runField
	prop := func(name, value string) { props = append(props, runField{name, value}) }
	prop("trials", strconv.Itoa(rel.Trials))
	prop("confidence", strconv.FormatFloat(rel.Confidence, 'g', -1, 64))
	for _, m := range rel.Metrics {
		l := Label(m.Name, m.Profile)
		prop(l+" pass rate", withInterval(m.PassRate, m.PassLo, m.PassHi, true))
		prop(l+" mean score", withInterval(m.Mean, m.MeanLo, m.MeanHi, false))
		for k := 1; k <= len(m.PassAtK); k++ {
			prop(l+" pass@"+strconv.Itoa(k), score(m.PassAtK[k-1]))
			prop(l+" pass^"+strconv.Itoa(k), score(m.PassHatK[k-1]))
		}
	}
	writeProperties(w, props)
	for _, c := range rel.PerCase {
		w.WriteString("    <testcase classname=\"reliability\" name=\"")
		writeXML(w, c.ID)
		w.WriteString("\">")
		if !c.Pass {
			var why []string
			for _, m := range c.Metrics {
				if m.Pass {
					continue
				}
				d := fmt.Sprintf("%s passed %d of %d trials", Label(m.Name, m.Profile), m.Passed, m.Trials)
				if m.Gate != nil {
					d += fmt.Sprintf(", pass^%d %s < %s", m.Gate.K, passHatText(m.PassHatK, m.Gate.K, m.Gate.Min), strconv.FormatFloat(m.Gate.Min, 'g', -1, 64))
				}
				why = append(why, d)
			}
			w.WriteString("\n      <failure message=\"")
			writeXML(w, fmt.Sprintf("%d of %d trials passed", c.Passed, c.Trials))
			w.WriteString("\">")
			writeXML(w, strings.Join(why, "\n")+"\ntrials: "+verdicts(&c))
			w.WriteString("</failure>\n    ")
		}
		w.WriteString("</testcase>\n")
	}
	w.WriteString("  </testsuite>\n")
}

// passHatText is pass^k, with the digits it takes to show it below min,
// or "n/a" when the case has fewer than k trials.
func passHatText(hat []float64, k int, min float64) string {
	if k > len(hat) {
		return "n/a (fewer than " + strconv.Itoa(k) + " trials)"
	}
	s, _ := scoreAgainst(hat[k-1], min)
	return s
}
