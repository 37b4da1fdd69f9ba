package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// HTML returns a Writer of one self-contained HTML page: the metric and
// tool tables, a histogram of scores per metric, a bar per tool (matched,
// wrong arguments, missed, extra), and a table of cases that filters by
// text and by verdict, where each case opens to show its expected and
// called calls side by side, as its metrics paired them, with the
// arguments that differ highlighted, and, for a case graded on its
// trajectory, a timeline: its turns with their scores, its calls in order
// with their status (failed, retried), pairing, data-flow links, broken
// process rules and invented values, and the differences of its end
// state.
//
// The page loads nothing: CSS, script and SVG charts are inline, and its
// Content-Security-Policy forbids fetching anything. Data lands only in
// the text of an element or a double-quoted attribute value, escaped
// there; never in a URL, a style or the script, which reads the page's
// own DOM. The filter is also read from the URL fragment:
// report.html#status=fail&q=weather.
//
// The histograms count every case. The table of cases holds every failing
// case and the first passing ones, up to limits that keep the page small
// enough for a browser (and the writer's memory bounded); the page says
// how many it left out. Each case kept is written out as its row of the
// table when it comes (argument values shortened), to a nameless
// temporary file until Finish: held in memory, the rows of a long run
// would be marked again by every collection of the garbage collector, or,
// as text, make it collect more often. Call Finish, even after an error,
// to close it.
func HTML(w io.Writer) Writer { return &htmlReport{w: w} }

// Limits on what the page keeps and shows of the data.
const (
	htmlValue   = 300  // characters of one argument value
	htmlReason  = 4000 // characters of a reason
	htmlSummary = 200  // characters of the reason in a case's row
	htmlTools   = 30   // tools charted

	htmlFailing = 5000 // failing cases listed
	htmlPassing = 1000 // passing cases listed
)

type htmlReport struct {
	w io.Writer
	// rows is the text of the kept cases' rows; where each shows its
	// trial, if the run repeats cases, only Finish knows.
	rows               *rowSpool // nil until a case is kept
	failing, passing   int       // cases listed
	omitFail, omitPass int       // cases left out of the table
	scores             []scoreBins
	trials             trialSamples // htmltrials.go
	samples            *spool       // the trial samples' encodings; nil until one is kept
	scratch            []byte
}

// scoreBins counts one metric's scores in ten bins of width 0.1 (1 falls
// in the last).
type scoreBins struct {
	label  string
	counts [10]int
}

func (h *htmlReport) count(label string, score float64) {
	i := slices.IndexFunc(h.scores, func(b scoreBins) bool { return b.label == label })
	if i < 0 {
		h.scores = append(h.scores, scoreBins{label: label})
		i = len(h.scores) - 1
	}
	h.scores[i].counts[min(max(int(score*10), 0), 9)]++
}

type htmlCase struct {
	ID, Where string
	Trial     int    // the result's trial: its index, or its place among the case's results; 0 if not known
	Status    string // "pass", "fail" or "error"
	Error     string // the record could not be read
	Summary   string // the reason shown in the case's row
	Metrics   []htmlMetric
	Sides     []htmlSide
	Timeline  *htmlTimeline // nil when there is no trajectory to show
}

type htmlMetric struct {
	Label  string
	Text   string // the score as shown: "0.750", "error"
	Status string // "pass", "fail", "error" or "none" (no verdict)
	Reason string
}

// An htmlSide is one metric's pairing of a case's calls.
type htmlSide struct {
	Label string // empty when no metric paired the calls
	Rows  []htmlRow
}

type htmlRow struct {
	Class            string // "match", "partial", "missing", "extra" or ""
	Expected, Called *htmlCall
	Score            string
	Diffs            []htmlDiff
}

type htmlCall struct {
	Name  string
	Lines []htmlLine
}

type htmlLine struct {
	Text string
	Diff bool
}

type htmlDiff struct{ Path, Expected, Got, Note string }

func (h *htmlReport) Add(r *toolgrade.Result) error {
	trial, err := h.noteTrial(r)
	if err != nil {
		return err
	}
	for i := range r.Metrics {
		if m := &r.Metrics[i]; m.Error == "" {
			h.count(Label(m.Name, m.Profile), m.Score)
		}
	}
	switch {
	case r.Success && h.passing >= htmlPassing:
		h.omitPass++
		return nil
	case !r.Success && h.failing >= htmlFailing:
		h.omitFail++
		return nil
	case r.Success:
		h.passing++
	default:
		h.failing++
	}
	c := htmlCase{ID: r.ID, Trial: trial, Status: "pass", Error: clip(r.Error, htmlReason)}
	if r.Case != nil && r.Case.Source != "" {
		c.Where = r.Case.Source
		if r.Case.Line > 0 {
			c.Where += ":" + strconv.Itoa(r.Case.Line)
		}
	}
	for i := range r.Metrics {
		m := &r.Metrics[i]
		hm := htmlMetric{Label: Label(m.Name, m.Profile), Text: score(m.Score), Status: "pass", Reason: clip(m.Reason, htmlReason)}
		switch {
		case m.Error != "":
			hm.Text, hm.Status, hm.Reason = "error", "error", clip(m.Error, htmlReason)
			c.Status = "error"
		case m.Threshold == nil:
			hm.Status = "none"
		case !m.Success:
			hm.Status = "fail"
			hm.Text, _ = scoreAgainst(m.Score, *m.Threshold)
			if c.Status == "pass" {
				c.Status = "fail"
			}
		}
		if r.Error != "" {
			hm.Reason = "" // the case's error says it once
		}
		c.Metrics = append(c.Metrics, hm)
	}
	// The row shows the first reason for a failure, else the first reason.
	for _, failing := range []bool{true, false} {
		for _, hm := range c.Metrics {
			if c.Summary == "" && hm.Reason != "" && (!failing || hm.Status == "fail" || hm.Status == "error") {
				c.Summary = clipRunes(hm.Reason, htmlSummary)
			}
		}
	}
	if r.Error != "" {
		c.Status, c.Summary = "error", clipRunes(c.Error, htmlSummary)
	}
	t := trajectoryOf(r)
	if r.Case != nil {
		c.Sides = sides(r, t.failed)
	}
	if r.Error == "" {
		c.Timeline = timeline(r, &t)
	}
	return h.writeRow(&c)
}

// A rowTrial is where a row of the table shows its case's trial (an
// offset in the rows' text), and the trial; 0 when not known.
type rowTrial struct{ at, trial int64 }

// rowSpool holds the rows of the kept cases, written, until Finish, and
// where each shows its trial if the run turns out to repeat cases.
type rowSpool struct {
	*spool
	page    pageWriter // to the spool
	trialAt []rowTrial
}

// writeRow writes a kept case's row to the rows' spool, noting where its
// trial goes.
func (h *htmlReport) writeRow(c *htmlCase) error {
	if h.rows == nil {
		sp, err := newSpool("toolgrade-html-*")
		if err != nil {
			return fmt.Errorf("html: %w", err)
		}
		h.rows = &rowSpool{spool: sp, page: pageWriter{w: sp.w}}
	}
	r := h.rows
	r.page.caseID(c)
	r.trialAt = append(r.trialAt, rowTrial{at: r.size(), trial: int64(c.Trial)})
	r.page.caseRest(c)
	return nil
}

// writeRows copies the rows to w, each with its trial when trials is set.
func (r *rowSpool) writeRows(w *pageWriter, trials bool) error {
	if r == nil {
		return nil
	}
	copyTo := func(to int64, from *int64) error {
		sec, err := r.section(*from, to)
		if err == nil {
			_, err = w.w.ReadFrom(sec)
		}
		*from = to
		return err
	}
	var from int64
	for _, t := range r.trialAt {
		if trials && t.trial > 0 {
			if err := copyTo(t.at, &from); err != nil {
				return err
			}
			w.put(` <small>trial %d</small>`, int(t.trial))
		}
	}
	return copyTo(r.size(), &from)
}

// sides lays out a case's calls side by side for each metric that paired
// them, or by position when none did; failed lists the calls that failed.
func sides(r *toolgrade.Result, failed []int) []htmlSide {
	exp, got := r.Case.Expected, r.Case.Called
	if len(exp) == 0 && len(got) == 0 {
		return nil
	}
	var out []htmlSide
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if !pairs(m) {
			continue
		}
		side := htmlSide{Label: Label(m.Name, m.Profile)}
		type keyed struct {
			at  int
			row htmlRow
		}
		var rows []keyed
		for _, p := range m.Matches {
			if p.Expected >= len(exp) || p.Called >= len(got) || p.Expected < 0 || p.Called < 0 {
				continue
			}
			row := htmlRow{Class: "match", Score: score(p.Score)}
			if p.Score < 1 {
				row.Class = "partial"
			}
			for _, d := range p.Diffs {
				hd := htmlDiff{Path: d.Path, Note: d.Note}
				if d.Note != "unexpected" {
					hd.Expected = value(d.Expected, htmlValue)
				}
				if d.Note != "missing" {
					hd.Got = value(d.Got, htmlValue)
				}
				row.Diffs = append(row.Diffs, hd)
			}
			keys := diffKeys(row.Diffs)
			row.Expected, row.Called = callView(&exp[p.Expected], keys), callView(&got[p.Called], keys)
			rows = append(rows, keyed{p.Expected, row})
		}
		// A missing call sits beside the unpaired call of the same tool
		// that stood in for it, if any, with the arguments that differ
		// marked: a call with wrong arguments, or a failed call, as the
		// tool table counts it (see [standIns]).
		stands, missing, extra := standIns(m, r.Case, nil, nil, nil)
		for _, p := range stands {
			row := htmlRow{Class: "wrong", Score: score(0)}
			if _, ok := slices.BinarySearch(failed, p.called); ok {
				row.Class = "failed"
			}
			row.Diffs = argDiffs(&exp[p.expected], &got[p.called])
			keys := diffKeys(row.Diffs)
			row.Expected, row.Called = callView(&exp[p.expected], keys), callView(&got[p.called], keys)
			rows = append(rows, keyed{p.expected, row})
		}
		for _, i := range missing {
			rows = append(rows, keyed{i, htmlRow{Class: "missing", Score: score(0), Expected: callView(&exp[i], nil)}})
		}
		sorting.Stable(rows, func(a, b keyed) int { return a.at - b.at })
		for _, k := range rows {
			side.Rows = append(side.Rows, k.row)
		}
		for _, j := range extra {
			side.Rows = append(side.Rows, htmlRow{Class: "extra", Called: callView(&got[j], nil)})
		}
		out = append(out, side)
	}
	if out == nil {
		side := htmlSide{}
		for i := range max(len(exp), len(got)) {
			var row htmlRow
			if i < len(exp) {
				row.Expected = callView(&exp[i], nil)
			}
			if i < len(got) {
				row.Called = callView(&got[i], nil)
			}
			side.Rows = append(side.Rows, row)
		}
		out = append(out, side)
	}
	return out
}

// argDiffs compares two calls' arguments key by key (values by meaning,
// as [jsonvalue.Equal] does), for calls a metric left unpaired and so
// did not compare itself.
func argDiffs(e, c *toolgrade.Call) []htmlDiff {
	eo, eok := e.Args.(jsonvalue.Object)
	co, cok := c.Args.(jsonvalue.Object)
	if !eok || !cok {
		if c.Invalid || e.Invalid || !jsonvalue.Equal(e.Args, c.Args) {
			return []htmlDiff{{Path: "args", Expected: argText(e), Got: argText(c)}}
		}
		return nil
	}
	var diffs []htmlDiff
	for _, m := range eo {
		got, ok := co.Get(m.Key)
		switch {
		case !ok:
			diffs = append(diffs, htmlDiff{Path: m.Key, Expected: value(m.Value, htmlValue), Note: "missing"})
		case !jsonvalue.Equal(m.Value, got):
			diffs = append(diffs, htmlDiff{Path: m.Key, Expected: value(m.Value, htmlValue), Got: value(got, htmlValue)})
		}
	}
	for _, m := range co {
		if !eo.Has(m.Key) {
			diffs = append(diffs, htmlDiff{Path: m.Key, Got: value(m.Value, htmlValue), Note: "unexpected"})
		}
	}
	return diffs
}

func argText(c *toolgrade.Call) string {
	if c.Invalid {
		return clipRunes(c.ArgsRaw, htmlValue)
	}
	return value(c.Args, htmlValue)
}

// diffKeys returns the top-level argument names (or "output") that the
// differences touch; "*" when they concern the arguments as a whole.
func diffKeys(diffs []htmlDiff) map[string]bool {
	if len(diffs) == 0 {
		return nil
	}
	keys := map[string]bool{}
	for _, d := range diffs {
		k := d.Path
		if i := strings.IndexAny(k, ".["); i >= 0 {
			k = k[:i]
		}
		if k == "" || k == "args" {
			k = "*"
		}
		keys[k] = true
	}
	return keys
}

// callView shows a call as its name and one line per argument (or the
// arguments as one value when they are not an object), then its output;
// lines whose key is in diff are marked.
func callView(c *toolgrade.Call, diff map[string]bool) *htmlCall {
	v := &htmlCall{Name: c.Name}
	all := diff["*"]
	switch args := c.Args.(type) {
	case jsonvalue.Object:
		for _, m := range args {
			v.Lines = append(v.Lines, htmlLine{Text: m.Key + ": " + value(m.Value, htmlValue), Diff: all || diff[m.Key]})
		}
	case nil:
		if c.Invalid {
			v.Lines = append(v.Lines, htmlLine{Text: "invalid JSON: " + clipRunes(c.ArgsRaw, htmlValue), Diff: true})
		}
	default:
		v.Lines = append(v.Lines, htmlLine{Text: value(args, htmlValue), Diff: all || len(diff) > 0})
	}
	if c.Output != nil {
		v.Lines = append(v.Lines, htmlLine{Text: "→ output: " + value(c.Output, htmlValue), Diff: diff["output"]})
	}
	return v
}

// value writes a value as compact JSON, shortened to n characters.
func value(v any, n int) string {
	return clipRunes(string(jsonvalue.Append(nil, v)), n)
}

func (h *htmlReport) Finish(s *Stats) error {
	if h.rows != nil {
		defer h.rows.close()
	}
	defer h.samples.close()
	tools, by := s.Tools()
	page := htmlPage{
		Run:        s.Run.fields(),
		Settings:   s.Run.Metrics,
		Trials:     s.repeated() != nil,
		Headline:   headline(s),
		Usage:      usageLine(s.Usage),
		Failed:     !s.CasePassed(),
		Trajectory: s.traj.lines(),
		Tools:      tools,
		ToolsBy:    by,
		Chart:      toolChart(tools),
		Rows:       h.rows,
		OmitFail:   h.omitFail,
		OmitPass:   h.omitPass,
		MaxFailing: htmlFailing,
		MaxPassing: htmlPassing,
	}
	var err error
	if page.Rel, err = h.reliability(s.Reliability()); err != nil {
		return err
	}
	for _, m := range s.Metrics {
		p, r, f := prf(&m)
		page.Metrics = append(page.Metrics, htmlMetricRow{
			Label: Label(m.Name, m.Profile), Threshold: s.thresholdText(m.Name, m.Profile),
			Cases: m.Count + m.Errors, Mean: mean(&m), PassRate: passRate(&m),
			Precision: p, Recall: r, F1: f, Errors: m.Errors,
		})
	}
	unit := "cases"
	if page.Trials {
		unit = "trials"
	}
	for _, m := range s.Metrics {
		page.Histograms = append(page.Histograms, h.histogram(Label(m.Name, m.Profile), m.Errors, unit))
	}
	return writePage(h.w, &page)
}

type htmlPage struct {
	Run             []runField  // when and how the run was made
	Settings        []RunMetric // the metrics as configured
	Trials          bool        // the run repeated cases
	Headline, Usage string
	Failed          bool
	Trajectory      []summaryLine // failed calls, broken rules, ... of the run
	Metrics         []htmlMetricRow
	Histograms      []htmlHistogram
	Tools           []ToolCounts
	ToolsBy         string
	Chart           htmlChart
	// Rows are the rows of the table of cases, written; nil without any.
	Rows *rowSpool
	// Cases left out of the table (counted everywhere else), and the
	// limits that left them out.
	OmitFail, OmitPass     int
	MaxFailing, MaxPassing int
	// Rel is the reliability section; nil without repeated trials.
	Rel *htmlReliability
}

type htmlMetricRow struct {
	Label, Threshold, Mean, PassRate, Precision, Recall, F1 string
	Cases, Errors                                           int
}

// An htmlHistogram is the SVG histogram of one metric's scores in ten
// bins of width 0.1 (1 falls in the last), with its axes: the scores
// below, at the bins' edges, and the count of results to the left.
type htmlHistogram struct {
	Label  string
	Errors int
	Unit   string // what a bar counts: "cases" or "trials"
	Top    int    // the count a full bar stands for
	Bars   []htmlBar
	Ticks  []htmlTick
}

type htmlBar struct {
	X, Y, W, H float64
	Count      int
	Label      string
}

// An htmlTick is a label on the score axis.
type htmlTick struct {
	X    float64
	Text string
}

// Histogram geometry, in SVG units: the plot's top, height and left
// edge, each bar's width and the gap between bars, and the figure's
// width and height.
const (
	histTop, histHeight, histLeft, histBar, histGap = 16.0, 110.0, 40.0, 30.0, 4.0
	histWidth, histFull                             = histLeft + 10*(histBar+histGap) + 12, histTop + histHeight + 40
)

func (h *htmlReport) histogram(label string, errors int, unit string) htmlHistogram {
	var counts [10]int
	if i := slices.IndexFunc(h.scores, func(b scoreBins) bool { return b.label == label }); i >= 0 {
		counts = h.scores[i].counts
	}
	top := max(slices.Max(counts[:]), 1)
	hist := htmlHistogram{Label: label, Errors: errors, Unit: unit, Top: top}
	for i, n := range counts {
		bh := histHeight * float64(n) / float64(top)
		hist.Bars = append(hist.Bars, htmlBar{
			X: histLeft + histGap/2 + float64(i)*(histBar+histGap), Y: histTop + histHeight - bh, W: histBar, H: bh,
			Count: n, Label: strconv.FormatFloat(float64(i)/10, 'f', 1, 64) + "–" + strconv.FormatFloat(float64(i+1)/10, 'f', 1, 64),
		})
	}
	for i := 0; i <= 10; i++ {
		text := strconv.FormatFloat(float64(i)/10, 'f', 1, 64)
		hist.Ticks = append(hist.Ticks, htmlTick{X: histLeft + float64(i)*(histBar+histGap), Text: text})
	}
	return hist
}

// htmlChart is the SVG bar chart of tools: per tool one bar of its
// expected calls split into matched, wrong arguments, failed and missed,
// followed by its extra calls.
type htmlChart struct {
	Height float64
	Rows   []htmlChartRow
}

type htmlChartRow struct {
	Y        float64
	Name     string
	Segments []htmlSegment
	Text     string
	TextX    float64
}

type htmlSegment struct {
	Class string
	X, W  float64
	Title string
}

// Tool chart geometry, in SVG units.
const (
	chartLabel, chartWidth, chartRow = 180.0, 360.0, 20.0
)

func toolChart(tools []ToolCounts) htmlChart {
	tools = tools[:min(len(tools), htmlTools)]
	top := 1
	for _, t := range tools {
		top = max(top, t.Expected+t.Extra)
	}
	unit := chartWidth / float64(top)
	var c htmlChart
	for i, t := range tools {
		row := htmlChartRow{Y: float64(i) * chartRow, Name: clipRunes(t.Name, 28)}
		x := chartLabel
		matched := max(t.Expected-t.Missed-t.WrongArgs-t.Failed, 0)
		for _, part := range []struct {
			class, what string
			n           int
		}{{"ok", "matched", matched}, {"wrong", "wrong arguments", t.WrongArgs}, {"failed", "failed", t.Failed}, {"missed", "missed", t.Missed}, {"extra", "extra", t.Extra}} {
			if part.n == 0 {
				continue
			}
			w := unit * float64(part.n)
			row.Segments = append(row.Segments, htmlSegment{Class: part.class, X: x, W: w,
				Title: t.Name + ": " + strconv.Itoa(part.n) + " " + part.what})
			x += w
		}
		row.TextX = x + 6
		row.Text = strconv.Itoa(t.Expected) + " expected, " + strconv.Itoa(t.Called) + " called"
		c.Rows = append(c.Rows, row)
	}
	c.Height = float64(len(c.Rows)) * chartRow
	return c
}
