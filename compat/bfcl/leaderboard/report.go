package leaderboard

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/toolgrade/toolgrade/internal/outfile"
	"github.com/toolgrade/toolgrade/runner"
)

// GradeFiles grades a model's result files (or directories of them, see
// [ReadResults]) against the data, as toolgrade bfcl does: every file's
// names are read as calling says ([DetectCalling]: decided per file),
// each graded entry's result line goes to the file to.Out names, BFCL's
// score table to to.Report, and to.Note is told of repeated entries, the
// files whose reading was decided, skipped categories, entries that could
// not be graded and categories with questions left unanswered. passed is
// false when an entry is invalid or could not be graded; err is a file
// that could not be read or written, in which case nothing is reported
// but the repeats read before it.
func (d *Data) GradeFiles(ctx context.Context, results []string, calling Calling, to runner.Grading) (passed bool, err error) {
	rs, err := ReadResults(results...)
	for _, r := range rs.Repeats {
		note(to, r.String())
	}
	if err != nil {
		return false, err
	}
	for i := range rs.Entries {
		rs.Entries[i].Calling = calling
	}
	scores, err := d.Grade(ctx, rs.Entries)
	if err != nil {
		return false, err
	}
	for _, c := range scores.Calling {
		note(to, c.String())
	}
	for _, s := range scores.Skipped {
		note(to, s.String())
	}

	var out *bufio.Writer
	var outFile *outfile.File // put in place once whole
	if to.Out != "" {
		outFile, err = outfile.Create(to.Out)
		if err != nil {
			return false, err
		}
		defer outFile.Abort()
		out = bufio.NewWriter(outFile)
	}
	var line []byte
	for _, g := range scores.Entries {
		if g.Result.Error != "" {
			note(to, fmt.Sprintf("%s: %s: %s", g.Where, g.ID, g.Result.Error))
		}
		if out != nil {
			line = append(g.AppendJSON(line[:0]), '\n')
			if _, err := out.Write(line); err != nil {
				return false, err
			}
		}
	}
	if out != nil {
		if err := out.Flush(); err != nil {
			return false, err
		}
		if err := outFile.Commit(); err != nil {
			return false, err
		}
	}
	for _, t := range scores.Categories {
		if n := t.Missing(); n > 0 {
			note(to, fmt.Sprintf("%s: %d of %d entries have no result and are not counted", t.Category, n, t.Questions))
		}
	}
	report := to.Report
	if report == nil {
		report = io.Discard
	}
	scores.WriteTable(report) // a report that cannot be written does not change the verdict
	return scores.AllValid(), nil
}

// note tells to.Note, when set.
func note(to runner.Grading, msg string) {
	if to.Note != nil {
		to.Note(msg)
	}
}
