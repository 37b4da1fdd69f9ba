package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/toolgrade/toolgrade/reliability"
)

// WriteComparison writes a comparison of two runs for a terminal: a table
// of metrics (mean and pass rate in both runs and their change), the
// regressed and improved cases, the cases in one run only, and the
// verdict. With trials, the metrics' changes come with their intervals,
// then the significantly worse cases and the flaky ones of the new run.
func WriteComparison(w io.Writer, c *reliability.Comparison) error {
	var b strings.Builder
	if c.Trials() {
		writeTrialsComparison(&b, c)
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := newTable()
	tw.AppendHeader(table.Row{"metric", "base mean", "new mean", "Δ mean", "base pass", "new pass", "Δ pass", "status"})
	regressedMetrics := 0
	for _, m := range c.Metrics() {
		row := table.Row{terminal(m.Label), "-", "-", "", "-", "-", "", ""}
		if m.Base != nil {
			row[1], row[4] = mean(m.Base), passRate(m.Base)
		}
		if m.New != nil {
			row[2], row[5] = mean(m.New), passRate(m.New)
		}
		switch {
		case m.Base == nil:
			row[7] = "only in NEW"
		case m.New == nil:
			row[7] = "only in BASE"
		default:
			if m.Base.Count > 0 && m.New.Count > 0 {
				row[3] = signed(m.New.Score - m.Base.Score)
			}
			row[6] = signedPoints(m.PassDelta())
			if m.Regressed(c.Tolerance) {
				row[7] = "regressed"
				regressedMetrics++
			}
		}
		tw.AppendRow(row)
	}
	alignRight(tw, 2, 7)
	b.WriteString(tw.Render() + "\n")
	writeComparedOver(&b, c)

	list := func(title string, changes []reliability.CaseChange) {
		fmt.Fprintf(&b, "\n%s (%d)\n", title, len(changes))
		for _, ch := range changes {
			writeCaseChange(&b, ch)
		}
	}
	regressed := c.Regressed()
	list("regressed", regressed)
	list("improved", c.Improved())
	missing, missingMetrics := writeOnly(&b, c, c.OnlyBase(), c.OnlyNew())

	tol := strconv.FormatFloat(c.Tolerance, 'g', -1, 64)
	if len(regressed) > 0 || regressedMetrics > 0 || missing > 0 || missingMetrics > 0 {
		flips := 0
		for _, ch := range regressed {
			if ch.PassToFail {
				flips++
			}
		}
		fmt.Fprintf(&b, "\nREGRESSION beyond tolerance %s: %d %s fell (%d from pass to fail), %d %s fell, %d %s missing from NEW%s\n", tol,
			len(regressed), plural(len(regressed), "case score", "case scores"), flips,
			regressedMetrics, plural(regressedMetrics, "metric mean or pass rate", "metric means or pass rates"),
			missing, plural(missing, "case", "cases"), metricsMissingText(missingMetrics))
	} else {
		fmt.Fprintf(&b, "\nno regression beyond tolerance %s\n", tol)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// comparisonFlaky bounds the flaky cases a comparison lists.
const comparisonFlaky = 20

// writeTrialsComparison is WriteComparison for runs with trials.
func writeTrialsComparison(b *strings.Builder, c *reliability.Comparison) {
	f := c.Noise()
	fmt.Fprintf(b, "BASE: %s; NEW: %s\n", trialCounts(f.Base), trialCounts(f.New))
	fmt.Fprintf(b, "differences NEW − BASE paired over cases, with %s bootstrap intervals (cases and trials resampled, %d resamples, seed %d)\n\n",
		percent(f.Confidence), f.Resamples, f.Seed)
	tw := newTable()
	tw.AppendHeader(table.Row{"metric", "cases", "base mean", "new mean", "Δ mean [CI]", "base pass", "new pass", "Δ pass [CI]", "status"})
	regressedMetrics := 0
	for _, d := range f.Metrics {
		status := ""
		switch {
		case d.Cases == 0:
			status = "no common cases"
		case d.Regressed:
			status = "regressed"
			regressedMetrics++
		case d.DeltaLo > c.Tolerance || d.PassLo > c.Tolerance:
			status = "improved"
		default:
			status = "no significant change"
		}
		if d.Cases == 0 {
			tw.AppendRow(table.Row{terminal(d.Label), 0, "-", "-", "-", "-", "-", "-", status})
			continue
		}
		tw.AppendRow(table.Row{terminal(d.Label), d.Cases, score(d.Base), score(d.New),
			signed(d.Delta) + " " + interval(d.DeltaLo, d.DeltaHi, false),
			percent(d.BasePass), percent(d.NewPass),
			signedPoints(d.PassDelta) + " [" + signedPoints(d.PassLo) + ", " + signedPoints(d.PassHi) + "]", status})
	}
	alignRight(tw, 2, 8)
	b.WriteString(tw.Render() + "\n")
	writeThresholds(b, c)

	var worse []reliability.CaseDelta
	for _, d := range f.Cases {
		if d.Significant {
			worse = append(worse, d)
		}
	}
	regressedCases := 0
	fmt.Fprintf(b, "\nsignificantly worse cases (%d; one-sided Fisher exact test on passed trials, p < %s; \"regressed\" holds after Holm's correction over %d tests)\n",
		len(worse), strconv.FormatFloat(1-f.Confidence, 'g', 3, 64), f.Tests)
	for _, d := range worse {
		mark := ""
		if d.Regressed {
			mark = "  regressed"
			regressedCases++
		}
		fmt.Fprintf(b, "  %s  %s  passed %d/%d → %d/%d  mean %s → %s  p=%s%s\n", terminal(d.Case), terminal(d.Metric),
			d.BasePassed, d.BaseTrials, d.NewPassed, d.NewTrials, score(d.BaseMean), score(d.NewMean), strconv.FormatFloat(d.P, 'g', 3, 64), mark)
	}
	fmt.Fprintf(b, "\nflaky cases in NEW (%d; verdict differs between trials), most flips first\n", len(f.Flaky))
	for _, fc := range f.Flaky[:min(len(f.Flaky), comparisonFlaky)] {
		fmt.Fprintf(b, "  %s  %d/%d trials passed  flip rate %s\n", terminal(fc.ID), fc.Passed, fc.Trials, score(fc.FlipRate))
	}
	if len(f.Flaky) > comparisonFlaky {
		fmt.Fprintf(b, "  and %d more\n", len(f.Flaky)-comparisonFlaky)
	}
	missing, missingMetrics := writeOnly(b, c, f.OnlyBase, f.OnlyNew)
	level := percent(f.Confidence)
	if regressedMetrics > 0 || regressedCases > 0 || missing > 0 || missingMetrics > 0 {
		var names []string
		for _, d := range worse {
			if !slices.Contains(names, terminal(d.Case)) {
				names = append(names, terminal(d.Case))
			}
		}
		fmt.Fprintf(b, "\nREGRESSION significant at %s: %d %s fell, %d %s regressed, %d %s missing from NEW%s",
			level, regressedMetrics, plural(regressedMetrics, "metric", "metrics"), regressedCases, plural(regressedCases, "case", "cases"),
			missing, plural(missing, "case", "cases"), metricsMissingText(missingMetrics))
		if len(names) > 0 {
			fmt.Fprintf(b, "; worse cases: %s", strings.Join(names, ", "))
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(b, "\nno regression significant at %s (differences within the noise of the trials)\n", level)
	}
}

func trialCounts(t reliability.TrialCount) string {
	switch {
	case t.Cases == 0:
		return "no cases"
	case t.Min == t.Max:
		return fmt.Sprintf("%d cases × %d %s", t.Cases, t.Min, plural(t.Min, "trial", "trials"))
	}
	return fmt.Sprintf("%d cases × %d–%d trials", t.Cases, t.Min, t.Max)
}

// metricsMissingText is the verdict's note of the base's metrics missing
// from the new run, or "" for none.
func metricsMissingText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d %s missing from NEW", n, plural(n, "metric", "metrics"))
}

// writeOnly lists the cases, and the base's metrics, found in one run
// only and returns how many of the base's count as regressions (none
// with AllowMissing).
func writeOnly(b *strings.Builder, c *reliability.Comparison, onlyBase, onlyNew []string) (missing, missingMetrics int) {
	missingNote := ": regressions (--allow-missing accepts them)"
	if c.AllowMissing {
		missingNote = ""
	}
	missingMetricLabels := c.MissingMetrics()
	for _, only := range []struct {
		title, note string
		ids         []string
	}{{"only in BASE", missingNote, onlyBase}, {"only in NEW", "", onlyNew}, {"metrics only in BASE", missingNote, missingMetricLabels}} {
		if len(only.ids) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n%s (%d)%s\n", only.title, len(only.ids), only.note)
		for _, id := range only.ids {
			b.WriteString("  " + terminal(id) + "\n")
		}
	}
	if c.AllowMissing {
		return 0, 0
	}
	return len(onlyBase), len(missingMetricLabels)
}

// writeComparedOver says what the metrics' figures were taken over,
// when it is not every case of both runs with the same thresholds: the
// cases both runs have, and the thresholds that differ.
func writeComparedOver(b *strings.Builder, c *reliability.Comparison) {
	if c.Partial() {
		fmt.Fprintf(b, "means and pass rates over the %d %s both runs have; the cases in one run only are listed below\n",
			c.Common(), plural(c.Common(), "case", "cases"))
	}
	writeThresholds(b, c)
}

// writeThresholds names the metrics graded at other thresholds in NEW.
func writeThresholds(b *strings.Builder, c *reliability.Comparison) {
	for _, t := range c.Thresholds() {
		fmt.Fprintf(b, "%s was graded at threshold %s in BASE and %s in NEW (%d %s): a change of verdict there may be the threshold's, not the score's\n",
			terminal(t.Metric), thresholdText(t.Base), thresholdText(t.New), t.Cases, plural(t.Cases, "case", "cases"))
	}
}

// writeCaseChange writes a case's change on a metric: both scores, the
// change, and a change of verdict with the thresholds when they differ.
// A score that fails a threshold it rounds to is given the decimals that
// show it below.
func writeCaseChange(b *strings.Builder, ch reliability.CaseChange) {
	base, next := scoreOrError(ch.Base, ch.BaseErr), scoreOrError(ch.New, ch.NewErr)
	delta := ""
	if !ch.BaseErr && !ch.NewErr {
		delta = signed(ch.Delta())
		if ch.PassToFail && ch.NewThreshold != nil {
			next, _ = scoreAgainst(ch.New, *ch.NewThreshold)
			if d := len(next) - len(score(ch.New)); d > 0 { // the same decimals for all three
				base = strconv.FormatFloat(ch.Base, 'f', 3+d, 64)
				delta = strconv.FormatFloat(ch.Delta(), 'f', 3+d, 64)
				if ch.Delta() >= 0 {
					delta = "+" + delta
				}
			}
		}
	}
	fmt.Fprintf(b, "  %s  %s  %s → %s", terminal(ch.Case), terminal(ch.Metric), base, next)
	if delta != "" {
		fmt.Fprintf(b, "  (%s)", delta)
	}
	if ch.PassToFail {
		b.WriteString("  passed, now fails")
		if !ch.BaseErr && !ch.NewErr && !reliability.SameThreshold(ch.BaseThreshold, ch.NewThreshold) {
			fmt.Fprintf(b, " (threshold %s in BASE, %s in NEW)", thresholdText(ch.BaseThreshold), thresholdText(ch.NewThreshold))
		}
	}
	b.WriteString("\n")
}

// thresholdText is a threshold as configured, or "none".
func thresholdText(t *float64) string {
	if t == nil {
		return "none"
	}
	return strconv.FormatFloat(*t, 'g', -1, 64)
}

func signed(f float64) string {
	if f >= 0 {
		return "+" + score(f)
	}
	return score(f)
}

func signedPoints(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 1, 64)
	if f >= 0 {
		s = "+" + s
	}
	return s + " pts"
}

func scoreOrError(f float64, err bool) string {
	if err {
		return "error"
	}
	return score(f)
}
