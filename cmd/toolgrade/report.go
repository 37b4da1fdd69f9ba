package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/internal/sniff"
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
// config's datasets. Every file must open and be a case file, as far as
// its first case says, so that a run fails before any output rather than
// halfway (a directory, a compressed file, a results file or a config
// given as cases).
func (m *Main) inputPaths(cfg *config.Config, configPath string, args []string) ([]string, error) {
	files := args
	if len(files) == 0 {
		switch {
		case cfg == nil:
			return nil, usageError("no cases: name case files (- for stdin), or a --config file that lists datasets; toolgrade init writes a starter suite, %s, that a bare toolgrade eval in its folder grades", suiteFile)
		case len(cfg.Datasets) == 0:
			return nil, usageError("no cases: %s lists no datasets; add them to it, or name case files (- for stdin)", configPath)
		}
		var err error
		if files, err = cfg.DatasetFiles(); err != nil {
			return nil, usageError("%s: %v", configPath, err)
		}
	}
	for _, p := range files {
		if err := m.sniffCases(p); err != nil {
			return nil, usageError("%v", err)
		}
	}
	return files, nil
}

// sniffCases checks that a case file is one, as far as its first case
// says (see dataset.Sniff). Standard input is read as far as that, and
// what was read is put back in front of the rest.
func (m *Main) sniffCases(path string) error {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if sniff.IsDirectory(path) {
			return &sniff.DirectoryError{Name: path}
		}
		return m.cases().Sniff(path, f)
	}
	var seen bytes.Buffer
	err := m.cases().Sniff(path, io.TeeReader(m.Stdin, &seen))
	m.Stdin = rereadStdin{io.MultiReader(&seen, m.Stdin), m.Stdin}
	return err
}

// rereadStdin is standard input with what was read of it put back. It is
// still the file behind it (Stat), so that checkPaths knows an output
// that is standard input.
type rereadStdin struct {
	io.Reader
	stdin io.Reader
}

func (r rereadStdin) Stat() (os.FileInfo, error) {
	if fi := streamFile(r.stdin); fi != nil {
		return fi, nil
	}
	return nil, errors.ErrUnsupported
}

// A reportRun is a run's reports: every result streams through them, and
// finish writes what remains.
type reportRun struct {
	stats   report.Stats
	writers []report.Writer
	files   []reportFile
}

// A reportFile is a report being written to a temporary file, put in
// place only when the run is over and the report whole (outfile).
type reportFile struct {
	*output
	writer report.Writer
}

// reportPaths are eval's outputs: the result lines (Out; "" or "-" for
// stdout) and the report files, each named with how the user gave it.
type reportPaths struct {
	out, junit, html, markdown namedPath
	// defaulted says out is defaultResults, named by no one: standard
	// output is a terminal.
	defaulted bool
}

func (p *reportPaths) list() []namedPath { return []namedPath{p.out, p.junit, p.html, p.markdown} }

// reportPaths names eval's outputs: --out, else the config's reports: out
// (else stdout), and the Markdown, JUnit and HTML reports named by flags
// or config.
func (m *Main) reportPaths(f *evalFlags, cfg *config.Config) (*reportPaths, error) {
	var files config.Reports
	if cfg != nil {
		var err error
		if files, err = cfg.ReportFiles(m.getenv()); err != nil {
			return nil, usageError("%s: %v", f.config, err)
		}
	}
	p := &reportPaths{}
	for _, o := range []struct {
		flag, key, fromFlag, fromConfig string
		dst                             *namedPath
	}{
		{"--out", "out", f.out, files.Out, &p.out},
		{"--junit", "junit", f.reports.junit, files.JUnit, &p.junit},
		{"--html", "html", f.reports.html, files.HTML, &p.html},
		{"--markdown", "markdown", f.reports.markdown, files.Markdown, &p.markdown},
	} {
		switch {
		case o.fromFlag != "":
			*o.dst = namedPath{o.flag, o.fromFlag}
		case o.fromConfig != "":
			*o.dst = namedPath{"the config's reports." + o.key, o.fromConfig}
		}
		// "-" is standard output for the result lines alone: a report
		// named so would otherwise be a file called "-".
		if o.dst != &p.out && o.dst.path == "-" {
			return nil, usageError("%s -: a report is written to a file, and standard output carries the result lines (--out -); name a file", o.dst.role)
		}
	}
	// Result lines are no reading on a terminal: they go to a file there,
	// and to standard output when it is a pipe or a file, or with --out -.
	if p.out.path == "" && onTerminal(m.Stdout) {
		p.out, p.defaulted = namedPath{"--out's default on a terminal", defaultResults}, true
	}
	return p, nil
}

// openReports opens eval's outputs: the result lines (to stdout unless
// a file is named), the Markdown, JUnit and HTML reports, and, unless
// --quiet, the summary on stderr and a progress bar when stderr is a
// terminal that results are not also written to. Files are written to
// temporary files beside them until finish.
func (m *Main) openReports(f *evalFlags, paths *reportPaths, cases []string) (*reportRun, error) {
	getenv := m.getenv()
	run := &reportRun{}
	add := func(p namedPath, make func(io.Writer) report.Writer, appendTo bool) error {
		if p.path == "" {
			return nil
		}
		fh, err := m.output(p.path, appendTo)
		if err != nil {
			run.abort()
			return usageError("%s: %v", p.role, err)
		}
		w := make(fh)
		run.files = append(run.files, reportFile{fh, w})
		run.writers = append(run.writers, w)
		return nil
	}
	toStdout := (paths.out.path == "" || paths.out.path == "-")
	if toStdout {
		run.writers = append(run.writers, report.JSONL(m.Stdout))
	} else if err := add(paths.out, report.JSONL, false); err != nil {
		return nil, err
	}
	// GitHub's step summary is shared by the step's commands: add to it.
	summary := getenv("GITHUB_STEP_SUMMARY")
	for _, r := range []struct {
		path namedPath
		make func(io.Writer) report.Writer
	}{{paths.junit, report.JUnit}, {paths.html, report.HTML}, {paths.markdown, report.Markdown}} {
		appendTo := r.path.path != "" && summary != "" && filepath.Clean(r.path.path) == filepath.Clean(summary)
		if err := add(r.path, r.make, appendTo); err != nil {
			return nil, err
		}
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
			if n, ok := countCases(cases); ok {
				p.SetTotal(n)
			}
		}()
		run.writers = append([]report.Writer{p}, run.writers...)
	}
	return run, nil
}

// DirectFile returns the temporary file, for JUnit to write anywhere,
// while the run has no secret to scrub from it (see report.DirectWriter).
func (o *output) DirectFile() (*os.File, bool) {
	if !o.secrets.Empty() {
		return nil, false
	}
	return o.File.RandomAccess()
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

// defaultResults is where result lines go when standard output is a
// terminal and no file is named for them.
const defaultResults = "results.jsonl"

// onTerminal reports whether w is a terminal: a character device (as the
// progress bar asks, whatever $TERM says), other than the null device a
// script sends what it does not want to.
func onTerminal(w io.Writer) bool {
	if !report.ShowProgress(w, nil) {
		return false
	}
	fi := streamFile(w)
	if fi == nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// mayReplace checks that the results file the user did not name (the
// default on a terminal) may be replaced: it is missing, empty, or holds
// toolgrade's results (a previous run's, as sniff tells a result line),
// so that no file of the user's is lost to a default.
func (p *reportPaths) mayReplace(lineBudget int64) error {
	if !p.defaulted {
		return nil
	}
	path := p.out.path
	f, err := sniff.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	what := ""
	if err == nil {
		defer f.Close()
		lr := jsonvalue.NewLineReader(f)
		lr.Limit(int(lineBudget))
		for {
			line, err := lr.Next()
			if err == io.EOF {
				return nil // empty
			}
			if err != nil {
				what = err.Error()
				break
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			if v, err := jsonvalue.ParseString(line); err == nil && sniff.Document(v) == sniff.Result {
				return nil
			}
			break
		}
	} else {
		what = err.Error()
	}
	if what != "" {
		what = " (" + what + ")"
	}
	return usageError("standard output is a terminal, so the result lines would go to %s, which holds something other than toolgrade's results%s: name another file with --out FILE, or print them with --out -", path, what)
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

// finish finishes every report, even after an error. When the run is
// complete (whole), each file whose report was written without an error
// is put in place; the others, and all of them when the run is not
// whole, are dropped, leaving the earlier files as they were. It returns
// the files put in place and the files dropped (not counting devices
// written in place), and the errors.
func (r *reportRun) finish(whole bool) (wrote, dropped []string, err error) {
	var errs []error
	for _, w := range r.writers {
		ferr := w.Finish(&r.stats)
		errs = append(errs, ferr)
		for _, f := range r.files {
			if f.writer != w {
				continue
			}
			if whole && ferr == nil {
				ferr = f.Commit()
				errs = append(errs, ferr)
			}
			if whole && ferr == nil {
				wrote = append(wrote, f.Name())
			} else if f.Abort(); !f.InPlace() {
				dropped = append(dropped, f.Name())
			}
		}
	}
	r.files = nil
	return wrote, dropped, errors.Join(errs...)
}

// abort drops every file, leaving the earlier ones as they were.
func (r *reportRun) abort() {
	for _, f := range r.files {
		f.Abort()
	}
	r.files = nil
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
