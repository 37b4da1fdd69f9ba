package report_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/report"
	"pgregory.net/rapid"
)

func junit(t fataler, results []*toolgrade.Result) []byte {
	return render(t, results, func(w *bytes.Buffer) report.Writer { return report.JUnit(w) })
}

// TestJUnitSchema validates the JUnit output against testdata/junit.xsd,
// the common (Jenkins/Ant) JUnit schema, with xmllint (Debian's
// libxml2-utils; .ci/run installs it). It skips when xmllint is absent;
// TestJUnitStructure checks the same rules in Go everywhere.
func TestJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils)")
	}
	dir := t.TempDir()
	validate := func(doc []byte) (string, error) {
		p := filepath.Join(dir, "junit.xml")
		if err := os.WriteFile(p, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), p).CombinedOutput()
		return string(out), err
	}
	if out, err := validate(junit(t, fixture(t))); err != nil {
		t.Errorf("JUnit output does not validate: %v\n%s", err, out)
	}
	// The schema has teeth: a test case without a name is rejected.
	if _, err := validate([]byte(`<testsuites><testsuite name="s" tests="1"><testcase/></testsuite></testsuites>`)); err == nil {
		t.Error("xmllint accepted a test case without a name")
	}
}

// The JUnit document as the schema shapes it.
type junitDoc struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    string       `xml:"tests,attr"`
	Failures string       `xml:"failures,attr"`
	Errors   string       `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     *string     `xml:"name,attr"`
	Tests    *string     `xml:"tests,attr"`
	Failures string      `xml:"failures,attr"`
	Errors   string      `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      *string        `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	Failures  []junitProblem `xml:"failure"`
	Errors    []junitProblem `xml:"error"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func parseJUnit(t fataler, doc []byte) junitDoc {
	t.Helper()
	var d junitDoc
	if err := xml.Unmarshal(doc, &d); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, doc)
	}
	return d
}

// TestJUnitStructure checks the schema's required attributes and that the
// counts agree with the test cases: one per case and metric.
func TestJUnitStructure(t *testing.T) {
	results := fixture(t)
	d := parseJUnit(t, junit(t, results))
	total, failures, errs := 0, 0, 0
	for _, s := range d.Suites {
		if s.Name == nil || s.Tests == nil {
			t.Fatalf("suite without name or tests: %+v", s)
		}
		f, e := 0, 0
		for _, c := range s.Cases {
			if c.Name == nil {
				t.Errorf("suite %s: test case without a name", *s.Name)
			}
			f += len(c.Failures)
			e += len(c.Errors)
			for _, p := range append(c.Failures, c.Errors...) {
				if p.Message == "" || p.Text == "" {
					t.Errorf("%s/%s: failure or error without message or text", *s.Name, *c.Name)
				}
			}
		}
		if *s.Tests != strconv.Itoa(len(s.Cases)) || s.Failures != strconv.Itoa(f) || s.Errors != strconv.Itoa(e) {
			t.Errorf("suite %s counts tests=%s failures=%s errors=%s, has %d, %d, %d", *s.Name, *s.Tests, s.Failures, s.Errors, len(s.Cases), f, e)
		}
		total, failures, errs = total+len(s.Cases), failures+f, errs+e
	}
	if want := len(results) * 2; total != want {
		t.Errorf("%d test cases, want %d (one per case and metric)", total, want)
	}
	if d.Tests != strconv.Itoa(total) || d.Failures != strconv.Itoa(failures) || d.Errors != strconv.Itoa(errs) {
		t.Errorf("root counts tests=%s failures=%s errors=%s, want %d, %d, %d", d.Tests, d.Failures, d.Errors, total, failures, errs)
	}
	flight := d.Suites[0].Cases[1]
	if *flight.Name != "flight-partial" || len(flight.Failures) != 1 || !strings.Contains(flight.Failures[0].Text, `date expected "2025-01-02"`) {
		t.Errorf("the failing case does not carry its reason: %+v", flight)
	}
}

// xmlAllowed reports whether XML 1.0 can carry r.
func xmlAllowed(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// TestJUnitAnyText: whatever the ids and reasons hold, the document is
// well-formed, text XML can carry comes back unchanged, and the rest comes
// back as visible escapes.
func TestJUnitAnyText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		id := rapid.String().Draw(t, "id")
		reason := string(rapid.SliceOf(rapid.Byte()).Draw(t, "reason")) // invalid UTF-8 too
		r := &toolgrade.Result{ID: id, Metrics: []toolgrade.MetricResult{{Name: "m", Threshold: toolgrade.Float(1), Reason: reason}}}
		d := parseJUnit(t, junit(t, []*toolgrade.Result{r}))
		c := d.Suites[0].Cases[0]
		clean := true
		for _, r := range id {
			clean = clean && xmlAllowed(r)
		}
		if clean && *c.Name != id {
			t.Fatalf("name %q reads back as %q", id, *c.Name)
		}
		for _, s := range []string{*c.Name, c.Failures[0].Text} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 written: %q", s)
			}
			for _, r := range s {
				if !xmlAllowed(r) {
					t.Fatalf("character %U written", r)
				}
			}
		}
	})
}

// TestJUnitTrialNames: when ids repeat, each test case is named by its
// result's trial: the index the case gives, else its place among the
// results of its id, counting results without metrics (which have no test
// case); when none repeats, names are the ids alone.
func TestJUnitTrialNames(t *testing.T) {
	result := func(id string, trial int, metrics bool) *toolgrade.Result {
		r := &toolgrade.Result{ID: id, Success: true, Case: &toolgrade.Case{ID: id, Trial: trial}}
		if !metrics {
			r.Success, r.Error = false, "unreadable"
			return r
		}
		r.Metrics = []toolgrade.MetricResult{{Name: "tool_correctness", Score: 1, Threshold: toolgrade.Float(0.5), Success: true}}
		return r
	}
	names := func(results []*toolgrade.Result) []string {
		var out []string
		for _, c := range parseJUnit(t, junit(t, results)).Suites[0].Cases {
			out = append(out, *c.Name)
		}
		return out
	}
	repeated := []*toolgrade.Result{result("a", 0, true), result("b", 0, true), result("a", 0, false), result("a", 0, true),
		result("b", 7, true), result("c", 0, true), result("a", 0, true)}
	want := []string{"a [trial 1]", "b [trial 1]", "a [trial 3]", "b [trial 7]", "c [trial 1]", "a [trial 4]"}
	if got := names(repeated); !slices.Equal(got, want) {
		t.Errorf("with repeated ids, names %q, want %q", got, want)
	}
	once := []*toolgrade.Result{result("a", 0, true), result("b", 2, true), result("c", 0, false)}
	if got, want := names(once), []string{"a", "b"}; !slices.Equal(got, want) {
		t.Errorf("without repeated ids, names %q, want %q", got, want)
	}
}

// fileOutput is an output file that JUnit may write at any offset while
// direct says so (asked with the number of times it was asked before).
// Once it says no, Write drops every '~' on its way, as a writer
// scrubbing secrets changes text.
type fileOutput struct {
	*os.File
	direct   func(asked int) bool
	asked    int
	changing bool
}

func (f *fileOutput) DirectFile() (*os.File, bool) {
	f.asked++
	if !f.direct(f.asked - 1) {
		f.changing = true
		return nil, false
	}
	return f.File, true
}

func (f *fileOutput) Write(p []byte) (int, error) {
	if f.changing {
		if _, err := f.File.Write(bytes.ReplaceAll(p, []byte("~"), nil)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return f.File.Write(p)
}

// junitToFile renders results as JUnit into a file that JUnit may write
// at any offset while direct says so, and returns the file's bytes and
// whether the output came to change what it writes.
func junitToFile(t fataler, results []*toolgrade.Result, direct func(int) bool) ([]byte, bool) {
	t.Helper()
	f, err := os.CreateTemp("", "toolgrade-junit-test-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	out := &fileOutput{File: f, direct: direct}
	render(t, results, func(*bytes.Buffer) report.Writer { return report.JUnit(out) })
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return b, out.changing
}

// TestJUnitInPlace: a JUnit report written into a file that can be
// written at any offset, its first suite's test cases straight into the
// file, is the report written as a stream, byte for byte: when the test
// cases are moved up to make room for the document's start, when they
// are moved out again because the file can no longer be written directly
// at the end (a secret came, and the writer changes what it writes) or
// the trials' names change them, and when the file could not be written
// directly from the start. Results come
// with one to three metrics, errors, failures and passes, repeated ids
// with and without trial indexes, and text that looks like a test case.
func TestJUnitInPlace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ids := rapid.SampledFrom([]string{"a", "b", "c", `q"<testcase name="x"`, "é\xff", strings.Repeat("long-", 30)})
		texts := rapid.SampledFrom([]string{"", "short", `missing f({"a":1}) (expected #0)`, `<testcase name="fake">`, "two\nlines", "\x01\xff", strings.Repeat("é", 210), strings.Repeat("~", 500)})
		metrics := []toolgrade.MetricResult{{Name: "tool_correctness"}, {Name: "tool_correctness", Profile: "strict"}, {Name: "argument_correctness"}}
		var results []*toolgrade.Result
		for range rapid.IntRange(0, 40).Draw(t, "results") {
			id := ids.Draw(t, "id")
			r := &toolgrade.Result{ID: id, Success: true, Case: &toolgrade.Case{ID: id, Trial: rapid.SampledFrom([]int{0, 0, 0, 2, 7}).Draw(t, "trial")}}
			if rapid.IntRange(0, 9).Draw(t, "unread") == 0 {
				r.Success, r.Error = false, "unreadable"
				results = append(results, r)
				continue
			}
			for _, k := range rapid.Permutation([]int{0, 1, 2}).Draw(t, "metrics")[:rapid.IntRange(1, 3).Draw(t, "n")] {
				m := metrics[k]
				m.Threshold = toolgrade.Float(rapid.SampledFrom([]float64{0.5, 1}).Draw(t, "threshold"))
				m.Score = rapid.SampledFrom([]float64{0, 0.5, 2.0 / 3, 1}).Draw(t, "score")
				m.Success = m.Score >= *m.Threshold
				m.Reason = texts.Draw(t, "reason")
				if rapid.IntRange(0, 5).Draw(t, "error") == 0 {
					m.Error = texts.Draw(t, "error text") + "!"
				}
				r.Metrics = append(r.Metrics, m)
			}
			results = append(results, r)
		}
		checkJUnitInPlace(t, results)
	})
	// A report that the output's change makes shorter than the test cases
	// it held.
	var results []*toolgrade.Result
	for i := range 5 {
		results = append(results, &toolgrade.Result{ID: strconv.Itoa(i), Metrics: []toolgrade.MetricResult{{Name: "m", Threshold: toolgrade.Float(1), Reason: strings.Repeat("~", 500)}}})
	}
	checkJUnitInPlace(t, results)
}

// checkJUnitInPlace checks that results' JUnit report is the same in a
// file as in a stream (see TestJUnitInPlace).
func checkJUnitInPlace(t fataler, results []*toolgrade.Result) {
	t.Helper()
	stream := junit(t, results)
	for name, direct := range map[string]func(int) bool{
		"direct":          func(int) bool { return true },
		"direct at first": func(asked int) bool { return asked == 0 },
		"never direct":    func(int) bool { return false },
	} {
		got, changing := junitToFile(t, results, direct)
		want := stream
		if changing {
			want = bytes.ReplaceAll(stream, []byte("~"), nil)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the report in the file differs from the stream's:\n%s\nwant:\n%s", name, got, want)
		}
	}
}
