package leaderboard

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/toolgrade/toolgrade/runner"
)

// A Harness puts a model through BFCL's question files, as toolgrade run
// does with them (a [runner.Harness]): each question entry sends its
// single turn and its function docs ([Harness.Prompt]), each answer is
// written to a result file per question file besides the run file, and
// the result files are graded against possible_answer/ beside the
// question files, as [Data.GradeFiles] grades them.
type Harness struct {
	// Questions says the datasets are BFCL question files whatever their
	// names and shape. Otherwise they are when every one is named
	// BFCL_v<N>_<category>.json or opens with a {"question", "function"}
	// entry.
	Questions bool
	// Dir is the directory for the result files; "" for the run file's
	// name with ".bfcl" for its extension.
	Dir string

	questionFiles []string
	w             *resultWriter
}

var _ runner.Harness = (*Harness)(nil)

// Own reports whether the datasets are BFCL question files (see
// [Harness.Questions]); it is an error when some are and some not, since
// they cannot be run together. Standard input ("-") is never one.
func (h *Harness) Own(datasets []string) (bool, error) {
	own := h.Questions
	if !own {
		var err error
		if own, err = detectQuestions(datasets); err != nil {
			return false, err
		}
	}
	if own {
		h.questionFiles = datasets
	}
	return own, nil
}

// Trials allows one trial only: a result file holds one answer per entry.
func (h *Harness) Trials(n int) error {
	if n > 1 {
		return errors.New("BFCL mode runs each entry once (BFCL's result files hold one answer per entry)")
	}
	return nil
}

// Start begins the result files, BFCL_v4_simple_python_result.json for
// BFCL_v4_simple_python.json, in [Harness.Dir] (each written beside its
// name and put in place by Close, so a killed run leaves the earlier
// ones), and reads the possible
// answers beside the question files. The question files must be named
// (not "-") and share a directory.
func (h *Harness) Start(record string) error {
	dir := h.Dir
	if dir == "" {
		dir = strings.TrimSuffix(record, filepath.Ext(record)) + ".bfcl"
	}
	w, err := newResultWriter(dir, h.questionFiles)
	if err != nil {
		return err
	}
	h.w = w
	return nil
}

// Record writes the run's answer to the result file of its question file,
// first giving the case its entry's possible answer (possible_answer) when
// the data has one and the case has none, so that the run file grades
// with the bfcl profile. A run whose case could not be read is not
// written.
func (h *Harness) Record(run *runner.Run) error {
	a := &Answer{ID: run.ID, Calls: run.Calls, Text: run.Text, Error: run.Error, Usage: run.Usage, Latency: run.Latency}
	return h.w.Write(run.Case, a)
}

// Close flushes the result files and puts them in place.
func (h *Harness) Close() error { return h.w.Close() }

// Grade grades the result files against the question files' folder, as
// [Data.GradeFiles] does, deciding per file how the names were read. When
// the folder cannot be graded (a question file not named
// BFCL_v<N>_<category>.json, an AST category without possible answers)
// nothing is graded, passed is true, and a note says why.
func (h *Harness) Grade(ctx context.Context, to runner.Grading) (passed bool, err error) {
	if !h.w.gradable {
		note(to, "not graded: toolgrade bfcl wants question files named BFCL_v<N>_<category>.json with possible_answer/ beside them ("+h.w.data+")")
		return true, nil
	}
	data, err := OpenData(h.w.data)
	if err != nil {
		return false, err
	}
	return data.GradeFiles(ctx, h.w.files, DetectCalling, to)
}

// Summary says where the result files are.
func (h *Harness) Summary() string { return "BFCL results: " + h.w.dir }
