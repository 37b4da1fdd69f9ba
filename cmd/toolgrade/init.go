package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/internal/outfile"
)

// starterConfig is the suite file toolgrade init writes: every section, the
// common options with their choices, and nothing that needs an account.
const starterConfig = `# toolgrade suite. Run it, from its folder, with:
#
#   toolgrade eval --config toolgrade.yaml
#
# or, in the folder of a suite named toolgrade.yaml, with a bare
# "toolgrade eval".
#
# Relative paths in this file are relative to the file itself. Every key
# is described in docs/config.md; suites in docs/config.md#suites.

# Case files to grade: JSON Lines, JSON or YAML, one case per record (the
# format: docs/cases.md). Globs (*, ?, [a-z]) are expanded; "**" is not.
# Case files named on the command line replace this list. init wrote
# cases/sample.jsonl, three cases of which one fails on purpose.
datasets:
  - cases/*.jsonl

# Every metric grades every case, each with its own pass mark (threshold).
# A case passes when it passes every metric.
metrics:
  # toolgrade's own tool correctness: the best one-to-one pairing of
  # expected and called calls, scored as F1 (docs/metric.md). Threshold 1,
  # the default, fails a case that misses a call, makes an extra one or
  # gets an argument wrong.
  - name: tool_correctness
    order: any        # any | in-order | exact
    args: exact       # ignore | exact | contains | within | partial | fuzzy
    output: ignore    # ignore | exact: compare the calls' outputs too
    scoring: f1       # f1 | recall | precision
    threshold: 1

  # The same cases, demanding the expected order.
  - name: tool_order
    order: in-order
    threshold: 1

  # The numbers another tool would give, to keep its baselines
  # (docs/profiles.md), e.g.:
  # - name: deepeval
  #   profile: deepeval
  #   should_consider_ordering: false
  #   threshold: 0.5   # DeepEval's own default

# Cases graded at once (default: one per CPU; raise it for an LLM judge).
# workers: 8

# An LLM judge, for metrics that need one: see docs/judge.md.
# judge:

# Report files, written as the run goes (docs/results.md#reports). $VARIABLES are expanded, and a
# path that expands to nothing writes no report, so the Markdown summary
# goes to GitHub's step summary in CI and nowhere else. Flags (--out,
# --markdown, --junit, --html) override these.
reports:
  out: results.jsonl              # one result line per case
  html: report.html               # one self-contained page
  markdown: $GITHUB_STEP_SUMMARY  # summary, tables and failing cases
  # junit: junit.xml              # one test case per case and metric
`

// starter is the starter config written to path: its header's command
// names the file.
func starter(path string) []byte {
	return []byte(strings.Replace(starterConfig, "--config "+suiteFile, "--config "+filepath.Base(path), 1))
}

// sampleCases are the cases init writes beside the config, so that the
// suite runs at once: two pass, one fails with a reason to read.
const sampleCases = `{"id": "weather", "input": "Weather in Paris?", "tools_called": [{"name": "get_weather", "args": {"city": "Paris"}}], "expected_tools": [{"name": "get_weather", "args": {"city": "Paris"}}]}
{"id": "search-then-book", "input": "Book the cheapest flight to Oslo", "tools_called": [{"name": "search_flights", "args": {"to": "OSL"}}, {"name": "book_flight", "args": {"flight": "SK123"}}], "expected_tools": [{"name": "search_flights", "args": {"to": "OSL"}}, {"name": "book_flight", "args": {"flight": "SK123"}}]}
{"id": "weather-then-email", "input": "Send Ana the weather in Rome", "tools_called": [{"name": "get_weather", "args": {"city": "Berlin"}}], "expected_tools": [{"name": "get_weather", "args": {"city": "Rome"}}, {"name": "send_email", "args": {"to": "ana@example.com"}}]}
`

// sampleFile is where init writes the sample cases, relative to the
// config; the starter's datasets glob finds it.
const sampleFile = "cases/sample.jsonl"

func (m *Main) initCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [FILE]",
		Short: "Write a commented starter suite config (default toolgrade.yaml)",
		Long: `Write a commented starter suite config: the datasets to grade, several
metrics each with its own threshold, and the report files to write; and,
beside it, cases/sample.jsonl, three sample cases (one fails on purpose), so
that a bare "toolgrade eval" in the same folder (or "toolgrade eval --config
FILE" from anywhere) runs at once. FILE may be a folder (an existing one,
or a name ending in /): the suite is toolgrade.yaml in it. Missing folders
are made. An existing config is kept unless --force is given; existing
sample cases are kept.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := suiteFile
			if len(args) == 1 {
				path = args[0]
			}
			switch fi, err := os.Stat(path); {
			case path == "" || path == "-":
				return usageError("init writes a file: give its name (default %s), or a folder to write %s in", suiteFile, suiteFile)
			case err == nil && fi.IsDir(), strings.HasSuffix(path, "/"), strings.HasSuffix(path, string(filepath.Separator)):
				path = filepath.Join(path, suiteFile)
			}
			if _, err := os.Lstat(path); err == nil && !force {
				return usageError("%s exists; use --force to overwrite it", path)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return usageError("%v", err)
			}
			if err := writeWhole(path, starter(path)); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			wrote := []string{path}
			sample := filepath.Join(filepath.Dir(path), filepath.FromSlash(sampleFile))
			switch written, err := writeNew(sample, sampleCases); {
			case err != nil:
				return &ExitError{Code: 2, Err: err}
			case written:
				wrote = append(wrote, sample)
			}
			command := "toolgrade eval --config " + path
			if path == suiteFile {
				command = "toolgrade eval"
			}
			_, err := fmt.Fprintf(m.Stdout, "wrote %s\nrun the sample suite (one case fails on purpose):\n  %s\nthen put your own cases in %s beside it (format: docs/cases.md)\n",
				strings.Join(wrote, ", "), command, filepath.Join(filepath.Dir(path), "cases", "*.jsonl"))
			return err
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}

// writeNew writes content to path, creating its directory, unless the
// file exists; it reports whether it wrote.
func writeNew(path, content string) (bool, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, writeWhole(path, []byte(content))
}

// writeWhole writes content to path whole or not at all (outfile).
func writeWhole(path string, content []byte) error {
	f, err := outfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(content); err != nil {
		return err
	}
	return f.Commit()
}
