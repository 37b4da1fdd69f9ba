package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
	"github.com/toolgrade/toolgrade"
)

// Limits of the terminal summary, which is read at a glance.
const (
	textWorst  = 5   // worst cases shown
	textTools  = 20  // tools shown
	textReason = 160 // characters of a reason shown
)

// Text returns a Writer that prints the run's summary at Finish: the
// headline counts, a line each for failed calls, broken process rules and
// broken data flows when there were any, a table per metric (cases, mean
// score, pass rate, mean precision/recall/F1, errors), a table per tool,
// and the few worst cases with their reasons and a line summing up their
// trajectory (failed calls, turns below the mark, broken data flows and
// rules, state differences, ungrounded values). Control characters from
// the data are shown escaped, so a trace cannot drive the terminal.
func Text(w io.Writer) Writer { return &textReport{w: w} }

// A textReport writes everything from [Stats] at Finish.
type textReport struct{ w io.Writer }

func (t *textReport) Add(*toolgrade.Result) error { return nil }

func (t *textReport) Finish(s *Stats) error {
	var b strings.Builder
	b.WriteString(headline(s))
	b.WriteString("\n")
	if u := usageLine(s.Usage); u != "" {
		b.WriteString(u + "\n")
	}
	if l := ignoredLine(s.Ignored); l != "" {
		b.WriteString(l + "\n")
	}
	if l := warningsLine(s); l != "" {
		b.WriteString(terminal(l) + "\n")
	}
	for _, l := range s.traj.lines() {
		b.WriteString(terminal(l.String()) + "\n")
	}
	if len(s.Metrics) > 0 {
		tw := newTable()
		tw.AppendHeader(table.Row{"metric", "profile", "cases", "mean", "pass rate", "precision", "recall", "f1", "errors"})
		for _, m := range s.Metrics {
			p, r, f := prf(&m)
			tw.AppendRow(table.Row{terminal(m.Name), terminal(m.Profile), m.Count + m.Errors, mean(&m), passRate(&m), p, r, f, m.Errors})
		}
		alignRight(tw, 3, 9)
		b.WriteString("\n" + tw.Render() + "\n")
	}
	if tools, by := s.Tools(); len(tools) > 0 {
		tw := newTable()
		if by != "" {
			tw.SetCaption("missed, extra, wrong args and failed as paired by " + terminal(by))
		}
		// Without a metric that pairs calls, only the counts mean anything.
		if by != "" {
			tw.AppendHeader(table.Row{"tool", "expected", "called", "missed", "extra", "wrong args", "failed"})
		} else {
			tw.AppendHeader(table.Row{"tool", "expected", "called"})
		}
		for _, tc := range tools[:min(len(tools), textTools)] {
			if by != "" {
				tw.AppendRow(table.Row{terminal(tc.Name), tc.Expected, tc.Called, tc.Missed, tc.Extra, tc.WrongArgs, tc.Failed})
			} else {
				tw.AppendRow(table.Row{terminal(tc.Name), tc.Expected, tc.Called})
			}
		}
		if n := len(tools) - textTools; n > 0 {
			tw.AppendFooter(table.Row{fmt.Sprintf("and %d more", n)})
		}
		alignRight(tw, 2, 7)
		b.WriteString("\n" + tw.Render() + "\n")
	}
	if rel := s.Reliability(); rel != nil {
		writeReliabilityText(&b, rel)
	}
	if fs := s.Failures(); len(fs) > 0 {
		shown := fs[:min(len(fs), textWorst)]
		b.WriteString("\nworst cases:\n")
		for _, f := range shown {
			b.WriteString("  " + terminal(f.ID))
			if w := where(&f); w != "" {
				b.WriteString(" (" + terminal(filepath.Base(w)) + ")")
			}
			if l := trialsLine(&f); l != "" {
				b.WriteString(": " + l + "; worst trial:")
			}
			b.WriteString("\n")
			for _, r := range failureRows(&f) {
				fmt.Fprintf(&b, "    %s %s: %s\n", terminal(r.metric), r.score, terminal(clipRunes(r.reason, textReason)))
			}
			if f.trajectory != "" {
				b.WriteString("    trajectory: " + terminal(f.trajectory) + "\n")
			}
		}
		if n := failingCases(s) - len(shown); n > 0 {
			fmt.Fprintf(&b, "  and %d more failing\n", n)
		}
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

func newTable() table.Writer {
	tw := table.NewWriter()
	tw.SetStyle(table.StyleLight)
	tw.Style().Format.Header = text.FormatDefault
	tw.Style().Format.Footer = text.FormatDefault
	return tw
}

// alignRight right-aligns the numeric columns from..to (1-based).
func alignRight(tw table.Writer, from, to int) {
	var cc []table.ColumnConfig
	for n := from; n <= to; n++ {
		cc = append(cc, table.ColumnConfig{Number: n, Align: text.AlignRight})
	}
	tw.SetColumnConfigs(cc)
}

// headline is the one-line verdict of the run. With repeated trials it
// counts cases by their verdicts over their trials, then the trials.
func headline(s *Stats) string {
	if rel := s.repeated(); rel != nil {
		per := strconv.Itoa(rel.MinTrials)
		if rel.MinTrials != rel.MaxTrials {
			per += "–" + strconv.Itoa(rel.MaxTrials)
		}
		h := fmt.Sprintf("%d %s: %d passed, %d failed; %d trials (%s per case): %d passed, %d failed",
			rel.Cases, plural(rel.Cases, "case", "cases"), rel.Passed, rel.Cases-rel.Passed, s.Cases, per, s.Passed, s.Failed())
		if s.Errors > 0 {
			h += fmt.Sprintf(", %d erred", s.Errors)
		}
		return h
	}
	h := fmt.Sprintf("%d %s: %d passed, %d failed", s.Cases, plural(s.Cases, "case", "cases"), s.Passed, s.Failed())
	if s.Errors > 0 {
		h += fmt.Sprintf(", %d erred", s.Errors)
	}
	return h
}

// trialsLine says how a case fared over its trials: "0 of 5 trials
// passed"; "" without trials.
func trialsLine(f *Failure) string {
	if f.Trials == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d %s passed", f.Passed, f.Trials, plural(f.Trials, "trial", "trials"))
}

// failingCases counts the cases that failed or erred (see [Stats.Verdicts]).
func failingCases(s *Stats) int {
	cases, passed := s.Verdicts()
	return cases - passed
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ignoredLine lists the case fields no part of toolgrade read, each once
// with its count of cases.
func ignoredLine(fields []FieldCount) string {
	if len(fields) == 0 {
		return ""
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = fmt.Sprintf("%s (%d %s)", terminal(f.Field), f.Cases, plural(f.Cases, "case", "cases"))
	}
	return "ignored fields, not part of the case format (--strict-fields makes them errors): " + strings.Join(parts, ", ")
}

// warningsLine says how many cases carried warnings (input that was not
// understood, fields no metric read) and the commonest kinds, if any.
func warningsLine(s *Stats) string {
	n, kinds := s.Warnings()
	if n == 0 {
		return ""
	}
	parts := make([]string, 0, 3)
	for _, k := range kinds[:min(len(kinds), 3)] {
		parts = append(parts, fmt.Sprintf("%s (%d %s)", clipRunes(k.Field, 140), k.Cases, plural(k.Cases, "case", "cases")))
	}
	more := ""
	if len(kinds) > 3 {
		more = fmt.Sprintf("; and %d more kinds", len(kinds)-3)
	}
	return fmt.Sprintf("warnings in %d %s (see each result's \"warnings\"): %s%s", n, plural(n, "case", "cases"), strings.Join(parts, "; "), more)
}

// usageLine reports what an LLM judge spent, if anything.
func usageLine(u toolgrade.Usage) string {
	if u.Requests == 0 && u.CachedRequests == 0 {
		return ""
	}
	return fmt.Sprintf("judge: %d requests (%d from cache), %d prompt + %d completion tokens",
		u.Requests, u.CachedRequests, u.PromptTokens, u.CompletionTokens)
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// scoreAgainst formats a score and the mark it is held to with the same
// decimals: three, or as many more as it takes to tell them apart, so
// that 0.9997 failing a threshold of 1 reads "0.9997 < 1.0000", not
// "1.000 < 1.000".
func scoreAgainst(f, mark float64) (string, string) {
	for d := 3; d <= 17; d++ {
		s, m := strconv.FormatFloat(f, 'f', d, 64), strconv.FormatFloat(mark, 'f', d, 64)
		if s != m || f == mark {
			return s, m
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(mark, 'g', -1, 64)
}

func mean(m *toolgrade.MetricSummary) string {
	if m.Count == 0 {
		return "-"
	}
	return score(m.Score)
}

func passRate(m *toolgrade.MetricSummary) string {
	n := m.Count + m.Errors
	if n == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(m.Passed)/float64(n), 'f', 1, 64) + "%"
}

func prf(m *toolgrade.MetricSummary) (p, r, f string) {
	if m.PRFCount == 0 {
		return "-", "-", "-"
	}
	return score(m.Precision), score(m.Recall), score(m.F1)
}

// where names a case's place in its file ("cases.jsonl:12").
func where(f *Failure) string {
	if f.Source == "" {
		return ""
	}
	if f.Line == 0 {
		return f.Source
	}
	return f.Source + ":" + strconv.Itoa(f.Line)
}

type failureRow struct{ metric, score, reason string }

// failureRows describes each failing metric of a case: its label, its
// score against the threshold, and the reason or error.
func failureRows(f *Failure) []failureRow {
	if f.Error != "" {
		labels := make([]string, len(f.Metrics))
		for i, m := range f.Metrics {
			labels[i] = Label(m.Name, m.Profile)
		}
		return []failureRow{{strings.Join(labels, ", "), "error", f.Error}}
	}
	rows := make([]failureRow, len(f.Metrics))
	for i, m := range f.Metrics {
		r := failureRow{metric: Label(m.Name, m.Profile)}
		switch {
		case m.Error != "":
			r.score, r.reason = "error", m.Error
		case m.Threshold != nil:
			sc, th := scoreAgainst(m.Score, *m.Threshold)
			r.score, r.reason = sc+" < "+th, m.Reason
		default:
			r.score, r.reason = score(m.Score), m.Reason
		}
		rows[i] = r
	}
	return rows
}

// terminal makes data safe to print on one line: newlines and tabs become
// spaces and other control characters are shown escaped.
func terminal(s string) string { return printable(s, false) }

// printableClean reports whether printable leaves s as it is: no control
// character, bidirectional control or invalid byte. Printable ASCII, most
// text, is passed over a byte at a time.
func printableClean(s string) bool {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	for _, r := range s[i:] {
		if unicode.IsControl(r) || r == utf8.RuneError || bidiControl(r) {
			return false
		}
	}
	return true
}

// printable shows control characters, bidirectional controls and invalid
// bytes escaped (\u001b, \u202e, \xff), so that data cannot drive a
// terminal, break a format, or show in another order than it has.
// Newlines and tabs are kept when keepLines is set, else they become
// spaces.
func printable(s string, keepLines bool) string {
	if printableClean(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\r' && keepLines: // CRLF becomes LF
		case r == '\n' || r == '\t' || r == '\r':
			if keepLines {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i]) // an invalid byte
		case unicode.IsControl(r) || bidiControl(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// bidiControl reports the invisible characters that reorder the text
// around them: embeddings, overrides, isolates and direction marks.
// Right-to-left letters themselves are text, and kept.
func bidiControl(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || '\u202A' <= r && r <= '\u202E' || '\u2066' <= r && r <= '\u2069'
}

// clipRunes shortens s to at most n runes, marking the cut.
func clipRunes(s string, n int) string {
	switch {
	case len(s) <= n: // no more characters than bytes
		return s
	case n > 0 && asciiPrefix(s, n):
		// More than n characters (a byte follows n of one byte each): most
		// texts, decided without counting them.
		return s[:n-1] + "…"
	case utf8.RuneCountInString(s) <= n:
		return s
	}
	i := 0
	for pos := range s {
		if i == n-1 {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

// asciiPrefix reports whether the first n bytes of s (n at most len(s))
// are ASCII, each a character of its own.
func asciiPrefix(s string, n int) bool {
	s = s[:n]
	for ; len(s) >= 8; s = s[8:] { // eight bytes at a time: one load
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
