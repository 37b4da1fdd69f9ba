package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/snapshot"
	"github.com/toolgrade/toolgrade/trace"
)

// tracePath names a trace file or folder snapshot reads, for messages.
const tracePath = "the trace path"

type snapshotFlags struct {
	eval   evalFlags // for --check
	format string
	check  string
	update bool
}

func (m *Main) snapshotCommand() *cobra.Command {
	var f snapshotFlags
	cmd := &cobra.Command{
		Use:   "snapshot [--format F] [--out FILE] TRACE... | snapshot --check CASES [--update] [eval flags] TRACE...",
		Short: "Turn traces of good runs into regression cases, and check new runs against them",
		Long: `Turn each trace (a file in any format extract reads, each record of a
multi-record file, each line of a run file; a folder's files) into a case:
its id (the file's name, or the record's id), its input (the user's first
message), its expected calls in order with their arguments and status, and
the argument rules that let it pass the same behaviour on other data:

  - an argument equal to a value an earlier call returned becomes a from
    rule on that output's path ("find_order.output.id");
  - a volatile value found nowhere earlier (an ISO 8601 date or date-time,
    a UUID, an idempotency key, nonce or request id, a Unix time under a
    time-named argument) is not compared ("ignore");
  - a value from the user's input, and any other, stays as recorded;
  - a call that failed is kept, expected with "status": "error", which
    only a call that failed satisfies: a run that fails and retries as
    the recorded one did passes; one that gives up after the failure, or
    never fails, does not.

A trace with calls its reader did not read (the audit of extract) is an
error, never a case that expects too little.

The cases go to stdout or --out (written whole or not at all); every rule
is listed on stderr with its reason, for review (docs/snapshots.md).

With --check CASES, grade the traces against the accepted cases of that
file, by id, as eval grades cases: the same config and metric flags, the
same results, reports and exit status. --update then rewrites the cases
that did not pass with their traces' new snapshots (and adds traces with
no case), printing what changed in their expected calls; cases that passed
stay byte for byte.

Exit status: 0 on success (for --check: every case passed; with --update:
the cases file was updated); 1 when --check finds a case that failed or
could not be graded; 2 for bad usage, an unreadable trace or cases file.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.check != "" {
				return m.runSnapshotCheck(cmd, &f, args)
			}
			return m.runSnapshot(cmd, &f, args)
		},
	}
	fs := cmd.Flags()
	f.eval.register(fs)
	fs.Lookup("out").Usage = "write the cases to this file instead of stdout; with --check, the results, as eval does"
	fs.StringVarP(&f.format, "format", "f", "", "read the traces as this format instead of detecting it")
	fs.StringVar(&f.check, "check", "", "grade the traces against the accepted cases of this file, by id")
	fs.BoolVar(&f.update, "update", false, "with --check: rewrite the cases that did not pass with their traces' snapshots, and add the traces that have no case")
	return cmd
}

// snapshotOwnFlags are the flags that do not need --check.
var snapshotOwnFlags = []string{"format", "out", "quiet", "check", "update"}

// checkUsage refuses flags that mean nothing for the mode chosen.
func (f *snapshotFlags) checkUsage(fs *pflag.FlagSet) error {
	if f.format != "" && !slices.Contains(trace.Formats(), f.format) {
		return usageError("snapshot: unknown --format %q (want one of %s)", f.format, strings.Join(trace.Formats(), ", "))
	}
	if f.check != "" {
		return nil
	}
	if f.update {
		return usageError("snapshot: --update rewrites an accepted cases file: give it with --check CASES (toolgrade snapshot --check cases.jsonl --update TRACE...)")
	}
	var grading []string
	fs.Visit(func(fl *pflag.Flag) {
		if !slices.Contains(snapshotOwnFlags, fl.Name) {
			grading = append(grading, "--"+fl.Name)
		}
	})
	if len(grading) > 0 {
		return usageError("snapshot: %s %s a check: give %s with --check CASES", strings.Join(grading, ", "), plural(len(grading), "grades", "grade"), plural(len(grading), "it", "them"))
	}
	return nil
}

func (m *Main) runSnapshot(cmd *cobra.Command, f *snapshotFlags, paths []string) error {
	if err := f.checkUsage(cmd.Flags()); err != nil {
		return err
	}
	out := namedPath{"--out", f.eval.out}
	if err := m.checkPaths(inputs(tracePath, paths...), []namedPath{out}); err != nil {
		return err
	}
	var file *output // nil: stdout
	if out.path != "" && out.path != "-" {
		var err error
		if file, err = m.output(out.path, false); err != nil {
			return usageError("snapshot: %s: %v", out.role, err)
		}
		defer file.Abort()
	}
	runs, err := snapshot.Files(paths, f.format, m.Stdin)
	if err != nil {
		return usageError("snapshot: %v", err)
	}
	var cases, msg bytes.Buffer
	froms, ignores := 0, 0
	for _, r := range runs {
		s := snapshot.Take(r)
		cases.Write(s.AppendJSON(nil))
		cases.WriteByte('\n')
		writeNotes(&msg, s, !f.eval.quiet)
		for _, n := range s.Notes {
			switch n.Rule {
			case "from":
				froms++
			case "ignore":
				ignores++
			}
		}
	}
	if file == nil {
		if _, err := m.Stdout.Write(cases.Bytes()); err != nil {
			return err
		}
	} else if err := file.writeAll(cases.Bytes()); err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	if !f.eval.quiet {
		fmt.Fprintf(&msg, "%d %s, %d from %s, %d ignore %s", len(runs), plural(len(runs), "case", "cases"),
			froms, plural(froms, "rule", "rules"), ignores, plural(ignores, "rule", "rules"))
		if file != nil {
			fmt.Fprintf(&msg, "; wrote %s", file.Name())
		}
		msg.WriteByte('\n')
	}
	_, err = m.Stderr.Write(msg.Bytes())
	return err
}

// writeNotes lists a snapshot's notes, when notes is set, and the items
// of its trace that were not understood, always, under a line naming its
// case.
func writeNotes(w *bytes.Buffer, s *snapshot.Snapshot, notes bool) {
	r := s.Run
	if !notes && len(r.Warnings) == 0 {
		return
	}
	fmt.Fprintf(w, "%s (%s, %s): %d %s\n", r.ID, r.Where(), r.Format, len(r.Calls), plural(len(r.Calls), "call", "calls"))
	if notes {
		for _, n := range s.Notes {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
}

func (m *Main) runSnapshotCheck(cmd *cobra.Command, f *snapshotFlags, paths []string) error {
	if err := f.checkUsage(cmd.Flags()); err != nil {
		return err
	}
	if f.check == "-" {
		return usageError("snapshot: --check takes the cases file by name, not standard input (--update rewrites it; the traces may be -)")
	}
	// The cases file is read, and, with --update, rewritten: an output
	// then, that no trace, result file or report may be. grade checks it
	// with its own inputs and outputs, before it writes anything.
	check := namedPath{"--check", f.check}
	in := gradeInput{paths: paths, role: tracePath}
	if f.update {
		in.outputs = []namedPath{check}
	} else {
		in.inputs = []namedPath{check}
	}
	data, err := os.ReadFile(f.check)
	switch {
	case errors.Is(err, fs.ErrNotExist) && f.update:
		data = nil // a new cases file
	case errors.Is(err, fs.ErrNotExist):
		return usageError("snapshot: %s does not exist: accept a first snapshot with toolgrade snapshot --out %s TRACE..., or add --update", f.check, f.check)
	case err != nil:
		return usageError("snapshot: %v", err)
	}
	cases, err := snapshot.ReadCases(f.check, data)
	if err != nil {
		return usageError("snapshot: %v", err)
	}
	runs, err := snapshot.Files(paths, f.format, m.Stdin)
	if err != nil {
		return usageError("snapshot: %v", err)
	}
	var rewrite *output // the cases file, with --update
	if f.update {
		if rewrite, err = m.output(f.check, false); err != nil {
			return usageError("snapshot: %s: %v", check.role, err)
		}
		defer rewrite.Abort()
	}
	failed := map[string]bool{}
	in.read = func() iter.Seq2[toolgrade.Record, error] { return cases.Records(runs) }
	in.seen = func(r *toolgrade.Result) {
		if !r.Success {
			failed[r.ID] = true
		}
	}
	err = m.grade(cmd, f.eval, in)
	var exit *ExitError
	if err != nil && (!errors.As(err, &exit) || exit.Code != 1) {
		return err
	}
	var msg bytes.Buffer
	if ids := cases.Unchecked(runs); len(ids) > 0 && !f.eval.quiet {
		fmt.Fprintf(&msg, "%d %s of %s had no trace, not checked: %s\n", len(ids), plural(len(ids), "case", "cases"), f.check, listIDs(ids))
	}
	if !f.update {
		m.Stderr.Write(msg.Bytes())
		return err
	}
	var snaps []*snapshot.Snapshot
	for _, r := range runs {
		if failed[r.ID] {
			snaps = append(snaps, snapshot.Take(r))
		}
	}
	if len(snaps) == 0 {
		fmt.Fprintf(&msg, "%s: every case passed; nothing to update\n", f.check)
		m.Stderr.Write(msg.Bytes())
		return nil
	}
	newData, changes := cases.Update(snaps)
	if err := rewrite.writeAll(newData); err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	added := 0
	for _, c := range changes {
		if c.Old == nil {
			added++
		}
		fmt.Fprintf(&msg, "%s:\n", c.Where(f.check))
		for _, line := range c.Diff() {
			fmt.Fprintf(&msg, "  %s\n", line)
		}
		for _, s := range snaps {
			if s.ID() == c.ID && !f.eval.quiet {
				for _, n := range s.Notes {
					fmt.Fprintf(&msg, "  note %s\n", n)
				}
			}
		}
	}
	fmt.Fprintf(&msg, "updated %s: %d %s replaced, %d added\n", f.check, len(changes)-added, plural(len(changes)-added, "case", "cases"), added)
	_, err = m.Stderr.Write(msg.Bytes())
	return err
}

// listIDs lists ids for a message, the first ten.
func listIDs(ids []string) string {
	if len(ids) > 10 {
		return strings.Join(ids[:10], ", ") + fmt.Sprintf(", and %d more", len(ids)-10)
	}
	return strings.Join(ids, ", ")
}
