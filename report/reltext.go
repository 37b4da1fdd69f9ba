package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/toolgrade/toolgrade/reliability"
)

// textFlaky is how many flaky cases the terminal summary lists.
const textFlaky = 10

// percent formats a rate as a percentage with one decimal.
func percent(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return strconv.FormatFloat(100*f, 'f', 1, 64) + "%"
}

// interval formats [lo, hi] as "[a, b]", or "" when unknown.
func interval(lo, hi float64, pct bool) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	if pct {
		return "[" + percent(lo) + ", " + percent(hi) + "]"
	}
	return "[" + score(lo) + ", " + score(hi) + "]"
}

func withInterval(v, lo, hi float64, pct bool) string {
	s := "-"
	if !math.IsNaN(v) {
		if pct {
			s = percent(v)
		} else {
			s = score(v)
		}
	}
	if iv := interval(lo, hi, pct); iv != "" {
		s += " " + iv
	}
	return s
}

// trialsText describes the trials per case: "5 trials per case" or "3–5".
func trialsText(rel *reliability.Suite) string {
	if rel.MinTrials == rel.MaxTrials {
		return fmt.Sprintf("%d %s per case", rel.MinTrials, plural(rel.MinTrials, "trial", "trials"))
	}
	return fmt.Sprintf("%d–%d trials per case", rel.MinTrials, rel.MaxTrials)
}

// reliabilityHeadline is the verdict over cases, with the method.
func reliabilityHeadline(rel *reliability.Suite) string {
	return fmt.Sprintf("reliability: %d %s × %s (%d trials): %d %s passed, %d flaky; %s intervals: Wilson for pass rates, Student's t for mean scores",
		rel.Cases, plural(rel.Cases, "case", "cases"), trialsText(rel), rel.Trials, rel.Passed, plural(rel.Passed, "case", "cases"),
		len(rel.Flaky), percent(rel.Confidence))
}

// verdicts draws a case's trials as ✓ and ✗, in the order they came.
func verdicts(c *reliability.Case) string {
	var b strings.Builder
	for _, v := range c.Verdicts {
		if v {
			b.WriteString("✓")
		} else {
			b.WriteString("✗")
		}
	}
	return b.String()
}

// gateText describes a metric's pass_k gate.
func gateText(g *reliability.PassK) string {
	if g == nil {
		return ""
	}
	return fmt.Sprintf("pass^%d ≥ %s", g.K, strconv.FormatFloat(g.Min, 'g', -1, 64))
}

// writeReliabilityText writes the reliability section of the terminal
// summary.
func writeReliabilityText(b *strings.Builder, rel *reliability.Suite) {
	b.WriteString("\n" + reliabilityHeadline(rel) + "\n")
	if len(rel.Metrics) > 0 {
		tw := newTable()
		tw.AppendHeader(table.Row{"metric", "cases", "trials", "pass rate", "mean score", "flaky", "gate"})
		for _, m := range rel.Metrics {
			gate := gateText(m.Gate)
			if gate != "" {
				gate += fmt.Sprintf(": %d failed", m.GateFailed)
			}
			tw.AppendRow(table.Row{terminal(Label(m.Name, m.Profile)), m.Cases, m.Trials,
				withInterval(m.PassRate, m.PassLo, m.PassHi, true), withInterval(m.Mean, m.MeanLo, m.MeanHi, false), m.Flaky, gate})
		}
		alignRight(tw, 2, 6)
		b.WriteString("\n" + tw.Render() + "\n")

		if rel.MinTrials > 0 {
			kt := newTable()
			head := table.Row{"k"}
			for _, m := range rel.Metrics {
				l := terminal(Label(m.Name, m.Profile))
				head = append(head, l+" pass@k", l+" pass^k")
			}
			kt.AppendHeader(head)
			for k := 1; k <= rel.MinTrials; k++ {
				row := table.Row{k}
				for _, m := range rel.Metrics {
					row = append(row, percent(m.PassAtK[k-1]), percent(m.PassHatK[k-1]))
				}
				kt.AppendRow(row)
			}
			kt.SetCaption("pass@k: some of k trials passes; pass^k: all k trials pass (unbiased estimates, mean over cases)")
			alignRight(kt, 1, 1+2*len(rel.Metrics))
			b.WriteString("\n" + kt.Render() + "\n")
		}
	}
	if len(rel.Flaky) > 0 {
		b.WriteString("\nflaky cases (verdict differs between trials), most flips first:\n")
		for _, c := range rel.Flaky[:min(len(rel.Flaky), textFlaky)] {
			fmt.Fprintf(b, "  %s  %d/%d passed  flip rate %s  %s\n", terminal(c.ID), c.Passed, c.Trials, score(c.FlipRate), verdicts(&c))
		}
		if n := len(rel.Flaky) - textFlaky; n > 0 {
			fmt.Fprintf(b, "  and %d more flaky\n", n)
		}
	}
	short := 0
	for _, m := range rel.Metrics {
		if m.Gate != nil && rel.MinTrials < m.Gate.K {
			short++
		}
	}
	if short > 0 {
		fmt.Fprintf(b, "\nsome cases have fewer trials than a pass_k gate's k and fail it: run more trials (toolgrade run --trials N) or give more results per case id\n")
	}
}

// markdownFlaky bounds the flaky cases listed in Markdown.
const markdownFlaky = 50

// writeReliabilityMarkdown writes the reliability section of the
// Markdown report.
func writeReliabilityMarkdown(b *strings.Builder, rel *reliability.Suite) {
	b.WriteString("\n#### Reliability over trials\n\n")
	b.WriteString(mdText(reliabilityHeadline(rel)) + ".\n\n")
	b.WriteString("| metric | cases | trials | pass rate | mean score | flaky | gate |\n| :-- | --: | --: | --: | --: | --: | :-- |\n")
	for _, m := range rel.Metrics {
		gate := gateText(m.Gate)
		if gate != "" {
			gate += fmt.Sprintf(": %d failed", m.GateFailed)
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %d | %s |\n", mdText(Label(m.Name, m.Profile)), m.Cases, m.Trials,
			withInterval(m.PassRate, m.PassLo, m.PassHi, true), withInterval(m.Mean, m.MeanLo, m.MeanHi, false), m.Flaky, mdText(gate))
	}
	if rel.MinTrials > 0 && len(rel.Metrics) > 0 {
		b.WriteString("\n| k |")
		sep := "| --: |"
		for _, m := range rel.Metrics {
			l := mdText(Label(m.Name, m.Profile))
			fmt.Fprintf(b, " %s pass@k | %s pass^k |", l, l)
			sep += " --: | --: |"
		}
		b.WriteString("\n" + sep + "\n")
		for k := 1; k <= rel.MinTrials; k++ {
			fmt.Fprintf(b, "| %d |", k)
			for _, m := range rel.Metrics {
				fmt.Fprintf(b, " %s | %s |", percent(m.PassAtK[k-1]), percent(m.PassHatK[k-1]))
			}
			b.WriteString("\n")
		}
		b.WriteString("\npass@k: the chance that at least one of k trials passes; pass^k: that all k pass (unbiased estimates, mean over cases).\n")
	}
	if len(rel.Flaky) > 0 {
		fmt.Fprintf(b, "\n**Flaky cases** (%d; verdict differs between trials), most flips first:\n\n", len(rel.Flaky))
		for _, c := range rel.Flaky[:min(len(rel.Flaky), markdownFlaky)] {
			fmt.Fprintf(b, "- %s: %d/%d passed, flip rate %s, %s\n", mdText(c.ID), c.Passed, c.Trials, score(c.FlipRate), verdicts(&c))
		}
		if n := len(rel.Flaky) - markdownFlaky; n > 0 {
			fmt.Fprintf(b, "\nAnd %d more flaky cases.\n", n)
		}
	}
}
