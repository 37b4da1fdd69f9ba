package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/escape"
)

// markdownTools bounds the tool table; GitHub caps a step summary at 1 MiB.
const markdownTools = 50

// Markdown returns a Writer that writes the run's summary as GitHub
// Markdown at Finish, sized for $GITHUB_STEP_SUMMARY: a headline, a list
// of failed calls, broken process rules and broken data flows when there
// were any, a table per metric, a table per tool, and the failing cases
// worst first (as many as [Stats] kept), each a collapsed <details> block
// with its reasons and a line summing up its trajectory.
//
// Text from the data is escaped for Markdown and HTML, so an id or a tool
// name cannot add links, markup or table columns.
func Markdown(w io.Writer) Writer { return &markdownReport{w: w} }

// A markdownReport writes everything from [Stats] at Finish.
type markdownReport struct{ w io.Writer }

func (md *markdownReport) Add(*toolgrade.Result) error { return nil }

func (md *markdownReport) Finish(s *Stats) error {
	var b strings.Builder
	mark := "✅"
	if !s.CasePassed() { // as the exit status: by case, over trials and gates
		mark = "❌"
	}
	cases, passed := s.Verdicts()
	fmt.Fprintf(&b, "### %s toolgrade: %d of %d %s passed\n\n", mark, passed, cases, plural(cases, "case", "cases"))
	fmt.Fprintf(&b, "%s.\n", headline(s))
	writeRunMarkdown(&b, &s.Run)
	if u := usageLine(s.Usage); u != "" {
		fmt.Fprintf(&b, "\n%s.\n", u)
	}
	if l := warningsLine(s); l != "" {
		fmt.Fprintf(&b, "\n⚠️ %s.\n", mdText(l))
	}
	if ls := s.traj.lines(); len(ls) > 0 {
		b.WriteString("\n")
		for _, l := range ls {
			items := make([]string, len(l.items))
			for i, it := range l.items {
				items[i] = mdText(it)
			}
			fmt.Fprintf(&b, "- %s: %s\n", mdText(l.lead), strings.Join(items, ", "))
		}
	}

	if len(s.Metrics) > 0 {
		b.WriteString("\n| metric | profile | threshold | cases | mean | pass rate | precision | recall | f1 | errors |\n")
		b.WriteString("| :-- | :-- | --: | --: | --: | --: | --: | --: | --: | --: |\n")
		for _, m := range s.Metrics {
			p, r, f := prf(&m)
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %d |\n",
				mdText(m.Name), mdText(m.Profile), s.thresholdText(m.Name, m.Profile), m.Count+m.Errors, mean(&m), passRate(&m), p, r, f, m.Errors)
		}
	}

	if rel := s.Reliability(); rel != nil {
		writeReliabilityMarkdown(&b, rel)
	}
	if tools, by := s.Tools(); len(tools) > 0 {
		b.WriteString("\n#### Tools\n\n")
		if by != "" {
			fmt.Fprintf(&b, "Missed, extra, wrong arguments and failed calls as paired by %s.\n\n", mdText(by))
		}
		if by != "" {
			b.WriteString("| tool | expected | called | missed | extra | wrong args | failed |\n")
			b.WriteString("| :-- | --: | --: | --: | --: | --: | --: |\n")
		} else { // without a metric that pairs calls, only the counts mean anything
			b.WriteString("| tool | expected | called |\n")
			b.WriteString("| :-- | --: | --: |\n")
		}
		for _, t := range tools[:min(len(tools), markdownTools)] {
			if by != "" {
				fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", mdText(t.Name), t.Expected, t.Called, t.Missed, t.Extra, t.WrongArgs, t.Failed)
			} else {
				fmt.Fprintf(&b, "| %s | %d | %d |\n", mdText(t.Name), t.Expected, t.Called)
			}
		}
		if n := len(tools) - markdownTools; n > 0 {
			fmt.Fprintf(&b, "\nAnd %d more tools.\n", n)
		}
	}

	if fs := s.Failures(); len(fs) > 0 {
		failing := failingCases(s)
		b.WriteString("\n#### Failing cases\n\n")
		if len(fs) < failing {
			fmt.Fprintf(&b, "The %d worst of %d, worst first.\n\n", len(fs), failing)
		} else {
			b.WriteString("Worst first.\n\n")
		}
		// One HTML block: no blank lines inside, newlines written as &#10;.
		for _, f := range fs {
			rows := failureRows(&f)
			b.WriteString("<details><summary><code>" + htmlText(f.ID) + "</code>")
			if w := where(&f); w != "" {
				b.WriteString(" (" + htmlText(w) + ")")
			}
			lead := " — "
			if l := trialsLine(&f); l != "" {
				lead = " — " + htmlText(l) + "; worst trial: "
			}
			for i, r := range rows {
				sep := lead
				if i > 0 {
					sep = "; "
				}
				b.WriteString(sep + htmlText(r.metric) + " " + htmlText(r.score))
			}
			b.WriteString("</summary><pre>")
			for i, r := range rows {
				if i > 0 {
					b.WriteString("&#10;")
				}
				b.WriteString(htmlText(r.metric + ": " + r.reason))
			}
			if f.trajectory != "" {
				b.WriteString("&#10;" + htmlText("trajectory: "+f.trajectory))
			}
			b.WriteString("</pre></details>\n")
		}
	}
	_, err := io.WriteString(md.w, b.String())
	return err
}

// writeRunMarkdown says when and how the run was made, if known: the date
// and version in a collapsed block's summary, the command line, config
// and metrics' settings inside it.
func writeRunMarkdown(b *strings.Builder, ri *RunInfo) {
	fields := ri.fields()
	if len(fields) == 0 && len(ri.Metrics) == 0 {
		return
	}
	var head, body []string
	for _, f := range fields {
		switch f.name {
		case "date", "toolgrade":
			head = append(head, htmlText(f.name+" "+f.value))
		default:
			body = append(body, htmlText(f.name+": "+f.value))
		}
	}
	for _, m := range ri.Metrics {
		body = append(body, htmlText("metric "+m.Label+": "+m.Settings))
	}
	b.WriteString("\n<details><summary>Run")
	if len(head) > 0 {
		b.WriteString(": " + strings.Join(head, ", "))
	}
	b.WriteString("</summary><pre>" + strings.Join(body, "&#10;") + "</pre></details>\n")
}

// mdText escapes data for a Markdown table cell or line: HTML specials as
// entities, Markdown punctuation with a backslash, control characters as
// escapes.
func mdText(s string) string { return escape.Markdown(printable(s, false)) }

// htmlText escapes data for raw HTML in Markdown, keeping line breaks as
// character references so that the HTML block never ends early.
func htmlText(s string) string { return htmlEscaper.Replace(printable(s, true)) }

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\n", "&#10;", "\t", "&#9;")
