package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/trace"
)

func (m *Main) extractCommand() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "extract [--format F] FILE",
		Short: "Print the tool calls in an agent trace (- for stdin)",
		Long: `Read an agent trace (JSON, JSON Lines, a text/event-stream body or a text
transcript), detect its format from the content, and print its tool calls
in call order as JSON:

  {"format": "...", "calls": [{"name", "args", "args_raw", "id", "output"}]}

"args_raw" appears only when the arguments were not valid JSON (args is then
null); a null id or output means the trace has none. A file that holds
several runs, each with its own id (a BFCL result file's lines, an ADK
EvalSet's eval cases, a StableToolBench predictions file's queries), prints
each run's calls with its id:

  {"format": "...", "records": [{"id": "...", "calls": [...]}]}

Items of the trace that the reader does not understand (an unknown message
role, content block, item, event or line type) are not dropped quietly:
each is listed on stderr with where it is and what it is, and the calls
around them are still printed. A --format that finds nothing of its format
in the file is an error.

Beneath every reader an audit looks for call-shaped objects (a tool_calls
entry, a tool_use block, an object with a name and arguments, ...; see
docs/traces.md) that the reader neither read, skipped nor knows not to be
calls. The calls read are printed, each missed object is listed on stderr,
and the exit status is 1: the list may be short. --format generic reads
every call-shaped object as a call, in document order; it is never
detected.

Formats: ` + strings.Join(trace.Formats(), ", ") + `.

Exit status: 0 on success; 1 when the audit found call-shaped objects the
reader did not read; 2 for bad usage, an unreadable file or a trace whose
shape is not recognized.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.runExtract(format, args[0])
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "", "read the trace as this format instead of detecting it")
	return cmd
}

func (m *Main) runExtract(format, path string) error {
	if format != "" && !slices.Contains(trace.Formats(), format) {
		if meant := suggest.Meant(format, trace.Formats()); len(meant) > 0 {
			return usageError("unknown --format %q; did you mean %s? (toolgrade help extract lists the formats)", format, suggest.Or(meant))
		}
		return usageError("unknown --format %q (want one of %s)", format, strings.Join(trace.Formats(), ", "))
	}
	if err := m.checkPaths(inputs("the trace file", path), nil); err != nil {
		return err
	}
	data, err := m.readFile(path)
	if err != nil {
		return usageError("%v", err)
	}
	if !sniff.IsZip(data) { // an Inspect .eval log is a zip archive the trace reader reads
		if data, err = sniff.Bytes(data); err != nil {
			return usageError("%s: %v", path, err)
		}
	}
	tr, err := trace.Read(data, format)
	var missed *trace.MissedError
	if err != nil && !errors.As(err, &missed) {
		return usageError("%s: %v", path, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, tr.AppendJSON(nil), "", "  "); err != nil {
		return fmt.Errorf("writing the calls: %w", err)
	}
	out.WriteByte('\n')
	if _, err := m.Stdout.Write(out.Bytes()); err != nil {
		return err
	}
	var msg bytes.Buffer
	if n := len(tr.Skipped); n > 0 {
		fmt.Fprintf(&msg, "toolgrade: %s: skipped %d %s not understood as %s:\n", path, n, plural(n, "item", "items"), tr.Format)
		for _, s := range tr.Skipped {
			fmt.Fprintf(&msg, "  %s\n", s)
		}
	}
	for _, n := range tr.Notes {
		fmt.Fprintf(&msg, "toolgrade: %s: %s\n", path, n)
	}
	if n := len(tr.Missed); n > 0 {
		fmt.Fprintf(&msg, "toolgrade: %s: %d call-shaped %s not read as %s (the calls above may be short; --format generic reads call-shaped objects in document order):\n",
			path, n, plural(n, "object", "objects"), tr.Format)
		for _, s := range tr.Missed {
			fmt.Fprintf(&msg, "  %s\n", s)
		}
	}
	if _, err := m.Stderr.Write(msg.Bytes()); err != nil {
		return err
	}
	if missed != nil {
		return &ExitError{Code: 1}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
