package report_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/report"
)

// trajectoryFixture reads testdata/trajectory.jsonl, results of
// tool_correctness (failed and retried calls, turns, data flows),
// tool_process (rules), state_match and grounding (differences), and,
// when withCases is set, joins each to its case in
// testdata/trajectory_cases.jsonl, as a live run has them.
func trajectoryFixture(t *testing.T, withCases bool) []*toolgrade.Result {
	t.Helper()
	cases := map[string]*toolgrade.Case{}
	if withCases {
		f, err := os.Open("testdata/trajectory_cases.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for rec, err := range dataset.Reader("cases.jsonl", f, dataset.JSONL) {
			if err != nil {
				t.Fatal(err)
			}
			c, err := rec.Decode()
			if err != nil {
				t.Fatal(err)
			}
			cases[c.ID] = c
		}
	}
	data, err := os.ReadFile("testdata/trajectory.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []*toolgrade.Result
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		r, err := toolgrade.ParseResult(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if withCases {
			if r.Case = cases[r.ID]; r.Case == nil {
				t.Fatalf("no case %q in trajectory_cases.jsonl", r.ID)
			}
		}
		out = append(out, &r)
	}
	return out
}

func TestTrajectoryGolden(t *testing.T) {
	results := trajectoryFixture(t, true)
	for _, tt := range []struct {
		file string
		make func(w *bytes.Buffer) report.Writer
	}{
		{"trajectory.txt", func(w *bytes.Buffer) report.Writer { return report.Text(w) }},
		{"trajectory.md", func(w *bytes.Buffer) report.Writer { return report.Markdown(w) }},
		{"trajectory.xml", func(w *bytes.Buffer) report.Writer { return report.JUnit(w) }},
		{"trajectory.html", func(w *bytes.Buffer) report.Writer { return report.HTML(w) }},
	} {
		t.Run(tt.file, func(t *testing.T) {
			golden(t, tt.file, render(t, results, tt.make))
		})
	}
}

// TestTrajectoryResultsFile: the fixture is the result contract as
// written, so that it reads back, and writes, byte for byte.
func TestTrajectoryResultsFile(t *testing.T) {
	want, err := os.ReadFile("testdata/trajectory.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, trajectoryFixture(t, false), func(w *bytes.Buffer) report.Writer { return report.JSONL(w) })
	if string(got) != string(want) {
		t.Errorf("trajectory.jsonl does not write back as itself:\n%s", got)
	}
}

// TestTrajectoryJUnitSchema validates the JUnit output of the trajectory
// fixture against testdata/junit.xsd (see TestJUnitSchema).
func TestTrajectoryJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils)")
	}
	p := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(p, junit(t, trajectoryFixture(t, true)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), p).CombinedOutput(); err != nil {
		t.Errorf("JUnit output does not validate: %v\n%s", err, out)
	}
}

// TestTrajectoryWithoutCases: results read back from JSON, without their
// cases, still show their trajectory, calls known by index.
func TestTrajectoryWithoutCases(t *testing.T) {
	results := trajectoryFixture(t, false)
	page := string(render(t, results, func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
	for _, want := range []string{
		`<li class="tl-turn tl-fail"><b>turn 2</b> <span class="status-fail">0.333 ✗</span></li>`,
		`<code class="tl-index">#0</code>`, `badge-retried`,
		`data flow item_ids.0 ← #0 get_order_details.output.items[0].item_id ✗`,
		`ungrounded #1 issue_refund.amount: 145.5`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	text := string(render(t, results, func(w *bytes.Buffer) report.Writer { return report.Text(w) }))
	for _, want := range []string{"failed calls: 2 in 2 cases (1 retried)", "trajectory: failed #2; turn 2 scored 0.333"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}

// TestTrajectoryHTMLElements: the timeline adds no element beyond those
// TestHTMLSelfContained allows, and the page still loads nothing.
func TestTrajectoryHTMLElements(t *testing.T) {
	page := string(render(t, trajectoryFixture(t, true), func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
	allowed := strings.Fields(`html head meta title style body header h1 h2 p strong br section table thead tbody
		tr th td div figure svg g rect text figcaption span input select option code small details summary pre b ul li script`)
	for _, m := range tagRE.FindAllStringSubmatch(page, -1) {
		if !slices.Contains(allowed, m[1]) {
			t.Errorf("unexpected element <%s> in the page", m[1])
		}
	}
	if n := strings.Count(page, `<div class="timeline">`); n != 4 {
		t.Errorf("%d timelines, want one per case", n)
	}
	for _, bad := range []string{"url(", "@import", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}
