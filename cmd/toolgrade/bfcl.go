package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
)

type bfclFlags struct {
	data     string
	results  []string
	out      string
	exitZero bool
	fc       bool // --function-calling
	prompt   bool // --prompting
}

func (m *Main) bfclCommand() *cobra.Command {
	var f bfclFlags
	cmd := &cobra.Command{
		Use:   "bfcl --data DIR --results FILE",
		Short: "Grade a model's BFCL result files against BFCL's data, as BFCL's AST checker does",
		Long: `Grade a model's Berkeley Function Calling Leaderboard results with BFCL's
AST checker (the bfcl profile) and print the accuracy per category, with
BFCL's summary rows.

--data is a directory of BFCL's data files: BFCL_v4_<category>.json question
files and possible_answer/BFCL_v4_<category>.json ground truth (both JSON
Lines). --results is a result file in BFCL's format, one line per entry:
{"id": ..., "result": [{"function": {"param": value}}, ...]}, where each
call's arguments may also be JSON text, as function-calling models give
them. A result that is a string (model text BFCL would decode with a model
handler) is invalid with BFCL's decoder error. --results may be repeated,
or name a directory, whose .json and .jsonl files are read.

The AST categories are graded (simple, multiple, parallel, their live_
variants, java and javascript), and irrelevance and live_relevance by
whether the result holds a call. Entries of the data without a result are
not counted. Summary rows follow BFCL's score table: Simple AST is the
unweighted mean of the python, java and javascript simple categories, the
Non-Live AST summary the unweighted mean of Simple AST, multiple, parallel
and parallel_multiple, and the Live summaries are weighted by entries; a
summary is N/A when one of its categories has no results. BFCL v3's data
and result files (BFCL_v3_simple.json, java, javascript, ...) are read as
v4's; v3's executable and REST categories are not graded.

A function-calling model is sent the functions with every "." in their
names replaced by "_" (provider APIs allow no dots), and BFCL reads its
calls so; a prompting model must call the names as documented. Each result
file is read as a function-calling model's when its path names a model
ending in "-FC" (BFCL writes result/<model>/...), or when its calls name
dotted functions in the "_" form and never with their dots; else as a
prompting model's. The decision is per file, as BFCL's is per model, and is
reported on stderr when it was not the plain reading. --function-calling or
--prompting sets it for every file.

Exit status: 0 when every entry is valid; 1 when one is not (or could not be
graded); 2 for bad usage or unreadable input.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.runBFCL(cmd.Context(), f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.data, "data", "", "directory of BFCL's data files (BFCL_v4_<category>.json, possible_answer/)")
	fs.StringArrayVar(&f.results, "results", nil, "a model's BFCL result file, or a directory of them (repeatable)")
	fs.StringVarP(&f.out, "out", "o", "", "write one result line per entry (JSONL) to this file")
	fs.BoolVar(&f.fc, "function-calling", false, "read every result file as a function-calling model's (names with \"_\" for \".\")")
	fs.BoolVar(&f.prompt, "prompting", false, "read every result file as a prompting model's (names as documented)")
	cmd.MarkFlagsMutuallyExclusive("function-calling", "prompting")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when entries are invalid (2 still means unreadable input)")
	cmd.MarkFlagRequired("data")
	cmd.MarkFlagRequired("results")
	return cmd
}

// runBFCL grades result files against a data folder with BFCL's
// harness, which reports on stderr what it skipped or could not grade and
// prints the score table.
func (m *Main) runBFCL(ctx context.Context, f bfclFlags) error {
	data, err := leaderboard.OpenData(f.data)
	if err != nil {
		return usageError("--data %v", err)
	}
	in := filesUnder("the --data file", f.data, 2) // the question files and possible_answer/
	for _, r := range f.results {
		in = append(in, filesUnder("the --results file", r, -1)...)
	}
	if err := m.checkPaths(in, []namedPath{{"--out", f.out}}); err != nil {
		return err
	}
	calling := leaderboard.DetectCalling
	switch {
	case f.fc:
		calling = leaderboard.FunctionCalling
	case f.prompt:
		calling = leaderboard.Prompting
	}
	passed, err := data.GradeFiles(ctx, f.results, calling, m.grading(f.out))
	return gradeExit(passed, err, f.exitZero)
}

// filesUnder names path, or when it is a directory the regular files
// under it to depth levels (-1: all), as inputs.
func filesUnder(role, path string, depth int) []namedPath {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return []namedPath{{role, path}}
	}
	var files []namedPath
	root := strings.Count(filepath.Clean(path), string(filepath.Separator))
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			if depth >= 0 && strings.Count(filepath.Clean(p), string(filepath.Separator))-root >= depth {
				return filepath.SkipDir
			}
		case d.Type().IsRegular():
			files = append(files, namedPath{role, p})
		}
		return nil
	})
	return files
}
