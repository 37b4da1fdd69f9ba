package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// MaxFile bounds the size of a file read: a trace is read whole, and
// twice at worst (as records, then as one trace).
const MaxFile = 256 << 20

// Files reads the runs in the named files and folders, in order: a
// folder's files at any depth, sorted by path, skipping hidden files and
// folders (names starting with "."). "-" is standard input, read from
// stdin. A run's id is its record's (see [Read]), else its file's name
// without its last extension; in a folder, its path from the folder
// ("retail/cancel" for retail/cancel.json). format forces a trace format
// (see trace.Formats); "" detects it.
//
// Two runs with one id are an error naming both: a case is found by its
// id. So is a file that holds no run, a folder with no file, and a file
// that is no trace, naming the file.
func Files(paths []string, format string, stdin io.Reader) ([]*Run, error) {
	var runs []*Run
	for _, p := range paths {
		rs, err := readPath(p, format, stdin)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rs...)
	}
	seen := make(map[string]*Run, len(runs))
	for _, r := range runs {
		if first, dup := seen[r.ID]; dup {
			return nil, fmt.Errorf("two runs have the id %q, %s and %s: a case is found by its id, so each run needs its own (rename a file, or give records distinct ids; several trials of one case are snapshot one at a time)", r.ID, first.Where(), r.Where())
		}
		seen[r.ID] = r
	}
	return runs, nil
}

func readPath(p, format string, stdin io.Reader) ([]*Run, error) {
	if p == "-" {
		data, err := io.ReadAll(io.LimitReader(stdin, MaxFile+1))
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return Read("-", "stdin", data, format)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		data, err := readFile(p)
		if err != nil {
			return nil, err
		}
		return Read(p, fileID(filepath.Base(p)), data, format)
	}
	var runs []*Run
	files := 0
	err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name != p && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
			return err // a link to a folder, a device: not a trace file
		}
		files++
		data, err := readFile(name)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(p, name)
		if err != nil {
			return err
		}
		rs, err := Read(name, fileID(filepath.ToSlash(rel)), data, format)
		runs = append(runs, rs...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if files == 0 {
		return nil, fmt.Errorf("%s: a folder with no trace files in it", p)
	}
	return runs, nil
}

func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFile+1))
}

// fileID is a file's path without its last extension.
func fileID(name string) string {
	if ext := filepath.Ext(name); ext != "" && len(ext) < len(name) {
		return name[:len(name)-len(ext)]
	}
	return name
}

// Read reads the runs in one file's data; name is the file's name for
// messages and the runs' Source, and id the id of a file that is one run.
//
// The file is, in this order of trial:
//
//   - a case file or a toolgrade run file (JSON Lines, a JSON array or one
//     object, each record a case with its recorded calls: tools_called, a
//     trajectory beside another field of the case format such as id,
//     input or expected_tools, or turns that hold them): one run per
//     record, its calls as eval reads them, its id the record's (else id-N
//     for the Nth record);
//   - a trace in any format package trace reads (format forces one): one
//     run, or one per record of a file that holds several ([trace.Record]:
//     a BFCL result file's lines, an Inspect AI log's samples, a τ²-bench
//     results file's simulations, an ADK EvalSet's eval cases), its id the
//     record's, else id-N;
//   - JSON Lines or a JSON array whose records are traces each (τ-bench
//     results, request bodies logged one per line): one run per record,
//     its id the record's "id", else id-N.
//
// A trace whose audit found call-shaped objects its reader did not read
// ([trace.ErrMissed]) is an error: its calls may be short, and a case
// made of them would expect too little. So is a record that is a case
// with no recorded calls (expected_tools only: a cases file given as a
// trace), a file of no format and an empty one.
func Read(name, id string, data []byte, format string) ([]*Run, error) {
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB: split it into one file per run", name, MaxFile>>20)
	}
	if !sniff.IsZip(data) { // an Inspect .eval log is a zip archive its reader reads
		var err error
		if data, err = sniff.Bytes(data); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")))) == 0 {
		return nil, fmt.Errorf("%s: an empty file: no trace to snapshot", name)
	}
	recs := records(data)
	cases := 0
	for _, r := range recs {
		switch {
		case expectedOnly(r.obj):
			return nil, fmt.Errorf("%s: a case without recorded calls, not a run: it has expected calls but neither tools_called nor a trajectory (is it a cases file? toolgrade snapshot --check %s TRACE... checks traces against it)", r.where(name), name)
		case isCase(r.obj):
			cases++
		}
	}
	if format == "" && cases > 0 {
		if cases < len(recs) {
			return nil, fmt.Errorf("%s: some records are cases with recorded calls and some are not: give one kind per file", name)
		}
		return caseRuns(name, id, recs)
	}
	tr, err := trace.Read(data, format)
	switch {
	case err == nil:
		return traceRuns(tr, name, id, 0), nil
	case errors.Is(err, trace.ErrMissed):
		return nil, missed(name, err)
	case len(recs) > 1 && (errors.Is(err, trace.ErrUnknownFormat) || errors.Is(err, trace.ErrNotThisFormat)):
		if runs, rerr := recordRuns(name, id, recs, format); rerr == nil {
			return runs, nil
		} else if !errors.Is(rerr, errFirstRecord) {
			return nil, rerr
		}
	}
	return nil, fmt.Errorf("%s: %w", name, err)
}

// missed is the error of a trace whose audit found calls not read.
func missed(where string, err error) error {
	return fmt.Errorf("%s: %w; a trace that may be read short is neither snapshot nor checked", where, err)
}

// A record is one JSON object of a file that may hold several.
type record struct {
	obj   jsonvalue.Object
	line  int // the line it starts on, for JSON Lines; 0 otherwise
	index int // its index in the file, from 1
	many  bool
}

func (r record) where(name string) string {
	switch {
	case r.line > 0 && r.many:
		return name + ":" + strconv.Itoa(r.line)
	case r.index > 0 && r.many:
		return fmt.Sprintf("%s: record %d", name, r.index)
	}
	return name
}

// records splits data into JSON objects: one object, a JSON array of
// objects, or JSON Lines of objects; nil when data is none of these.
func records(data []byte) []record {
	t := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")))
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return nil
	}
	if v, err := jsonvalue.Parse(t); err == nil {
		switch v := v.(type) {
		case jsonvalue.Object:
			return []record{{obj: v, index: 1}}
		case []any:
			out := make([]record, 0, len(v))
			for k, e := range v {
				o, ok := e.(jsonvalue.Object)
				if !ok {
					return nil
				}
				out = append(out, record{obj: o, index: k + 1, many: len(v) > 1})
			}
			return out
		}
		return nil
	}
	var out []record
	for n, line := range bytes.Split(t, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := jsonvalue.Parse(line)
		o, ok := v.(jsonvalue.Object)
		if err != nil || !ok {
			return nil
		}
		out = append(out, record{obj: o, line: n + 1, index: len(out) + 1})
	}
	for k := range out {
		out[k].many = len(out) > 1
	}
	return out
}

// The keys of a case's recorded calls, of its expected ones, and of the
// other fields of the case format (docs/cases.md).
var (
	calledKeys   = []string{"tools_called", "toolsCalled", "trajectory", "agent_trajectory"}
	expectedKeys = []string{"expected_tools", "expectedTools", "reference_tool_calls", "expected_trajectory", "expected_agent_trajectory"}
	caseKeys     = append([]string{"id", "input", "query", "turns", "trial", "expected_output"}, expectedKeys...)
	// spanKeys mark a DeepEval trace export, whose toolsCalled are a
	// span's, not a case's.
	spanKeys = []string{"baseSpans", "toolSpans", "llmSpans", "agentSpans", "retrieverSpans"}
)

// isCase reports a record that is a case with recorded calls: a case
// file's or a run file's line. A record holding a trajectory is a case
// when it has another field of the case format; a trace format's own
// record that holds one (a SWE-agent or OpenHands trajectory) has none.
func isCase(o jsonvalue.Object) bool {
	switch {
	case hasAny(o, spanKeys):
		return false
	case o.Has("tools_called") || o.Has("toolsCalled") || o.Has("run"):
		return true
	}
	return hasCalled(o) && hasAny(o, caseKeys)
}

// hasCalled reports a record with recorded calls under a key of the case
// format, its own or its turns'; a Ragas sample's user_input when it is a
// list of messages.
func hasCalled(o jsonvalue.Object) bool {
	if ui, ok := o.Get("user_input"); ok {
		if _, isList := ui.([]any); isList {
			return true
		}
	}
	turns, _ := o.Get("turns")
	list, _ := turns.([]any)
	return hasAny(o, calledKeys) || slices.ContainsFunc(list, func(t any) bool {
		to, _ := t.(jsonvalue.Object)
		return hasAny(to, calledKeys)
	})
}

// expectedOnly reports a case with expected calls and no recorded ones.
func expectedOnly(o jsonvalue.Object) bool {
	return hasAny(o, expectedKeys) && !hasCalled(o) && !hasAny(o, spanKeys) && !o.Has("run")
}

func hasAny(o jsonvalue.Object, keys []string) bool {
	return slices.ContainsFunc(keys, o.Has)
}

// caseRuns reads case records: their calls as eval reads them.
func caseRuns(name, id string, recs []record) ([]*Run, error) {
	runs := make([]*Run, 0, len(recs))
	for _, r := range recs {
		if msg := runError(r.obj); msg != "" {
			return nil, fmt.Errorf("%s: the run failed (%s): no calls to snapshot", r.where(name), msg)
		}
		c, err := dataset.DecodeCase(r.obj)
		switch {
		case errors.Is(err, trace.ErrMissed):
			return nil, missed(r.where(name), err)
		case err != nil:
			return nil, fmt.Errorf("%s: %w", r.where(name), err)
		}
		run := &Run{ID: c.ID, Source: name, Line: r.line, Format: "case", Input: c.Input, Calls: c.Called, Warnings: c.Warnings}
		if run.ID == "" {
			run.ID = recordID(id, r, len(recs))
		}
		for _, t := range c.Turns {
			run.Inputs = append(run.Inputs, t.Input)
		}
		if run.Input == nil && len(run.Inputs) > 0 {
			run.Input = run.Inputs[0]
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// runError is the error of a run-file line whose run failed (run.error).
func runError(o jsonvalue.Object) string {
	run, _ := o.Get("run")
	ro, _ := run.(jsonvalue.Object)
	msg, _ := ro.Get("error")
	s, _ := msg.(string)
	return s
}

func recordID(fileID string, r record, n int) string {
	if n == 1 {
		return fileID
	}
	return fileID + "-" + strconv.Itoa(r.index)
}

// errFirstRecord marks a failure on a file's first record: the file is
// then not taken for records of traces, and the error of reading it as
// one trace stands.
var errFirstRecord = errors.New("first record")

// recordRuns reads each record as a trace of its own.
func recordRuns(name, id string, recs []record, format string) ([]*Run, error) {
	runs := make([]*Run, 0, len(recs))
	for k, r := range recs {
		tr, err := trace.Extract(r.obj, format)
		switch {
		case errors.Is(err, trace.ErrMissed):
			return nil, missed(r.where(name), err)
		case err != nil && k == 0:
			return nil, errFirstRecord
		case err != nil:
			return nil, fmt.Errorf("%s: %w (the records before it were read as traces, one run each)", r.where(name), err)
		}
		runs = append(runs, traceRuns(tr, name, ownID(r.obj, recordID(id, r, len(recs))), r.line)...)
	}
	return runs, nil
}

// ownID is a record's "id" (a string or a number), else def.
func ownID(o jsonvalue.Object, def string) string {
	switch v, _ := o.Get("id"); v := v.(type) {
	case string:
		if v != "" {
			return v
		}
	case json.Number:
		return string(v)
	}
	return def
}

// traceRuns returns the runs of a trace read from a file, or from the
// record of a file that starts on line: the trace itself, with id, or
// each of its records (see [trace.Trace.Runs]), with its own id, else
// id-N for the Nth, or id when it is the only one. The trace's notes
// (read by shape, audit budgets) are every run's warnings.
func traceRuns(tr trace.Trace, name, id string, line int) []*Run {
	recs := tr.Runs()
	runs := make([]*Run, len(recs))
	for k, rec := range recs {
		r := &Run{ID: id, Source: name, Line: line, Format: tr.Format, Inputs: rec.Inputs, Calls: rec.Calls,
			Warnings: append(rec.Warnings(), tr.Notes...)}
		if tr.Records != nil {
			r.ID, r.Record = rec.ID, rec.Where
			if r.ID == "" {
				r.ID = recordID(id, record{index: k + 1}, len(recs))
			}
			if rec.Line > 0 {
				r.Line, r.Record = rec.Line, ""
			}
		}
		if len(r.Inputs) > 0 {
			r.Input = r.Inputs[0]
		}
		runs[k] = r
	}
	return runs
}
