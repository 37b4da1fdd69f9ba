// Package toolgradetest grades cases inside go test: a failing metric fails
// the test, with its score, threshold and reason in the message.
//
//	func TestAgent(t *testing.T) {
//		m, err := match.New(match.Options{Threshold: toolgrade.Float(0.8)})
//		if err != nil {
//			t.Fatal(err)
//		}
//		toolgradetest.CheckFile(t, "testdata/cases.jsonl", m)
//	}
//
// A metric passes when it has no error and, if it has a threshold, its
// score reaches it; metrics without a threshold only score and never fail.
//
// Non-goals: running the agent under test (the test gives the calls it
// made) and reporting beyond go test's own output.
package toolgradetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
)

// Check grades c with every metric and reports each metric that failed or
// erred with t.Errorf, so the test goes on and every failure is shown. It
// returns the result for further checks.
func Check(t testing.TB, c *toolgrade.Case, metrics ...toolgrade.Metric) toolgrade.Result {
	t.Helper()
	r := toolgrade.Grade(t.Context(), c, metrics...)
	if msg := Failures(&r); msg != "" {
		t.Errorf("%s", msg)
	}
	return r
}

// CheckFile grades every case of a file (JSON Lines, JSON or YAML) in a
// subtest of its own, named by the case id, as [Check] does. A case that
// cannot be read for metrics (see dataset.DecodeCaseFor) fails its
// subtest; a file that cannot be read at all fails t. Failures are
// reported at the line of the test that called CheckFile.
func CheckFile(t *testing.T, path string, metrics ...toolgrade.Metric) {
	t.Helper()
	// The cases are read before the subtests start: go test reports a
	// failure at the first caller not marked as a helper, and a loop's
	// body over an iterator is a function of its own, called by the
	// iterator's.
	type read struct {
		c   *toolgrade.Case
		err error
	}
	var cases []read
	var fileErr error
	for rec, err := range dataset.RecordsFor(metrics, dataset.File(path)) {
		if err != nil {
			fileErr = err
			break
		}
		c, err := rec.Decode()
		cases = append(cases, read{c, err})
	}
	if fileErr != nil {
		t.Fatalf("toolgradetest: %v", fileErr)
	}
	for _, r := range cases {
		name := "case"
		if r.c != nil && r.c.ID != "" {
			name = r.c.ID
		}
		t.Run(name, func(t *testing.T) {
			t.Helper()
			if r.err != nil {
				t.Fatalf("cannot read the case: %v", r.err) // the error names file and line
			}
			Check(t, r.c, metrics...)
		})
	}
}

// Failures describes what failed in a result, one line per failing
// metric with its score, threshold and reason; it is empty when every
// metric passed. A case read from a file is named with its file and line
// ("testdata/cases.jsonl:3: case weather: ..."), and a metric that follows
// a peer's profile with the profile ("tool_correctness (deepeval)"), so
// that two profiles of the same metric are told apart.
func Failures(r *toolgrade.Result) string {
	var b strings.Builder
	where := "case " + r.ID
	if c := r.Case; c != nil && c.Source != "" {
		where = fmt.Sprintf("%s:%d: %s", c.Source, c.Line, where)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "%s: %s", where, r.Error)
		return b.String()
	}
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if m.Verdict() {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		name := m.Name
		if m.Profile != "" && m.Profile != "default" {
			name += " (" + m.Profile + ")"
		}
		if m.Error != "" {
			fmt.Fprintf(&b, "%s: %s erred: %s", where, name, m.Error)
			continue
		}
		fmt.Fprintf(&b, "%s: %s scored %.4g, below its threshold %.4g", where, name, m.Score, *m.Threshold)
		if m.Reason != "" {
			b.WriteString(": " + m.Reason)
		}
	}
	return b.String()
}
