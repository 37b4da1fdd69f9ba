// Package dataset reads cases from files: JSON Lines, a JSON array (or
// whitespace-separated JSON values), and YAML (a list of cases, or one case
// per document); a Google ADK EvalSet or EvalSetResult is read as its eval
// cases (adk.go). Reading streams: records are split off the input one at a
// time and decoded later, on [toolgrade.Evaluate]'s workers, so memory does
// not grow with the file.
//
// A record that cannot be decoded becomes an error result naming the file,
// the line the record starts on and the field; the run goes on. Only an
// input that cannot be read or split at all stops it, and one that is not
// a case file, as its first bytes or its first record tell (compressed,
// UTF-16 without a byte-order mark, CSV, a results file, a config: see
// package internal/sniff): that is refused whole, naming what it is.
// [Sniff] reads that far only, for a caller to check its inputs first.
//
// Nothing is read as nothing: a field that looks like a misspelled case
// field is an error (an [UnknownFieldError]), other unknown fields are
// kept as metadata and reported once (or made errors, with
// Checker.StrictFields), and a record with nothing to grade is an error
// ([ErrNothingToGrade]), never a perfect score.
//
// Non-goals: what a case's calls mean (the metrics decide), reading
// traces (package trace, through a case's trajectory), and fetching
// anything over the network.
package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Format is a file format for cases.
type Format string

const (
	// Auto picks the format from the file name, else from the content.
	Auto Format = ""
	// JSONL is one JSON object per line.
	JSONL Format = "jsonl"
	// JSON is a JSON array of objects, or objects one after another.
	JSON Format = "json"
	// YAML is a YAML list of objects, or one object per document.
	YAML Format = "yaml"
)

// formatOf picks a format from a file name.
func formatOf(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return JSONL
	case ".json":
		return JSON
	case ".yaml", ".yml":
		return YAML
	}
	return Auto
}

// Files reads the named files one after another; "-" is standard input.
// A file that cannot be opened or split is a fatal error naming it. When
// there are several files, a case without an id of its own is named
// "FILE:line-N" rather than "line-N": line numbers repeat across files,
// and two cases with one id would read as two trials of one case.
func Files(names ...string) iter.Seq2[toolgrade.Record, error] {
	return Source{}.Files(names...)
}

// FilesFrom is [Files] with standard input read from stdin.
func FilesFrom(stdin io.Reader, names ...string) iter.Seq2[toolgrade.Record, error] {
	return Source{Stdin: stdin}.Files(names...)
}

// File reads one file; "-" is standard input.
func File(name string) iter.Seq2[toolgrade.Record, error] {
	return Source{}.Files(name)
}

// Reader reads cases from r; name is used in error messages and results,
// and, with format Auto, its extension picks the format (.jsonl, .json,
// .yaml) before the content does.
func Reader(name string, r io.Reader, format Format) iter.Seq2[toolgrade.Record, error] {
	return Source{}.Reader(name, r, format)
}

// A Source reads case files within a budget: a record (a line of JSON
// Lines, an element of a JSON array, a YAML document or list item) larger
// than MaxRecord is a fatal error naming the file, the line the record
// starts on and the budget, found before more than about twice the budget
// is held, however long the input (an endless line, /dev/zero). The zero
// Source reads standard input for "-" within the default budget.
type Source struct {
	// Stdin is read for "-" (nil: os.Stdin).
	Stdin io.Reader
	// MaxRecord is the most bytes one record may hold (0:
	// budget.DefaultLine, 64 MiB).
	MaxRecord int64
	// Metrics, when set, are the run's: records decode their cases for
	// them, as [DecodeCaseFor] does (see [RecordsFor]).
	Metrics []toolgrade.Metric

	checks *decodeChecks // see Checked
}

// Checked returns s with the case of each record it reads checked as the
// record decodes, as [toolgrade.CheckCases] would check it with the
// functions before, in order up to the first error, and then with
// ch.CheckCase (toolgrade eval's: runner.CheckRun, then its Checker), but
// without the Checker's second pass over the case's keys: decoding reads
// them all already. A check's error is the record's, and makes the case's
// result the error result it would have made. The cases of its records
// are checked so once: give ch.CheckCase to Evaluate only for others. A
// nil ch checks with the functions before alone.
func (s Source) Checked(ch *Checker, before ...func(*toolgrade.Case) error) Source {
	s.checks = &decodeChecks{before: before, checker: ch}
	return s
}

// Files reads the named files one after another, as [Files] does.
func (s Source) Files(names ...string) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		for _, name := range names {
			if !s.read(name, len(names) > 1, yield) {
				return
			}
		}
	}
}

// RecordsFor passes src on with the records this package reads set to
// decode their cases for a run of metrics, as [DecodeCaseFor] does; other
// records pass unchanged. [Source.Metrics] does so without a pass.
func RecordsFor(metrics []toolgrade.Metric, src iter.Seq2[toolgrade.Record, error]) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		// The records of a file share what they hold of it: a record is
		// given a copy with the run's metrics, one copy for each file.
		var from, to *recordFile
		for rec, err := range src {
			if r, ok := rec.(*record); ok {
				if r.file != from {
					from = r.file
					f := *r.file
					f.metrics = metrics
					to = &f
				}
				r.file = to
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}

// read reads the named file ("-": standard input), its records qualified
// by its name when it is one of several; it reports whether to go on.
func (s Source) read(name string, qualified bool, yield func(toolgrade.Record, error) bool) bool {
	r := s.Stdin
	if r == nil {
		r = os.Stdin
	}
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			yield(nil, err)
			return false
		}
		defer f.Close()
		if sniff.IsDirectory(name) {
			yield(nil, &sniff.DirectoryError{Name: name})
			return false
		}
		r = f // read as text by Reader
	}
	return s.reader(name, r, Auto, qualified, yield)
}

// Reader reads cases from r, as [Reader] does.
func (s Source) Reader(name string, r io.Reader, format Format) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		s.reader(name, r, format, false, yield)
	}
}

// reader reads cases from r, as [Reader] does, and reports whether to go
// on: false once yield says to stop, or after a fatal error (yielded).
func (s Source) reader(name string, r io.Reader, format Format, qualified bool, yield func(toolgrade.Record, error) bool) bool {
	if format == Auto {
		format = formatOf(name)
	}
	sp := splitter{file: &recordFile{source: name, qualified: qualified, metrics: s.Metrics, checks: s.checks}, max: int(s.MaxRecord)}
	if sp.max <= 0 {
		sp.max = int(budget.DefaultLine)
	}
	fail := func(err error) bool {
		yield(nil, err)
		return false
	}
	text, err := sniff.Text(r)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", name, err))
	}
	br := bufio.NewReaderSize(text, 64<<10)
	if format == Auto || format == JSON {
		first, err := peekNonSpace(br)
		if err != nil && err != io.EOF {
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		switch {
		case err == io.EOF:
			return true // empty input: no cases
		case first == '[':
			format = JSON
		case first == '{':
			format = JSONL // decided line by line below
		case first == '"' && format == JSON:
			err := sp.readQuoted(br, yield)
			if err != nil && !errors.Is(err, errStop) {
				return fail(err)
			}
			return err == nil
		default:
			line := peekLine(br)
			if format == JSON {
				return fail(fmt.Errorf("%s:1: not a JSON case file: it starts with %q, where a JSON case file holds an array of case objects or the objects one after another (see docs/cases.md)", name, line))
			}
			if sep := sniff.CSV(line); sep != "" || isCSVName(name) {
				return fail(csvError(name, line, sep))
			}
			format = YAML
		}
	}
	// The first record says what kind of file this is: one of
	// toolgrade's other files is refused whole, with what to do. An ADK
	// eval file's record is its eval cases.
	sp.yield, sp.first = yield, true
	switch format {
	case JSONL:
		err = sp.readLines(br)
	case JSON:
		err = sp.readValues(br, 1)
	case YAML:
		err = sp.readYAML(br)
	default:
		err = fmt.Errorf("unknown format %q", format)
	}
	if err != nil && !errors.Is(err, errStop) {
		if de := sniff.Failed(text); de != nil {
			// Said once, with its line, whatever the reader made of it.
			err = fmt.Errorf("%s:%d: %s", name, de.Line, de.Msg)
		}
		return fail(err)
	}
	return err == nil
}

// Sniff reads r's first case as [Reader] does, and returns the error that
// would stop the reading there: an input that is not text (compressed, an
// archive, UTF-16 without a byte-order mark), or a file of another kind
// (a results file, a config, CSV). A caller checks its inputs so before
// grading, to fail before any output. Records that do not decode are not
// errors here: they are error results of their own.
func Sniff(name string, r io.Reader) error {
	return Source{}.Sniff(name, r)
}

// Sniff is [Sniff] within the Source's record budget.
func (s Source) Sniff(name string, r io.Reader) error {
	for _, err := range s.Reader(name, r, Auto) {
		return err
	}
	return nil
}

// notCases returns an error when the record, the first of its file, shows
// the file to be one of toolgrade's other files rather than cases.
func (r *record) notCases() error {
	v, err := r.value(nil)
	if err != nil {
		return nil // an error result of its own
	}
	switch sniff.Document(v) {
	case sniff.Result:
		return fmt.Errorf("%s:%d: a toolgrade results file, not cases (the line is a result: %s); to compare two runs' results, use toolgrade compare BASE NEW; to grade again, give the cases they came from", r.file.source, r.line, sniff.Keys(v.(jsonvalue.Object), 6))
	case sniff.Config:
		return fmt.Errorf("%s: a toolgrade config, not cases (keys %s): give it with --config %s, and the case files as arguments or under its datasets", r.file.source, sniff.Keys(v.(jsonvalue.Object), 6), r.file.source)
	}
	return nil
}

// peekLine returns the input's first line (at most 4 KiB of it) without
// consuming it, waiting for no more than that line.
func peekLine(br *bufio.Reader) string {
	for {
		b, err := br.Peek(br.Buffered())
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return strings.TrimSpace(string(b[:i]))
		}
		if err != nil || len(b) >= 4<<10 {
			return strings.TrimSpace(string(b))
		}
		if _, err := br.Peek(len(b) + 1); err != nil {
			b, _ = br.Peek(br.Buffered())
			return strings.TrimSpace(string(b))
		}
	}
}

func isCSVName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv", ".tsv":
		return true
	}
	return false
}

// csvError refuses a CSV or TSV file given as cases.
func csvError(name, line, sep string) error {
	what := "a CSV file"
	if sep == "tab" || strings.EqualFold(filepath.Ext(name), ".tsv") {
		what = "a tab-separated file"
	}
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "…"
	}
	return fmt.Errorf("%s: %s (its first line is %q), not cases: toolgrade reads cases as JSON Lines, JSON or YAML; convert it, one case object per line, with the calls as lists (see docs/cases.md)", name, what, line)
}

// A splitter splits one input into records of at most max bytes, and
// hands them to yield.
type splitter struct {
	file *recordFile // the records'
	max  int

	yield func(toolgrade.Record, error) bool
	// first: no record was yielded yet, so the next says what kind of
	// file this is.
	first bool
	// recs are records allocated together, handed out one at a time:
	// one allocation for many records instead of one each.
	recs []record
}

// emit yields r, with the splitter's file, from the
// splitter's chunk of records; it reports whether to go on. The file's first record
// is checked to be a case (notCases), and an ADK eval file's record is
// yielded as its eval cases (adkFiles).
func (sp *splitter) emit(r record) bool {
	if len(sp.recs) == 0 {
		sp.recs = make([]record, recordChunk)
	}
	rec := &sp.recs[0]
	sp.recs = sp.recs[1:]
	*rec = r
	rec.file = sp.file
	if sp.first {
		sp.first = false
		if err := rec.notCases(); err != nil {
			sp.yield(nil, err)
			return false
		}
	}
	if !rec.yaml && mayBeADK(rec.data) {
		return adkFile(rec, sp.yield)
	}
	return sp.yield(rec, nil)
}

// recordChunk is how many records a splitter allocates at once. The
// records of a chunk stay in memory together, with the lines they share
// read blocks with: a few batches of Evaluate's.
const recordChunk = 32

// tooLarge is the error of a record past the budget that starts on line.
func (sp *splitter) tooLarge(line int, what string) error {
	return &budget.Error{Name: sp.file.source, Line: line, What: what, Limit: int64(sp.max), Flag: budget.LineFlag}
}

// errStop says the consumer stopped early; it is not reported.
var errStop = errors.New("stopped")

func peekNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		br.UnreadByte()
		return b, nil
	}
}

// readLines splits JSON Lines. If the first record is not a complete JSON
// value on its line (a pretty-printed object), the input is read as JSON
// values one after another instead.
func (sp *splitter) readLines(br *bufio.Reader) error {
	name := sp.file.source
	lineNo := 0
	first := formatOf(name) != JSONL // a .jsonl file is JSON Lines, broken lines and all
	lr := jsonvalue.NewLineReader(br)
	lr.Limit(sp.max)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, jsonvalue.ErrLineTooLong) {
			return sp.tooLarge(lineNo+1, "line")
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
		}
		lineNo++
		trimmed := strings.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if first {
			first = false
			if !completeValue(trimmed) {
				// Not JSON Lines after all: rescan from here as values.
				rest := io.MultiReader(strings.NewReader(line+"\n"), lr.Rest())
				return sp.readValues(bufio.NewReaderSize(rest, 64<<10), lineNo)
			}
		}
		if !sp.emit(record{data: trimmed, line: lineNo}) {
			return errStop
		}
	}
}

// completeValue reports whether b holds exactly one balanced JSON value
// (strings and brackets only; the content is checked on decoding).
func completeValue(b string) bool {
	depth, inString, escaped := 0, false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return len(strings.TrimSpace(b[i+1:])) == 0
			}
		}
	}
	return false
}
