package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/report"
)

// reportFlags name eval's report files; each overrides its key in the
// config's reports section.
type reportFlags struct {
	markdown, junit, html string
}

func (f *reportFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.markdown, "markdown", "", `write a Markdown summary to this file (e.g. "$GITHUB_STEP_SUMMARY", which is appended to)`)
	fs.StringVar(&f.junit, "junit", "", "write JUnit XML to this file: one test case per case and metric")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report to this file")
}

// inputPaths returns the case files to read: the arguments, else the
// config's datasets. Every file must open, so that a run fails before any
// output rather than halfway.
func inputPaths(cfg *config.Config, configPath string, args []string) ([]string, error) {
	files := args
	if len(files) == 0 {
		if cfg == nil || len(cfg.Datasets) == 0 {
			return nil, usageError("no cases: name case files (- for stdin), or list datasets in a --config file")
		}
		var err error
		if files, err = cfg.DatasetFiles(); err != nil {
			return nil, usageError("%s: %v", configPath, err)
		}
	}
	for _, p := range files {
		if p == "-" {
			continue
		}
		fh, err := os.Open(p)
		if err != nil {
			return nil, usageError("%v", err)
		}
		fh.Close()
	}
	return files, nil
}

// A reportRun is a run's reports: every result streams through them, and
// finish writes what remains.
type reportRun struct {
	stats   report.Stats
	writers []report.Writer
	files   []io.WriteCloser
	written []string // the files' paths, for the closing line
}

// openReports opens eval's outputs: the result lines (--out, else the
// config's out, else stdout), the Markdown, JUnit and HTML reports named
// by flags or config, and, unless --quiet, the summary on stderr and a
// progress bar when stderr is a terminal that results are not also
// written to.
func (m *Main) openReports(f *evalFlags, cfg *config.Config, paths []string) (*reportRun, error) {
	getenv := m.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var files config.Reports
	if cfg != nil {
		var err error
		if files, err = cfg.ReportFiles(getenv); err != nil {
			return nil, usageError("%s: %v", f.config, err)
		}
	}
	for _, o := range []struct {
		flag string
		dst  *string
	}{
		{f.out, &files.Out}, {f.reports.markdown, &files.Markdown}, {f.reports.junit, &files.JUnit}, {f.reports.html, &files.HTML},
	} {
		if o.flag != "" {
			*o.dst = o.flag
		}
	}

	run := &reportRun{}
	open := func(path string, appendTo bool) (io.Writer, error) {
		fh, err := m.output(path, appendTo)
		if err != nil {
			run.close()
			return nil, usageError("%v", err)
		}
		run.files = append(run.files, fh)
		run.written = append(run.written, path)
		return fh, nil
	}

	results, toStdout := m.Stdout, files.Out == "" || files.Out == "-"
	if !toStdout {
		w, err := open(files.Out, false)
		if err != nil {
			return nil, err
		}
		results = w
	}
	run.writers = append(run.writers, report.JSONL(results))
	for _, r := range []struct {
		path string
		make func(io.Writer) report.Writer
	}{{files.JUnit, report.JUnit}, {files.HTML, report.HTML}, {files.Markdown, report.Markdown}} {
		if r.path == "" {
			continue
		}
		// GitHub's step summary is shared by the step's commands: add to it.
		summary := getenv("GITHUB_STEP_SUMMARY")
		w, err := open(r.path, summary != "" && filepath.Clean(r.path) == filepath.Clean(summary))
		if err != nil {
			return nil, err
		}
		run.writers = append(run.writers, r.make(w))
	}
	if !f.quiet {
		run.writers = append(run.writers, report.Text(m.Stderr))
	}
	// Started last, once nothing can fail; first, so that it is finished
	// before the summary prints. A bar redrawn among result lines on the
	// same terminal would garble both.
	if !f.quiet && report.ShowProgress(m.Stderr, getenv) && !(toStdout && report.ShowProgress(m.Stdout, getenv)) {
		p := report.NewProgress(m.Stderr, 0)
		go func() {
			if n, ok := countCases(paths); ok {
				p.SetTotal(n)
			}
		}()
		run.writers = append([]report.Writer{p}, run.writers...)
	}
	return run, nil
}

// runCommand is the command line as the reports show it: the program's
// name and its arguments, the values of --mcp-header (which hold
// secrets) cut to the header's name.
func runCommand(args []string) []string {
	out := append(make([]string, 0, len(args)+1), "toolgrade")
	header := false
	for _, a := range args {
		switch {
		case header:
			a, header = headerName(a), false
		case a == "--mcp-header":
			header = true
		case strings.HasPrefix(a, "--mcp-header="):
			a = "--mcp-header=" + headerName(strings.TrimPrefix(a, "--mcp-header="))
		}
		out = append(out, a)
	}
	return out
}

func headerName(h string) string {
	name, _, _ := strings.Cut(h, ":")
	return name + ": …"
}

// settingsText is a metric's config entry as the reports show it.
func settingsText(e jsonvalue.Object) string {
	if len(e) == 0 {
		return "(defaults)"
	}
	return string(jsonvalue.Append(nil, e))
}

// printWritten ends a run's output with the files it wrote.
func (r *reportRun) printWritten(w io.Writer) {
	if len(r.written) > 0 {
		fmt.Fprintf(w, "wrote %s\n", strings.Join(r.written, ", "))
	}
}

// add passes one result to every report.
func (r *reportRun) add(res *toolgrade.Result) error {
	r.stats.Add(res)
	for _, w := range r.writers {
		if err := w.Add(res); err != nil {
			return err
		}
	}
	return nil
}

// finish finishes every report, even after an error, and closes the files.
func (r *reportRun) finish() error {
	var errs []error
	for _, w := range r.writers {
		errs = append(errs, w.Finish(&r.stats))
	}
	errs = append(errs, r.close())
	return errors.Join(errs...)
}

func (r *reportRun) close() error {
	var errs []error
	for _, f := range r.files {
		errs = append(errs, f.Close())
	}
	r.files = nil
	return errors.Join(errs...)
}

// countCases counts the cases in JSON Lines files (a case per non-blank
// line) for the progress bar's total; other formats and stdin are not
// counted ahead.
func countCases(paths []string) (int64, bool) {
	var n int64
	for _, p := range paths {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".jsonl", ".ndjson":
		default:
			return 0, false
		}
		c, err := countLines(p)
		if err != nil {
			return 0, false
		}
		n += c
	}
	return n, true
}

// countLines counts the lines of a file that hold more than white space.
func countLines(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var n int64
	blank := true
	br := bufio.NewReaderSize(f, 256<<10)
	for {
		chunk, err := br.ReadSlice('\n')
		if len(bytes.TrimSpace(chunk)) > 0 {
			blank = false
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' || err == io.EOF {
			if !blank {
				n++
			}
			blank = true
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
}
