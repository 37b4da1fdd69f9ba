package runner

import (
	"context"
	"io"

	"github.com/toolgrade/toolgrade"
)

// A Harness runs a benchmark's own datasets the benchmark's way, for
// benchmarks whose entries are not toolgrade cases and whose answers are
// graded from the benchmark's own files (BFCL's question files and result
// files, for one): what an entry sends, where each answer is kept besides
// the run file, and how the answers are graded when the run is over. The
// benchmark's package implements it; toolgrade run wires one in and calls
// it in this order:
//
//  1. Prompt, as [Options.Prompt], for every case of every run, whether or
//     not the datasets are the harness's own: an entry of the benchmark is
//     sent its way wherever it is read.
//  2. Own, before anything is written: whether the datasets are the
//     harness's own. Only when they are, Trials before anything is
//     written, then the rest.
//  3. Start, once the run file is created.
//  4. Record, for each run as it ends (as [Runner.Run] emits it, from one
//     goroutine), before the run's line of the run file is written.
//  5. Close, when the run is over, whether or not it failed.
//  6. Grade, in place of grading the run file; then Summary.
//
// A Harness serves one run.
type Harness interface {
	// Prompt says what a case sends (see [Options.Prompt]); ok false
	// leaves a case that is not the benchmark's to the runner.
	Prompt(c *toolgrade.Case, tools []toolgrade.Tool) (msgs []any, offered []toolgrade.Tool, ok bool, err error)
	// Own reports whether the datasets (paths; "-" for standard input)
	// are the benchmark's own. An error says they cannot be run as they
	// are: some are its own and some not.
	Own(datasets []string) (bool, error)
	// Trials says why the harness cannot keep n trials of every case;
	// nil when it can.
	Trials(n int) error
	// Start creates the benchmark's files for a run of the datasets Own
	// took, recorded to the run file named record.
	Start(record string) error
	// Record keeps a run's answer in the benchmark's files. It may add to
	// run.Case what grading the run file needs (BFCL's possible answer),
	// which the run file then records.
	Record(run *Run) error
	// Close flushes and closes the benchmark's files; it may be called
	// more than once.
	Close() error
	// Grade grades the answers as the benchmark does. passed is false
	// when an answer failed or could not be graded; err is an input that
	// could not be read or an output that could not be written.
	Grade(ctx context.Context, to Grading) (passed bool, err error)
	// Summary is a line for the end of the run's summary: where the
	// benchmark's files are.
	Summary() string
}

// Grading says where a harness's grading goes.
type Grading struct {
	// Out names a file for one result line per graded answer (as
	// toolgrade eval writes them); "" for none.
	Out string
	// Report is given the benchmark's report (BFCL's score table).
	Report io.Writer
	// Note is told, one sentence at a time, what else the user should
	// know: answers skipped or repeated, how the files were read, answers
	// that could not be graded.
	Note func(string)
}
