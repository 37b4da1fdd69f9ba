package main

import (
	"cmp"
	"fmt"
	"iter"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/reliability"
	"github.com/toolgrade/toolgrade/report"
	"github.com/toolgrade/toolgrade/runner"
)

// metricFlags mirror metric config keys; a flag that is set overrides its
// key in every metric entry.
var metricFlags = []struct {
	flag, key, kind, usage string
}{
	{"metric", "metric", "string", "metric: " + strings.Join(config.Metrics(), ", ") + " (default tool_correctness; docs/README.md links the page of each)"},
	{"profile", "profile", "string", "profile of tool_correctness: default, or a peer's to reproduce: " + strings.Join(slices.DeleteFunc(config.Profiles(), func(p string) bool { return p == "default" }), ", ")},
	{"order", "order", "string", "call order: any, in-order or exact"},
	{"args", "args", "string", "argument mode: ignore, exact, contains, within, partial or fuzzy"},
	{"output", "output", "string", "output comparison: ignore or exact"},
	{"pairing", "pairing", "string", "pairing for order any: optimal or greedy"},
	{"scoring", "scoring", "string", "score: f1, recall or precision"},
	{"threshold", "threshold", "float", "pass mark (default " + strconv.FormatFloat(match.DefaultThreshold, 'g', -1, 64) + ": every expected call made, with the right arguments, and nothing extra; a profile's default is its peer's)"},
	{"strict", "strict", "bool", "turn any score below 1 into 0"},
	{"normalize-names", "normalize_names", "bool", `strip random "_xg7c" suffixes from tool names`},
	{"fuzzy-threshold", "fuzzy_threshold", "float", "similarity fuzzy arguments need (default 0.8)"},
}

type evalFlags struct {
	env      envFlags
	reports  reportFlags
	config   string
	out      string
	workers  int
	quiet    bool
	exitZero bool
	options  optionFlag
	// strictFields makes unknown case fields errors; allowEmpty accepts
	// an input with no cases.
	strictFields, allowEmpty bool
}

// optionFlag collects repeated --option key=value flags: any metric
// entry key, by its config name, with the value read as JSON when it is
// JSON (true, 0.7, null, ["a"]) and as a string otherwise.
type optionFlag struct {
	set []jsonvalue.Member
}

func (o *optionFlag) String() string {
	parts := make([]string, len(o.set))
	for i, m := range o.set {
		parts[i] = m.Key + "=" + string(jsonvalue.Append(nil, m.Value))
	}
	return strings.Join(parts, ",")
}

func (o *optionFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if k = strings.TrimSpace(k); !ok || k == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	var val any = v
	if parsed, err := jsonvalue.ParseString(v); err == nil {
		val = parsed
	}
	o.set = append(o.set, jsonvalue.Member{Key: k, Value: val})
	return nil
}

func (o *optionFlag) Type() string { return "key=value" }

func (m *Main) evalCommand() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval [flags] [CASES...]",
		Short: "Grade cases (JSONL, JSON or YAML files; - for stdin)",
		Long: `Grade cases and write one result line per case, in input order, to --out,
else to stdout, or, when stdout is a terminal, to results.jsonl (--out -
keeps them on stdout); with a summary on stderr (and a progress bar when
stderr is a terminal). Without CASES, the --config file's datasets are graded, and
without --config either, those of toolgrade.yaml in the current folder (the
suite toolgrade init writes); a config's reports section, or --markdown,
--junit and --html, adds report files.

Report files are written beside their names and renamed once whole; none
may name an input or another output. SIGINT, SIGTERM and SIGHUP stop the
run: the cases in flight are left out and no report file is written.

Exit status: 0 when every case passed; 1 when a case failed its threshold or
could not be read or scored; 2 for bad usage, an unreadable file or an
output that could not be written; 128 plus the signal when interrupted.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.runEval(cmd, f, args)
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// register adds the grading flags, shared by eval and run.
func (f *evalFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "config file (YAML or JSON) with metric entries, judge settings and reports")
	fs.StringVarP(&f.out, "out", "o", "", "write results to this file instead of stdout (on a terminal, results.jsonl; - for stdout)")
	fs.IntVar(&f.workers, "workers", 0, "cases graded at once (default: one per CPU)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print no summary and no progress")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when cases fail (2 still means unreadable input)")
	fs.BoolVar(&f.strictFields, "strict-fields", false, "make a case field that is not part of the case format an error (default: kept as metadata, and listed in the summary)")
	fs.BoolVar(&f.allowEmpty, "allow-empty", false, "accept an input with no cases (default: exit 2)")
	fs.Var(&f.options, "option", "set a metric option by its config name, for every metric entry (repeatable; the value is JSON when it parses, else a string), e.g. --option ragas_metric=tool_call_f1")
	f.env.register(fs)
	f.reports.register(fs)
	for _, mf := range metricFlags {
		switch mf.kind {
		case "string":
			fs.String(mf.flag, "", mf.usage)
		case "float":
			fs.Float64(mf.flag, 0, mf.usage)
		case "bool":
			fs.Bool(mf.flag, false, mf.usage)
		}
	}
}

// metricEntries returns the metric entries of the config (or one default
// entry), with the flags that were set applied to each.
func metricEntries(fs *pflag.FlagSet, cfg *config.Config) []jsonvalue.Object {
	var entries []jsonvalue.Object
	if cfg != nil && len(cfg.Metrics) > 0 {
		for _, e := range cfg.Metrics {
			entries = append(entries, append(jsonvalue.Object(nil), e...))
		}
	} else {
		entries = []jsonvalue.Object{{}}
	}
	for _, mf := range metricFlags {
		fl := fs.Lookup(mf.flag)
		if fl == nil || !fl.Changed {
			continue
		}
		var v any = fl.Value.String()
		switch mf.kind {
		case "float":
			f, _ := strconv.ParseFloat(fl.Value.String(), 64)
			v = jsonvalue.MustFrom(f)
		case "bool":
			v = fl.Value.String() == "true"
		}
		for i := range entries {
			entries[i].Set(mf.key, v)
		}
	}
	// --option comes last: it names the key itself, so it is the most
	// specific.
	if fl := fs.Lookup("option"); fl != nil {
		if o, ok := fl.Value.(*optionFlag); ok {
			for _, m := range o.set {
				for i := range entries {
					entries[i].Set(m.Key, m.Value)
				}
			}
		}
	}
	return entries
}

func (m *Main) runEval(cmd *cobra.Command, f evalFlags, paths []string) error {
	var here bool
	f.config, here = findSuite(f.config, paths)
	return m.grade(cmd, f, gradeInput{paths: paths, here: here})
}

// A gradeInput is what a grading run reads: case files (eval), or, when
// read is set, the records it gives (snapshot --check).
type gradeInput struct {
	paths []string // the files named; without read, the config's datasets when none
	read  func() iter.Seq2[toolgrade.Record, error]
	// seen, when set, is called with each result.
	seen func(*toolgrade.Result)
	// role names the files of paths for messages ("the case file" when
	// unset); inputs and outputs are the caller's other files, checked
	// with the run's own (checkPaths).
	role            string
	inputs, outputs []namedPath
	// here says the config is the suite found in the current folder
	// (findSuite), which the run then says.
	here bool
}

// grade grades the input with the metrics of the flags and config, and
// writes the results and reports, as eval does.
func (m *Main) grade(cmd *cobra.Command, f evalFlags, in gradeInput) error {
	// Paced from the start: the set-up (the first case sniffed, the
	// reports opened) otherwise took the heap past the runtime's first
	// goal of 4 MB in one run of a case in four, and that collection cost
	// such a run a fifth more instructions.
	gc := paceGC(m.Getenv)
	defer gc.stop()
	paths := in.paths
	run := report.RunInfo{Started: time.Now(), Version: versionString(), Command: runCommand(m.args), Config: f.config}
	var cfg *config.Config
	if f.config != "" {
		var err error
		if cfg, err = m.loadConfig(f.config); err != nil {
			return usageError("config: %v", err)
		}
	}
	env, err := m.runEnv(cmd, &f.env, cfg)
	if err != nil {
		return err
	}
	var metrics []toolgrade.Metric
	gates := map[string]reliability.PassK{}
	entries := metricEntries(cmd.Flags(), cfg)
	for i, e := range entries {
		mt, err := config.Metric(e, env)
		if err != nil {
			if cfg != nil && len(cfg.Metrics) > 0 {
				return usageError("%s: metrics[%d]: %v", f.config, i, err)
			}
			return usageError("%v", err)
		}
		metrics = append(metrics, mt)
		run.Metrics = append(run.Metrics, report.RunMetric{Label: reliability.Label(mt.Name(), mt.Profile()), Settings: settingsText(e)})
		if g, _ := config.PassKOf(e); g != nil { // checked by config.Metric
			gates[reliability.Label(mt.Name(), mt.Profile())] = *g
		}
	}
	// checker checks the cases graded, as the files' records decode (it is
	// set below: the judge's batch reads them unchecked, as it always did).
	var checker *dataset.Checker
	read, counted := in.read, []string(nil) // counted: files the progress bar counts ahead
	if read == nil {
		if paths, err = m.inputPaths(cfg, f.config, paths); err != nil {
			return err
		}
		read = func() iter.Seq2[toolgrade.Record, error] {
			src := m.cases()
			src.Metrics = metrics
			if checker != nil {
				src = src.Checked(checker, runner.CheckRun)
			}
			return src.Files(paths...)
		}
		counted = paths
	}
	if in.here && !f.quiet {
		m.saySuite(paths)
	}
	outputs, err := m.reportPaths(&f, cfg)
	if err != nil {
		return err
	}
	if err := m.checkPaths(append(f.inputs(cfg, in.role, paths), in.inputs...), append(outputs.list(), in.outputs...)); err != nil {
		return err
	}
	if err := outputs.mayReplace(m.sizes.LineOr()); err != nil {
		return err
	}
	batchDone, err := m.judgeBatch(cmd, &f, cfg, env, counted, read) // judge.go
	if err != nil {
		return err
	}
	defer batchDone()

	reports, err := m.openReports(&f, outputs, counted)
	if err != nil {
		return err
	}
	defer reports.abort()
	reports.stats.Run = run
	add := reports.add
	if in.seen != nil {
		add = func(r *toolgrade.Result) error {
			in.seen(r)
			return reports.add(r)
		}
	}
	if len(gates) > 0 {
		reports.stats.Gates = gates
	}
	workers := f.workers
	if workers == 0 && cfg != nil {
		workers = cfg.Workers
	}
	workers = f.env.judge.judgeWorkers(workers)

	ctx := cmd.Context()
	checker = &dataset.Checker{StrictFields: f.strictFields, NotGraded: config.NotGraded(metrics)}
	// The records of the case files decode for the metrics, and are
	// checked, as they are read; other records (snapshot --check's) are
	// set to here.
	records, opts := read(), []toolgrade.Option{toolgrade.Workers(workers), gc.waiting()}
	if in.read != nil {
		records = dataset.RecordsFor(metrics, records)
		opts = append(opts, toolgrade.CheckCases(runner.CheckRun), toolgrade.CheckCases(checker.CheckCase))
	} else if in.seen == nil && reuseCases {
		// The reports, the statistics and the pacer keep nothing of a
		// result but strings and figures (see docs/architecture.md).
		opts = append(opts, toolgrade.EmitKeepsNothing())
	}
	err = toolgrade.Evaluate(ctx, records, metrics, gc.collecting(add), opts...)
	gc.stop()
	for _, fc := range checker.Ignored() {
		reports.stats.Ignored = append(reports.stats.Ignored, report.FieldCount{Field: fc.Field, Cases: fc.Cases})
	}
	stopped := interrupted(ctx)
	wrote, dropped, ferr := reports.finish(err == nil && stopped == nil)
	if err == nil {
		err = ferr
	}
	if !f.quiet {
		f.env.judge.printJudgeCost(m.Stderr, reports.stats.Usage)
		if len(wrote) > 0 {
			if outputs.defaulted && wrote[0] == outputs.out.path {
				wrote[0] += " (the result lines: standard output is a terminal; --out - prints them there)"
			}
			fmt.Fprintf(m.Stderr, "wrote %s\n", strings.Join(wrote, ", "))
		}
	}
	notWritten := ""
	if len(dropped) > 0 {
		notWritten = fmt.Sprintf("; not written: %s (earlier copies are as they were)", strings.Join(dropped, ", "))
	}
	if stopped != nil {
		return &ExitError{Code: stopped.code(), Err: fmt.Errorf("%v after %d %s: the summary covers the cases graded before it; the cases in flight were left out%s",
			stopped, reports.stats.Cases, plural(reports.stats.Cases, "case", "cases"), notWritten)}
	}
	if err != nil {
		return &ExitError{Code: 2, Err: fmt.Errorf("%w%s", err, notWritten)}
	}
	if reports.stats.Cases == 0 && !f.allowEmpty {
		return usageError("no cases in %s: the input is empty (give a case file with one case per line, see docs/cases.md; --allow-empty accepts an empty input)", strings.Join(paths, ", "))
	}
	if !reports.stats.CasePassed() && !f.exitZero {
		return &ExitError{Code: 1}
	}
	return nil
}

// reuseCases is whether eval reuses the memory of a case's values for
// the cases after it (toolgrade.EmitKeepsNothing); tests turn it off to
// compare.
var reuseCases = true

// inputs names the files a run reads: the cases, the config, the tool
// definitions.
func (f *evalFlags) inputs(cfg *config.Config, role string, cases []string) []namedPath {
	in := inputs(cmp.Or(role, "the case file"), cases...)
	if f.config != "" {
		in = append(in, namedPath{"--config", f.config})
	}
	if path, role := f.env.toolsFile(cfg); path != "" {
		in = append(in, namedPath{role, path})
	}
	return in
}

// suiteFile is the suite toolgrade init writes by default, which eval and
// run grade when given neither --config nor case files.
const suiteFile = "toolgrade.yaml"

// findSuite returns the config file to use: --config, else, when no case
// files are named, the suite file in the current folder if there is one
// (here is then true).
func findSuite(config string, cases []string) (path string, here bool) {
	if config != "" || len(cases) > 0 {
		return config, false
	}
	if fi, err := os.Stat(suiteFile); err == nil && !fi.IsDir() {
		return suiteFile, true
	}
	return "", false
}

// saySuite says that the suite file found in the current folder is used,
// and which case files it names.
func (m *Main) saySuite(cases []string) {
	fmt.Fprintf(m.Stderr, "toolgrade: no --config or case files given: using %s in the current folder, grading %s\n", suiteFile, strings.Join(cases, ", "))
}

// records reads the inputs in turn; "-" is standard input.
func (m *Main) records(paths []string) iter.Seq2[toolgrade.Record, error] {
	return m.cases().Files(paths...)
}
