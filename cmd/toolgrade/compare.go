package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/report"
)

func (m *Main) compareCommand() *cobra.Command {
	var tolerance float64
	cmd := &cobra.Command{
		Use:   "compare [flags] BASE.jsonl NEW.jsonl",
		Short: "Compare two runs' results and fail on a regression",
		Long: `Compare the result lines of two runs over the same cases (as written by
toolgrade eval): per metric the mean score and pass rate in both runs and
their change, the cases that regressed and improved, with their scores, and
the cases found in one run only.

Cases are matched by id (the n-th result with an id in BASE with the n-th in
NEW) and metrics by name and profile. A regression is
  - a case whose score on a metric fell by more than --tolerance (an error
    where BASE had a score counts as a fall), or
  - a metric whose mean score fell by more than --tolerance.
Cases and metrics found in one run only are listed but are not regressions.

Exit status: 0 when nothing regressed beyond the tolerance; 1 on a
regression; 2 for bad usage or an unreadable file.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if tolerance < 0 {
				return usageError("--tolerance must not be negative")
			}
			c := &report.Comparison{Tolerance: tolerance}
			if err := readResults(args[0], c.AddBase); err != nil {
				return usageError("%v", err)
			}
			if err := readResults(args[1], c.AddNew); err != nil {
				return usageError("%v", err)
			}
			if err := c.WriteText(m.Stdout); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			if c.Regression() {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	cmd.Flags().Float64Var(&tolerance, "tolerance", 0, "how far a case's score or a metric's mean may fall before it counts as a regression")
	return cmd
}

// readResults reads a file of result lines, passing each to add. Blank
// lines are skipped; a line that is not a result is an error naming it.
func readResults(path string, add func(*toolgrade.Result)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			r, perr := toolgrade.ParseResult(line)
			if perr != nil {
				return fmt.Errorf("%s:%d: not a result line: %v", path, n, perr)
			}
			add(&r)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}
