package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The page is written by hand rather than by html/template: the template
// engine looks methods up by name through reflection, and a binary that
// can do that keeps every exported method of every type it links (see
// docs/development.md). The functions below are the page, section by
// section in the order it shows them; each writes its markup as it
// appears on the page.
//
// Data reaches the page only through the verbs of [pageWriter.put], which
// escape it, and only in two places: the text of an element and the value
// of a double-quoted attribute. No data goes into a URL, a script, a style
// or an unquoted attribute (the script reads the page's own DOM).

// writePage writes pg to w.
func writePage(w io.Writer, pg *htmlPage) error {
	p := &pageWriter{w: bufio.NewWriterSize(w, 64<<10)}
	p.raw(pageHead)
	p.header(pg)
	p.metrics(pg.Metrics)
	if pg.Rel != nil {
		p.reliability(pg.Rel)
	}
	p.distribution(pg.Histograms)
	if len(pg.Tools) > 0 {
		p.tools(pg)
	}
	if err := p.cases(pg); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	p.raw(pageScript)
	return p.w.Flush()
}

func (p *pageWriter) header(pg *htmlPage) {
	verdict := "verdict-pass"
	if pg.Failed {
		verdict = "verdict-fail"
	}
	p.put(`<header>
<h1>toolgrade report</h1>
<p class="%s"><strong>%s</strong>`, verdict, pg.Headline)
	if pg.Usage != "" {
		p.put(`<br>%s`, pg.Usage)
	}
	p.put("</p>\n")
	if len(pg.Trajectory) > 0 {
		p.put(`<ul class="run-trajectory">`)
		for _, l := range pg.Trajectory {
			p.put(`<li>%s</li>`, l.String())
		}
		p.put(`</ul>`)
	}
	p.run(pg)
	p.put("\n</header>\n\n")
}

// run says when and how the run was made, and how each metric was set.
func (p *pageWriter) run(pg *htmlPage) {
	if len(pg.Run) == 0 && len(pg.Settings) == 0 {
		return
	}
	p.put("\n<table class=\"run\">\n<tbody>\n")
	for _, f := range pg.Run {
		switch f.name {
		case "command", "config":
			p.put(`<tr><th>%s</th><td><code>%s</code></td></tr>`+"\n", f.name, f.value)
		default:
			p.put(`<tr><th>%s</th><td>%s</td></tr>`+"\n", f.name, f.value)
		}
	}
	for i, m := range pg.Settings {
		label := ""
		if i == 0 {
			label = "metrics"
		}
		p.put(`<tr><th>%s</th><td>%s <code>%s</code></td></tr>`+"\n", label, m.Label, m.Settings)
	}
	p.put("</tbody>\n</table>")
}

func (p *pageWriter) metrics(rows []htmlMetricRow) {
	p.put(`<section id="metrics">
<h2>Metrics</h2>
<table>
<thead><tr><th>metric</th><th class="num">threshold</th><th class="num">cases</th><th class="num">mean</th><th class="num">pass rate</th><th class="num">precision</th><th class="num">recall</th><th class="num">f1</th><th class="num">errors</th></tr></thead>
<tbody>
`)
	for _, m := range rows {
		p.put(`<tr><td>%s</td><td class="num">%s</td><td class="num">%d</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%d</td></tr>`+"\n",
			m.Label, m.Threshold, m.Cases, m.Mean, m.PassRate, m.Precision, m.Recall, m.F1, m.Errors)
	}
	p.put(`</tbody>
</table>
</section>

`)
}

func (p *pageWriter) reliability(rel *htmlReliability) {
	p.put(`<section id="reliability">
<h2>Reliability over trials</h2>
<p>%s</p>
<table>
<thead><tr><th>metric</th><th class="num">cases</th><th class="num">trials</th><th class="num">pass rate</th><th class="num">mean score</th><th class="num">flaky</th><th>gate</th></tr></thead>
<tbody>
`, rel.Headline)
	for _, m := range rel.Metrics {
		p.put(`<tr><td>%s</td><td class="num">%d</td><td class="num">%d</td><td class="num">%s</td><td class="num">%s</td><td class="num">%d</td><td>%s</td></tr>`+"\n",
			m.Label, m.Cases, m.Trials, m.PassRate, m.Mean, m.Flaky, m.Gate)
	}
	p.put("</tbody>\n</table>\n")
	if len(rel.Ks) > 0 {
		p.put(`<table>
<thead><tr><th class="num">k</th>`)
		for _, l := range rel.Labels {
			p.put(`<th class="num">%s pass@k</th><th class="num">%s pass^k</th>`, l, l)
		}
		p.put("</tr></thead>\n<tbody>\n")
		for _, k := range rel.Ks {
			p.put(`<tr><td class="num">%d</td>`, k.K)
			for _, v := range k.Values {
				p.put(`<td class="num">%s</td>`, v)
			}
			p.put("</tr>\n")
		}
		p.put(`</tbody>
</table>
<p class="note">pass@k: the chance that at least one of k trials passes; pass^k: that all k pass (unbiased estimates, mean over cases).</p>`)
	}
	p.put(`
<h3>Trials per case</h3>
<table id="trials">
<thead><tr><th>case</th><th class="num">passed</th><th>trials</th><th class="num">flip rate</th><th>where a passing and a failing trial part</th></tr></thead>
<tbody>
`)
	for _, c := range rel.Cases {
		p.put(`<tr><td><code>%s</code></td><td class="num">%d/%d</td><td>`, c.ID, c.Passed, c.Trials)
		for _, v := range c.Verdicts {
			if v.Pass {
				p.put(`<span class="trial-pass" title="trial %d: passed">✓</span>`, v.Trial)
			} else {
				p.put(`<span class="trial-fail" title="trial %d: failed">✗</span>`, v.Trial)
			}
		}
		p.put(`</td><td class="num">%s</td><td>%s</td></tr>`+"\n", c.FlipRate, c.Parting)
	}
	p.put("</tbody>\n</table>\n")
	if rel.Omitted != 0 {
		p.put(`<p class="note">And %d more cases, left out to keep the page light.</p>`, rel.Omitted)
	}
	p.put("\n</section>\n")
}

func (p *pageWriter) distribution(hists []htmlHistogram) {
	p.put(`
<section id="distribution">
<h2>Score distribution</h2>
<div class="charts">
`)
	for _, h := range hists {
		p.put(`<figure>
<svg class="histogram" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="histogram of %s scores">
`, histWidth, histFull, histWidth, histFull, h.Label)
		// The axes: counts up the left, scores along the bottom.
		p.put(`<rect class="axis" x="%g" y="%g" width="1" height="%g"></rect><rect class="axis" x="%g" y="%g" width="%g" height="1"></rect>`+"\n",
			histLeft-1, histTop, histHeight+1, histLeft-1, histTop+histHeight, histWidth-histLeft-2)
		p.put(`<text class="count" x="%g" y="%g" dy="4">%d</text><text class="count" x="%g" y="%g" dy="4">0</text>`+"\n",
			histLeft-4, histTop, h.Top, histLeft-4, histTop+histHeight)
		p.put(`<text class="axis-title" transform="translate(12 %g) rotate(-90)">%s</text>`+"\n", histTop+histHeight/2, h.Unit)
		for _, b := range h.Bars {
			p.put(`<g><title>%s: %d</title><rect class="bar" x="%g" y="%g" width="%g" height="%g"></rect><text class="tick" x="%g" y="%g" dy="-3">%d</text></g>`+"\n",
				b.Label, b.Count, b.X, b.Y, b.W, b.H, b.X+b.W/2, b.Y, b.Count)
		}
		for _, t := range h.Ticks {
			p.put(`<text class="tick" x="%g" y="%g">%s</text>`, t.X, histTop+histHeight+14, t.Text)
		}
		p.put(`
<text class="axis-title" x="%g" y="%g">score</text>
</svg>
<figcaption>%s`, histLeft+5*(histBar+histGap), histTop+histHeight+32, h.Label)
		if h.Errors != 0 {
			p.put(`; %d erred, not shown`, h.Errors)
		}
		p.put("</figcaption>\n</figure>\n")
	}
	p.put("</div>\n</section>\n\n")
}

func (p *pageWriter) tools(pg *htmlPage) {
	p.put(`<section id="tools">
<h2>Tools</h2>
<p class="legend">`)
	if pg.ToolsBy != "" {
		p.put(`As paired by %s:`, pg.ToolsBy)
	}
	p.put(`<span class="ok">matched</span><span class="wrong">wrong arguments</span><span class="failed">failed</span><span class="missed">missed</span><span class="extra">extra</span></p>
<svg class="tools" width="760" height="%g" viewBox="0 0 760 %g" role="img" aria-label="calls per tool">
`, pg.Chart.Height, pg.Chart.Height)
	for _, r := range pg.Chart.Rows {
		p.put(`<g transform="translate(0 %g)"><text x="0" y="14">%s</text>`, r.Y, r.Name)
		for _, s := range r.Segments {
			p.put(`<rect class="%s" x="%g" y="3" width="%g" height="14"><title>%s</title></rect>`, s.Class, s.X, s.W, s.Title)
		}
		p.put(`<text x="%g" y="14">%s</text></g>`+"\n", r.TextX, r.Text)
	}
	p.put(`</svg>
<table>
<thead><tr><th>tool</th><th class="num">expected</th><th class="num">called</th><th class="num">missed</th><th class="num">extra</th><th class="num">wrong args</th><th class="num">failed</th></tr></thead>
<tbody>
`)
	for _, t := range pg.Tools {
		p.put(`<tr><td><code>%s</code></td><td class="num">%d</td><td class="num">%d</td><td class="num">%d</td><td class="num">%d</td><td class="num">%d</td><td class="num">%d</td></tr>`+"\n",
			t.Name, t.Expected, t.Called, t.Missed, t.Extra, t.WrongArgs, t.Failed)
	}
	p.put(`</tbody>
</table>
</section>`)
}

func (p *pageWriter) cases(pg *htmlPage) error {
	p.put(`

<section id="cases">
<h2>Cases</h2>
`)
	if pg.OmitFail != 0 || pg.OmitPass != 0 {
		p.put(`<p class="note">To keep this page light, the table lists at most the first %d failing and %d passing cases, and leaves out %d failing and %d passing ones. The figures above count every case; the JSON Lines results hold them all.</p>`+"\n",
			pg.MaxFailing, pg.MaxPassing, pg.OmitFail, pg.OmitPass)
	}
	p.put(`<div class="filters">
<input id="q" type="search" placeholder="filter: id, tool, argument, reason" aria-label="filter cases">
<select id="status" aria-label="verdict">
<option value="">all</option><option value="pass">passed</option><option value="fail">failed</option><option value="error">erred</option>
</select>
<span id="shown"></span>
</div>
<table id="case-table">
<thead><tr><th>case</th><th>verdict</th>`)
	for _, m := range pg.Metrics {
		p.put(`<th class="num">%s</th>`, m.Label)
	}
	p.put("<th>reason</th></tr></thead>\n<tbody>\n")
	if err := pg.Rows.writeRows(p, pg.Trials); err != nil {
		return err
	}
	p.put(`</tbody>
</table>
</section>

`)
	return nil
}

// A case's row is its id (and trial, when the run repeated cases: see
// [pageWriter.cases]), verdict and scores, and its details, which open
// from the row's reason: open from the start for a case that failed or
// erred. caseID writes it up to where the trial goes, caseRest the rest.
func (p *pageWriter) caseID(c *htmlCase) {
	p.put(`<tr class="case" data-status="%s">
<td><code>%s</code>`, c.Status, c.ID)
}

func (p *pageWriter) caseRest(c *htmlCase) {
	if c.Where != "" {
		p.put(`<br><small>%s</small>`, c.Where)
	}
	p.put(`</td>
<td><span class="status status-%s">%s</span></td>
`, c.Status, c.Status)
	for _, m := range c.Metrics {
		p.put(`<td class="num"><span class="status-%s">%s</span></td>`, m.Status, m.Text)
	}
	summary := c.Summary
	if summary == "" {
		summary = "details"
	}
	open := ""
	if c.Status != "pass" {
		open = " open"
	}
	p.put(`
<td class="reason"><details%s><summary>%s</summary>
<div class="detail">
`, open, summary)
	if c.Error != "" {
		p.put(`<pre>%s</pre>`, c.Error)
	}
	p.put("\n")
	for _, m := range c.Metrics {
		if m.Reason != "" {
			p.put(`<div><strong>%s</strong> %s<pre>%s</pre></div>`, m.Label, m.Text, m.Reason)
		}
	}
	p.put("\n")
	for i := range c.Sides {
		p.side(&c.Sides[i])
	}
	if c.Timeline != nil {
		p.timeline(c.Timeline)
	}
	p.put(`</div>
</details></td>
</tr>
`)
}

// side is one metric's pairing of a case's calls: expected and called
// side by side, and the differences under a pair.
func (p *pageWriter) side(s *htmlSide) {
	by := s.Label
	if by == "" {
		by = "by position"
	}
	p.put(`<table class="calls">
<thead><tr><th>expected</th><th>called</th><th class="num">%s</th></tr></thead>
<tbody>
`, by)
	for _, r := range s.Rows {
		p.put(`<tr class="%s"><td>`, r.Class)
		p.call(r.Expected)
		p.put(`</td><td>`)
		p.call(r.Called)
		p.put(`</td><td class="num score">%s</td></tr>`+"\n", r.Score)
		if len(r.Diffs) > 0 {
			p.put(`<tr class="%s"><td colspan="3"><ul class="diffs">`, r.Class)
			for _, d := range r.Diffs {
				p.diff(&d)
			}
			p.put("</ul></td></tr>\n")
		}
	}
	p.put("</tbody>\n</table>\n")
}

// call is one call: its name, then one line per argument.
func (p *pageWriter) call(c *htmlCall) {
	if c == nil {
		p.put(`<span class="none">none</span>`)
		return
	}
	p.put(`<div class="call"><b>%s</b>`, c.Name)
	for _, l := range c.Lines {
		if l.Diff {
			p.put(`<div class="arg diff">%s</div>`, l.Text)
		} else {
			p.put(`<div class="arg">%s</div>`, l.Text)
		}
	}
	p.put(`</div>`)
}

// diff is one argument that differs: "path note: expected X, got Y".
func (p *pageWriter) diff(d *htmlDiff) {
	p.put(`<li><code>%s</code>`, d.Path)
	if d.Note != "" {
		p.put(` %s`, d.Note)
	}
	p.put(`:`)
	if d.Expected != "" {
		p.put(` expected <code class="exp">%s</code>`, d.Expected)
	}
	if d.Expected != "" && d.Got != "" {
		p.put(`,`)
	}
	if d.Got != "" {
		p.put(` got <code class="got">%s</code>`, d.Got)
	}
	p.put(`</li>`)
}

// timeline is a case's trajectory (see [htmlTimeline]).
func (p *pageWriter) timeline(tl *htmlTimeline) {
	p.put(`<div class="timeline"><div class="tl-title">timeline`)
	if tl.By != "" {
		p.put(` <small>(pairing of %s)</small>`, tl.By)
	}
	p.put("</div>\n<ul class=\"tl\">\n")
	for i := range tl.Steps {
		if s := &tl.Steps[i]; s.Turn != 0 {
			p.turnStep(s)
		} else {
			p.callStep(s)
		}
	}
	p.put("</ul>\n")
	if len(tl.Notes) > 0 {
		p.put(`<ul class="tl-notes tl-case">`)
		p.notes(tl.Notes)
		p.put(`</ul>`)
	}
	p.put(`</div>`)
}

// turnStep is a turn's header: its input and score.
func (p *pageWriter) turnStep(s *htmlStep) {
	p.put(`<li class="tl-turn tl-%s"><b>turn %d</b>`, s.Status, s.Turn)
	if s.Input != "" {
		p.put(` <span class="tl-input">“%s”</span>`, s.Input)
	}
	if s.Score != "" {
		p.put(` <span class="status-%s">%s`, s.Status, s.Score)
		switch s.Status {
		case "pass":
			p.put(` ✓`)
		case "fail":
			p.put(` ✗`)
		}
		p.put(`</span>`)
	}
	p.put("</li>\n")
}

// callStep is a call, or an expected call not made, in the timeline.
func (p *pageWriter) callStep(s *htmlStep) {
	if s.Class != "" {
		p.put(`<li class="tl-call tl-%s">`, s.Class)
	} else {
		p.put(`<li class="tl-call">`)
	}
	index := s.Index
	if index == "" {
		index = "–"
	}
	p.put(`<code class="tl-index">%s</code> <span class="call"><b>%s</b>`, index, s.Name)
	if s.Args != "" {
		p.put(` <span class="tl-args">%s</span>`, s.Args)
	}
	p.put(`</span>`)
	for _, b := range s.Badges {
		p.put(` <span class="badge badge-%s">%s</span>`, strings.ReplaceAll(b, " ", "-"), b)
	}
	if s.Pair != "" {
		p.put(` <span class="tl-pair">%s</span>`, s.Pair)
	}
	if len(s.Notes) > 0 {
		p.put(`<ul class="tl-notes">`)
		p.notes(s.Notes)
		p.put(`</ul>`)
	}
	p.put("</li>\n")
}

func (p *pageWriter) notes(notes []htmlNote) {
	for _, n := range notes {
		if n.Class != "" {
			p.put(`<li class="note-%s">%s</li>`, n.Class, n.Text)
		} else {
			p.put(`<li>%s</li>`, n.Text)
		}
	}
}

// A pageWriter writes the page to a buffered writer, which keeps the
// first error.
type pageWriter struct{ w *bufio.Writer }

// raw writes markup as it is.
func (p *pageWriter) raw(s string) { p.w.WriteString(s) }

// put writes markup with its verbs replaced by args, in order:
//
//	%s  a string, escaped (see [pageWriter.escape])
//	%d  an int
//	%g  a float64, in the shortest form that reads back the same (1e-05,
//	    334.2857142857143), escaped
//	%%  a percent sign
//
// format is markup: a constant of this file, never data. A verb without
// its argument, or with an argument of another type, is written as
// "%!verb(BAD)" (as fmt would mark it): a bug in this file, which the
// page's tests show.
func (p *pageWriter) put(format string, args ...any) {
	start := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			continue
		}
		p.w.WriteString(format[start:i])
		i++
		start = i + 1
		verb := format[i]
		if verb == '%' {
			p.w.WriteByte('%')
			continue
		}
		var arg any
		if len(args) > 0 {
			arg, args = args[0], args[1:]
		}
		switch v := arg.(type) {
		case string:
			if verb == 's' {
				p.escape(v)
				continue
			}
		case int:
			if verb == 'd' {
				p.w.WriteString(strconv.Itoa(v))
				continue
			}
		case float64:
			if verb == 'g' {
				p.escape(strconv.FormatFloat(v, 'g', -1, 64))
				continue
			}
		}
		p.w.WriteString("%!" + string(verb) + "(BAD)")
	}
	p.w.WriteString(format[start:])
}

// escape writes data for the text of an element or the value of a
// double-quoted attribute: control characters, bidirectional controls and
// invalid bytes are shown escaped, as on a terminal (printable: a
// right-to-left override would show an id in another order than it has),
// and the characters that could end either, start markup or a character
// reference, or be read as a space in a URL (" & ' + < >) become
// character references, the replacements html/template made in both
// contexts. Newlines and tabs are kept.
func (p *pageWriter) escape(s string) {
	s = printable(s, true)
	start := 0
	for i := 0; i < len(s); i++ {
		var ref string
		switch s[i] {
		case '"':
			ref = "&#34;"
		case '&':
			ref = "&amp;"
		case '\'':
			ref = "&#39;"
		case '+':
			ref = "&#43;"
		case '<':
			ref = "&lt;"
		case '>':
			ref = "&gt;"
		default:
			continue
		}
		p.w.WriteString(s[start:i])
		p.w.WriteString(ref)
		start = i + 1
	}
	p.w.WriteString(s[start:])
}

// pageHead is the page up to its body: its Content-Security-Policy,
// which forbids fetching anything, and its style.
const pageHead = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>toolgrade report</title>
<style>
:root { --ok: #2e7d32; --wrong: #ef6c00; --failed: #6d1b1b; --missed: #c62828; --extra: #6a1b9a; --muted: #666; --line: #ddd; --bar: #1565c0; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 1em 2em; color: #222; }
h1 { font-size: 1.4em; margin: 0.2em 0; }
h2 { font-size: 1.15em; margin: 1.6em 0 0.5em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
.verdict-pass { color: var(--ok); } .verdict-fail { color: var(--missed); }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.25em 0.7em; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f5f5f5; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .call { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5em; }
figure { margin: 0; }
figcaption { color: var(--muted); font-size: 0.9em; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg .bar { fill: var(--bar); }
svg .axis { fill: #888; }
svg .tick, svg .axis-title { text-anchor: middle; }
svg .count { text-anchor: end; }
svg .axis-title { fill: var(--muted); }
svg .ok { fill: var(--ok); } svg .wrong { fill: var(--wrong); } svg .failed { fill: var(--failed); } svg .missed { fill: var(--missed); } svg .extra { fill: var(--extra); }
.legend span::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em; margin: 0 0.3em 0 0.8em; vertical-align: -0.05em; }
.legend .ok::before { background: var(--ok); } .legend .wrong::before { background: var(--wrong); } .legend .failed::before { background: var(--failed); }
.trial-pass { color: var(--ok); } .trial-fail { color: var(--missed); }
.legend .missed::before { background: var(--missed); } .legend .extra::before { background: var(--extra); }
.filters { display: flex; gap: 0.8em; align-items: center; margin-bottom: 0.6em; }
.filters input { width: 24em; padding: 0.3em; }
#shown, .note { color: var(--muted); }
.status { font-weight: 600; text-transform: uppercase; font-size: 0.8em; }
.status-pass { color: var(--ok); } .status-fail { color: var(--missed); } .status-error { color: #fff; background: var(--missed); padding: 0 0.3em; } .status-none { color: var(--muted); }
table.run th { background: none; font-weight: 600; padding-left: 0; }
table.run td code { word-break: break-all; }
#case-table { width: 100%; }
#case-table > tbody > tr > td:first-child { min-width: 12em; }
/* Data may be one unbroken word as long as a page: it wraps anywhere, so
   that it cannot widen its column, or the page, past the window. */
td:first-child, td code, #trials td:last-child, .call, details summary, .detail pre, .arg, .tl-args, .tl-pair, ul.diffs, ul.tl-notes, figcaption { overflow-wrap: anywhere; }
details summary { cursor: pointer; color: var(--bar); }
.detail { margin: 0.5em 0 1em; }
.detail pre { white-space: pre-wrap; word-break: break-word; background: #fafafa; padding: 0.5em; margin: 0.3em 0; }
table.calls { width: 100%; margin: 0.4em 0; }
table.calls td { width: 45%; }
table.calls td.score { width: 10%; }
.call b { font-weight: 600; }
.arg { padding-left: 1.2em; white-space: pre-wrap; word-break: break-word; }
.arg.diff { background: #fff3e0; outline: 1px solid var(--wrong); }
tr.missing td:first-child { background: #ffebee; }
tr.extra td:nth-child(2) { background: #f3e5f5; }
tr.partial td, tr.wrong td { background: #fffaf2; }
tr.failed td:nth-child(2) { background: #fff5f5; }
.none { color: var(--muted); font-style: italic; }
ul.diffs { margin: 0.2em 0 0.4em; padding-left: 1.5em; }
ul.diffs .exp { color: var(--ok); } ul.diffs .got { color: var(--missed); }
ul.run-trajectory { margin: 0.2em 0; padding-left: 1.2em; color: var(--muted); }
.timeline { margin: 0.6em 0; }
.tl-title { font-weight: 600; }
ul.tl { list-style: none; margin: 0.3em 0; padding: 0 0 0 0.8em; border-left: 2px solid var(--line); }
ul.tl > li { padding: 0.15em 0.4em; margin: 0.1em 0; }
li.tl-turn { background: #f5f5f5; margin-top: 0.5em; }
li.tl-turn.tl-fail { background: #ffebee; }
.tl-input { font-style: italic; }
.tl-index { color: var(--muted); }
.tl-args, .tl-pair { color: var(--muted); word-break: break-word; }
li.tl-failed { border-left: 4px solid var(--missed); background: #fff5f5; }
li.tl-missing { border-left: 4px dashed var(--missed); color: var(--missed); }
li.tl-wrong { border-left: 4px solid var(--wrong); }
.badge { font-size: 0.75em; font-weight: 600; text-transform: uppercase; padding: 0 0.35em; border-radius: 3px; background: #eee; color: #444; }
.badge-failed, .badge-missing { background: var(--missed); color: #fff; } .badge-retried, .badge-wrong-args { background: var(--wrong); color: #fff; } .badge-extra { background: #f3e5f5; color: var(--extra); }
ul.tl-notes { margin: 0.1em 0 0.2em; padding-left: 1.6em; font-size: 0.92em; word-break: break-word; }
ul.tl-notes .note-ok { color: var(--ok); } ul.tl-notes .note-bad { color: var(--missed); }
</style>
</head>
<body>
`

// pageScript filters the table of cases by text and by verdict, from the
// page's inputs and from the URL fragment (#status=fail&q=weather). It
// reads the page's DOM and nothing else.
const pageScript = `<script>
(function () {
  "use strict";
  var q = document.getElementById("q");
  var status = document.getElementById("status");
  var shown = document.getElementById("shown");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#case-table > tbody > tr.case"));
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });

  function apply() {
    var needle = q.value.trim().toLowerCase();
    var want = status.value;
    var n = 0;
    rows.forEach(function (r, i) {
      var ok = (!want || r.getAttribute("data-status") === want) && (!needle || texts[i].indexOf(needle) >= 0);
      r.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = n + " of " + rows.length + " cases shown";
  }

  function fromHash() {
    var p = new URLSearchParams(location.hash.slice(1));
    q.value = p.get("q") || "";
    status.value = p.get("status") || "";
    apply();
  }

  function toHash() {
    var p = new URLSearchParams();
    if (q.value) { p.set("q", q.value); }
    if (status.value) { p.set("status", status.value); }
    history.replaceState(null, "", "#" + p.toString());
  }

  q.addEventListener("input", function () { apply(); toHash(); });
  status.addEventListener("change", function () { apply(); toHash(); });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
</script>
</body>
</html>


`
