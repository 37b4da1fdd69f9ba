package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/reliability"
	"github.com/toolgrade/toolgrade/report"
)

func (m *Main) compareCommand() *cobra.Command {
	var tolerance, confidence float64
	var allowMissing bool
	var seed uint64
	cmd := &cobra.Command{
		Use:   "compare [flags] BASE.jsonl NEW.jsonl",
		Short: "Compare two runs' results and fail on a regression",
		Long: `Compare the result lines of two runs over the same cases (as written by
toolgrade eval): per metric the mean score and pass rate in both runs and
their change, the cases that regressed and improved, with their scores, and
the cases found in one run only.

Cases are matched by id (the n-th result with an id in BASE with the n-th in
NEW; repeated ids are trials of a case) and metrics by name and profile. A
regression is
  - a case whose score on a metric fell by more than --tolerance (an error
    where BASE had a score counts as a fall);
  - a case run once in each file that passed a metric in BASE and fails it
    in NEW, whatever the tolerance (these are listed first);
  - a case or a metric of BASE missing from NEW, unless --allow-missing;
  - a metric whose mean score or pass rate fell by more than --tolerance.

When a case id repeats in either file (trials, as toolgrade run --trials
writes them), the comparison is noise-aware instead: per metric the
difference of the mean score and of the pass rate, paired over cases, with
a bootstrap interval over cases and trials (seeded by --seed); a metric
regressed only when its interval lies wholly below -(--tolerance), at the
--confidence level (default 0.95). Then the cases whose pass rate fell
significantly (one-sided Fisher exact test; a regression when still
significant after Holm's correction over all cases), then the flaky cases
of NEW. Missing cases count as above.

Both files must be result files as toolgrade eval writes them (--out, or
the config's reports: out); anything else is refused. Either may be -, for
standard input.

When either run has cases the other lacks, each metric's mean and pass
rate are taken over the cases both have, and the others are listed. A
metric graded at another threshold in NEW is said so, and so is each
change from pass to fail it makes; results do not record a metric's other
options, so compare runs graded with the same config.

Exit status: 0 when nothing regressed beyond the tolerance; 1 on a
regression; 2 for bad usage or an unreadable file.`,
		Args: cobra.ExactArgs(2), // explained by argHelp
		RunE: func(cmd *cobra.Command, args []string) error {
			if !(confidence > 0 && confidence < 1) {
				return usageError("--confidence: want a level between 0 and 1, such as 0.95; got %v", confidence)
			}
			if args[0] == "-" && args[1] == "-" {
				return usageError("compare: BASE and NEW are both standard input (-): at most one of them can be")
			}
			if err := m.checkPaths(inputs("the results file", args...), nil); err != nil {
				return err
			}
			c := &reliability.Comparison{Tolerance: tolerance, AllowMissing: allowMissing, Confidence: confidence, Seed: seed}
			if err := m.readResults(args[0], c.AddBase); err != nil {
				return usageError("%v", err)
			}
			if err := m.readResults(args[1], c.AddNew); err != nil {
				return usageError("%v", err)
			}
			if err := report.WriteComparison(m.Stdout, c); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			if c.Regression() {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	cmd.Flags().Float64Var(&tolerance, "tolerance", 0, "how far a case's score or a metric's mean or pass rate may fall before it counts as a regression")
	cmd.Flags().Float64Var(&confidence, "confidence", reliability.DefaultConfidence, "with trials (repeated case ids): the confidence level at which a fall must be significant to be a regression")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "with trials: the seed of the bootstrap, so that a comparison is reproducible")
	cmd.Flags().BoolVar(&allowMissing, "allow-missing", false, "accept cases and metrics of BASE that NEW lacks (default: each is a regression)")
	return cmd
}

// readResults reads a file of result lines ("-": standard input),
// passing each to add, each line within --max-line-size. Blank lines are
// skipped; a line that is not a result is an error naming it and saying
// what it is instead, and so is a file with no results, or a file that is
// not text (sniff).
func (m *Main) readResults(path string, add func(*toolgrade.Result)) error {
	var r io.Reader
	if path == "-" {
		path = "standard input"
		text, err := sniff.Text(m.Stdin)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r = text
	} else {
		f, err := sniff.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	lr := jsonvalue.NewLineReader(r)
	lr.Limit(int(m.sizes.LineOr()))
	results := 0
	for n := 1; ; n++ {
		line, err := lr.Next()
		if err == io.EOF {
			if results == 0 {
				return fmt.Errorf("%s: not a toolgrade results file: it holds no result lines (an empty file); give the results toolgrade eval wrote (--out FILE, or the config's reports: out)", path)
			}
			return nil
		}
		if errors.Is(err, jsonvalue.ErrLineTooLong) {
			return &budget.Error{Name: path, Line: n, What: "line", Limit: m.sizes.LineOr(), Flag: budget.LineFlag}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(strings.TrimSpace(line)) == 0 {
			continue
		}
		v, perr := jsonvalue.ParseString(line)
		if se, ok := perr.(*jsonvalue.SyntaxError); ok {
			return fmt.Errorf("%s:%d: not a result line: invalid JSON: %s (byte %d of the line); give the results toolgrade eval wrote (--out FILE, or the config's reports: out)", path, n, se.Msg, se.Offset+1)
		}
		if perr != nil {
			return fmt.Errorf("%s:%d: not a result line: %v", path, n, perr)
		}
		if what := notResult(v); what != "" {
			return fmt.Errorf("%s:%d: not a toolgrade results file: %s; give the results toolgrade eval wrote (--out FILE, or the config's reports: out)", path, n, what)
		}
		r, perr := toolgrade.DecodeResult(v)
		if perr != nil {
			return fmt.Errorf("%s:%d: not a result line: %v", path, n, perr)
		}
		add(&r)
		results++
	}
}

// notResult says what a line's value is when it is not a result (one JSON
// object with "id", "success" and a "metrics" list), or "".
func notResult(v any) string {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return "the line is a JSON " + jsonvalue.Kind(v) + ", not a result object"
	}
	metrics, hasMetrics := obj.Get("metrics")
	_, isList := metrics.([]any)
	_, hasSuccess := obj.Get("success")
	if hasMetrics && isList && hasSuccess && obj.Has("id") {
		return ""
	}
	keys := make([]string, 0, len(obj))
	for _, m := range obj {
		keys = append(keys, m.Key)
	}
	if len(keys) > 6 {
		keys = append(keys[:6], "…")
	}
	fields := "no fields"
	if len(keys) > 0 {
		fields = "fields " + strings.Join(keys, ", ")
	}
	if sniff.Document(obj) == sniff.Config {
		return "the line is a toolgrade config (" + fields + "), not a result"
	}
	if dataset.Gradeable(obj) || slices.ContainsFunc(keys, func(k string) bool { return k != "id" && dataset.Known(k) }) {
		return "the line is a case (" + fields + "), not a result; grade the cases first with toolgrade eval --out FILE"
	}
	return "the line has " + fields + ", where a result has id, success and metrics"
}
