// Package dataset reads cases from files: JSON Lines, a JSON array (or
// whitespace-separated JSON values), and YAML (a list of cases, or one case
// per document); a Google ADK EvalSet or EvalSetResult is read as its eval
// cases (adk.go). Reading streams: records are split off the input one at a
// time and decoded later, on [toolgrade.Evaluate]'s workers, so memory does
// not grow with the file.
//
// A record that cannot be decoded becomes an error result naming the file,
// the line the record starts on and the field; the run goes on. Only an
// input that cannot be read or split at all stops it.
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
	return FilesFrom(os.Stdin, names...)
}

// FilesFrom is [Files] with standard input read from stdin.
func FilesFrom(stdin io.Reader, names ...string) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		for _, name := range names {
			for rec, err := range read(name, stdin) {
				if r, ok := rec.(*record); ok && len(names) > 1 {
					r.qualified = true
				}
				if !yield(rec, err) || err != nil {
					return
				}
			}
		}
	}
}

// RecordsFor passes src on with the records this package reads set to
// decode their cases for a run of metrics, as [DecodeCaseFor] does; other
// records pass unchanged.
func RecordsFor(metrics []toolgrade.Metric, src iter.Seq2[toolgrade.Record, error]) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		for rec, err := range src {
			if r, ok := rec.(*record); ok {
				r.metrics = metrics
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}

// File reads one file; "-" is standard input.
func File(name string) iter.Seq2[toolgrade.Record, error] {
	return read(name, os.Stdin)
}

func read(name string, stdin io.Reader) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		r := stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				yield(nil, err)
				return
			}
			defer f.Close()
			r = f
		}
		for rec, err := range Reader(name, r, Auto) {
			if !yield(rec, err) {
				return
			}
		}
	}
}

// Reader reads cases from r; name is used in error messages and results,
// and, with format Auto, its extension picks the format (.jsonl, .json,
// .yaml) before the content does.
func Reader(name string, r io.Reader, format Format) iter.Seq2[toolgrade.Record, error] {
	if format == Auto {
		format = formatOf(name)
	}
	return func(yield func(toolgrade.Record, error) bool) {
		yield = adkFiles(yield)
		br := bufio.NewReaderSize(r, 64<<10)
		if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xEF\xBB\xBF")) {
			br.Discard(3)
		}
		if format == Auto || format == JSON {
			first, err := peekNonSpace(br)
			if err != nil && err != io.EOF {
				yield(nil, fmt.Errorf("%s: %w", name, err))
				return
			}
			switch {
			case err == io.EOF:
				return // empty input: no cases
			case first == '[':
				format = JSON
			case first == '{':
				format = JSONL // decided line by line below
			case first == '"' && format == JSON:
				if err := readQuoted(name, br, yield); err != nil && !errors.Is(err, errStop) {
					yield(nil, err)
				}
				return
			default:
				if format == JSON {
					yield(nil, fmt.Errorf("%s:1: want a JSON array or object, got %q", name, first))
					return
				}
				format = YAML
			}
		}
		var err error
		switch format {
		case JSONL:
			err = readLines(name, br, yield)
		case JSON:
			err = readValues(name, br, 1, yield)
		case YAML:
			err = readYAML(name, br, yield)
		default:
			err = fmt.Errorf("unknown format %q", format)
		}
		if err != nil && !errors.Is(err, errStop) {
			yield(nil, err)
		}
	}
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
func readLines(name string, br *bufio.Reader, yield func(toolgrade.Record, error) bool) error {
	lineNo := 0
	first := formatOf(name) != JSONL // a .jsonl file is JSON Lines, broken lines and all
	lr := jsonvalue.NewLineReader(br)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
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
				return readValues(name, bufio.NewReaderSize(rest, 64<<10), lineNo, yield)
			}
		}
		rec := &record{data: trimmed, source: name, line: lineNo}
		if !yield(rec, nil) {
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
