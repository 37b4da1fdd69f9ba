package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
)

// starterConfig is the suite file toolgrade init writes: every section, the
// common options with their choices, and nothing that needs an account.
const starterConfig = `# toolgrade suite. Run it with:
#
#   toolgrade eval --config toolgrade.yaml
#
# Relative paths in this file are relative to the file itself.

# Case files to grade: JSON Lines, JSON or YAML, one case per record. Globs
# (*, ?, [a-z]) are expanded; "**" is not. Case files named on the command
# line replace this list.
datasets:
  - cases/*.jsonl

# Every metric grades every case, each with its own pass mark (threshold).
# A case passes when it passes every metric.
metrics:
  # toolgrade's own tool correctness: the best one-to-one pairing of
  # expected and called calls, scored as F1.
  - name: tool_correctness
    order: any        # any | in-order | exact
    args: exact       # ignore | exact | contains | within | partial | fuzzy
    output: ignore    # ignore | exact: compare the calls' outputs too
    scoring: f1       # f1 | recall | precision
    threshold: 0.8

  # The same cases, demanding the expected order.
  - name: tool_order
    order: in-order
    threshold: 1

  # The numbers another tool would give, to keep its baselines, e.g.:
  # - name: deepeval
  #   profile: deepeval
  #   should_consider_ordering: false
  #   threshold: 0.5

# Cases graded at once (default: one per CPU; raise it for an LLM judge).
# workers: 8

# An LLM judge, for metrics that need one: see docs/judge.md.
# judge:

# Report files, written as the run goes. $VARIABLES are expanded, and a
# path that expands to nothing writes no report, so the Markdown summary
# goes to GitHub's step summary in CI and nowhere else. Flags (--out,
# --markdown, --junit, --html) override these.
reports:
  out: results.jsonl              # one result line per case
  html: report.html               # one self-contained page
  markdown: $GITHUB_STEP_SUMMARY  # summary, tables and failing cases
  # junit: junit.xml              # one test case per case and metric
`

func (m *Main) initCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [FILE]",
		Short: "Write a commented starter suite config (default toolgrade.yaml)",
		Long: `Write a commented starter suite config: the datasets to grade, several
metrics each with its own threshold, and the report files to write. An
existing file is kept unless --force is given.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "toolgrade.yaml"
			if len(args) == 1 {
				path = args[0]
			}
			flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if force {
				flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			f, err := os.OpenFile(path, flags, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return usageError("%s exists; use --force to overwrite it", path)
			}
			if err != nil {
				return usageError("%v", err)
			}
			_, err = f.WriteString(starterConfig)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			_, err = fmt.Fprintf(m.Stdout, "wrote %s; put cases in cases/*.jsonl beside it, then run:\n  toolgrade eval --config %s\n", path, path)
			return err
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}
