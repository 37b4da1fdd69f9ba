package report

import (
	"bufio"
	"encoding/binary"
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
// an error, to close them. The run's metadata
// ([RunInfo]) goes into the first suite's properties.
// Characters XML 1.0 forbids (most control characters, invalid UTF-8) are
// written as visible escapes such as \u001b.
func JUnit(w io.Writer) Writer { return &junitReport{w: w} }

type junitReport struct {
	w      io.Writer
	suites []*junitSuite // in first-seen order
	// ids holds the id of every result, in order (see [junitReport.places]);
	// n counts them.
	ids *spool
	n   int
	// mark is the current result's trial mark (see trialMark).
	mark []byte
	// buf and text are reused by Add to put test cases together.
	buf, text []byte
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

func (j *junitReport) suite(m *toolgrade.MetricResult) (*junitSuite, error) {
	for _, s := range j.suites {
		if s.name == m.Name && s.profile == m.Profile {
			return s, nil
		}
	}
	sp, err := newSpool("toolgrade-junit-*.xml")
	if err != nil {
		return nil, fmt.Errorf("junit: %w", err)
	}
	s := &junitSuite{name: m.Name, profile: m.Profile, spool: sp, class: appendXML(nil, Label(m.Name, m.Profile))}
	j.suites = append(j.suites, s)
	return s, nil
}

// A spool is text a report holds until Finish in a temporary file, written
// through a buffer, and read back by range. The file is nameless from the
// start where the system allows it (an open file stays readable), so that
// not even a kill leaves it behind; else close removes it.
type spool struct {
	f   *os.File
	out countingWriter // to f
	w   *bufio.Writer  // to out
}

func newSpool(pattern string) (*spool, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	s := &spool{f: f, out: countingWriter{w: f}}
	s.w = bufio.NewWriterSize(&s.out, 64<<10)
	return s, nil
}

// size is the number of bytes written.
func (s *spool) size() int64 { return s.out.n + int64(s.w.Buffered()) }

// section returns the bytes [from, to) for reading, once what is
// buffered is written (its error, if that fails).
func (s *spool) section(from, to int64) (*io.SectionReader, error) {
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	return io.NewSectionReader(s.f, from, to-from), nil
}

// close closes and removes the file; nothing for a nil spool.
func (s *spool) close() {
	if s != nil {
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

// trialMark ends a test case's name in a suite's spool: NUL, the
// result's number in the run, a space, its trial index (0 when it has
// none), NUL. XML text has no NUL (writeXML escapes it), so Finish finds
// each and writes it as " [trial N]", or as nothing when no case repeated.
const trialMark = 0

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
	j.mark = binary.AppendUvarint(j.mark[:0], uint64(len(r.ID)))
	j.ids.w.Write(j.mark)
	j.ids.w.WriteString(r.ID) // an error stays in the buffer for Finish
	j.mark = strconv.AppendInt(append(strconv.AppendInt(append(j.mark[:0], trialMark), int64(j.n), 10), ' '), int64(max(reliability.TrialIndex(r), 0)), 10)
	j.mark = append(j.mark, trialMark)
	j.n++
	for i := range r.Metrics {
		m := &r.Metrics[i]
		s, err := j.suite(m)
		if err != nil {
			return err
		}
		s.tests++
		// The test case is put together here and written at once.
		b := append(j.buf[:0], "    <testcase name=\""...)
		b = appendXML(b, r.ID)
		b = append(b, j.mark...)
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
			for _, l := range metricDetails(m, r.Case) {
				b = append(b, "&#xA;"...)
				b = appendXML(b, l)
			}
			b = append(b, "</failure>\n    </testcase>\n"...)
		default:
			b = append(b, "\"/>\n"...)
		}
		s.spool.w.Write(b) // an error stays in the buffer for Finish
		j.buf = b
	}
	return nil
}

// head is the start of a failure's text, "score S below threshold T".
// A metric's results fail at few distinct scores, so the texts are kept,
// up to junitHeads of them.
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
	tests, failures, errs := 0, 0, 0
	for _, s := range j.suites {
		tests, failures, errs = tests+s.tests, failures+s.failures, errs+s.errors
	}
	rel := st.Reliability()
	if rel != nil {
		tests += rel.Cases
		failures += rel.Cases - rel.Passed
	}
	var places []int32
	if st.repeated() != nil {
		var err error
		if places, err = j.places(); err != nil {
			return fmt.Errorf("junit: %w", err)
		}
	}
	w := bufio.NewWriterSize(j.w, 256<<10)
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"toolgrade\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n", tests, failures, errs)
	for k, s := range j.suites {
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
		r, err := s.spool.section(0, s.spool.size())
		if err == nil {
			err = copySpool(w, r, places)
		}
		if err != nil {
			return fmt.Errorf("junit: %w", err)
		}
		w.WriteString("  </testsuite>\n")
	}
	if rel != nil {
		writeJUnitReliability(w, rel)
	}
	w.WriteString("</testsuites>\n")
	return w.Flush()
}

// places reads the ids back and returns each result's place among the
// results of its case (1 for the first), by the result's number.
func (j *junitReport) places() ([]int32, error) {
	places := make([]int32, j.n)
	if j.n == 0 {
		return places, nil
	}
	sec, err := j.ids.section(0, j.ids.size())
	if err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(sec, 64<<10)
	seen := map[string]int32{}
	var id []byte
	for i := range places {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		id = slices.Grow(id[:0], int(n))[:n]
		if _, err := io.ReadFull(r, id); err != nil {
			return nil, err
		}
		seen[string(id)]++
		places[i] = seen[string(id)]
	}
	return places, nil
}

// copySpool copies a suite's spool to w, each test case's trial mark
// written as " [trial N]" when the run repeated cases (places, by result,
// is then set; see [junitReport.places]), else left out.
func copySpool(w *bufio.Writer, spool io.Reader, places []int32) error {
	r := bufio.NewReaderSize(spool, 64<<10)
	for {
		chunk, err := r.ReadSlice(trialMark)
		if err == bufio.ErrBufferFull {
			w.Write(chunk)
			continue
		}
		if err == io.EOF {
			_, err = w.Write(chunk)
			return err
		}
		if err != nil {
			return err
		}
		w.Write(chunk[:len(chunk)-1])
		m, err := r.ReadSlice(trialMark)
		if err != nil {
			return fmt.Errorf("a trial mark is cut short: %w", err)
		}
		if places == nil {
			continue
		}
		num, index, _ := strings.Cut(string(m[:len(m)-1]), " ")
		i, err := strconv.Atoi(num)
		if err != nil || i < 0 || i >= len(places) {
			return fmt.Errorf("a trial mark %q names no result", m)
		}
		trial := strconv.Itoa(int(places[i]))
		if index != "0" {
			trial = index
		}
		w.WriteString(" [trial " + trial + "]")
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
// message copied from it. scratch is reused and returned.
func appendFailure(b, scratch []byte, head, reason string) ([]byte, []byte) {
	text := len(b)
	b = appendXML(b, head)
	if reason == "" {
		if len(head) > junitMessage {
			b = appendXML(b[:text], failureMessage(head, reason))
			b = append(b, "\">"...)
			return appendXML(b, head), scratch
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
// and reason holds, and whether an ellipsis follows them (see
// [failureMessage]); not ok when head is not ASCII or leaves the reason
// no room.
func messageEnd(head, reason string) (q int, ellipsis, ok bool) {
	k := junitMessage - len(head) - 2 // characters of the reason it holds
	if k < 1 || !asciiPrefix(head, len(head)) {
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
	for pos := range reason {
		if n == k-1 {
			q = pos
		}
		if n == k {
			return q, true, true
		}
		n++
	}
	return len(reason), false, true
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
// instead.
func appendXML(dst []byte, s string) []byte {
	for len(s) > 0 {
		// Printable ASCII other than the five escaped goes out as it is,
		// a run at a time: most of a report's text.
		n := 0
		for n < len(s) && plainXML[s[n]] {
			n++
		}
		if n > 0 {
			dst = append(dst, s[:n]...)
			s = s[n:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s)
		dst = appendXMLRune(dst, s, r)
		s = s[size:]
	}
	return dst
}

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
