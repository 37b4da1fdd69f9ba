package leaderboard

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// An Entry is one line of a result file: a model's result for one
// question entry.
type Entry struct {
	ID string
	// Result is the "result" value as read: BFCL's decoded form, a list
	// of {"<function>": {<arguments>}}, or model text.
	Result any
	// Where is the line's "file:line".
	Where string
	// Calling is how the model was given the functions; DetectCalling
	// (the zero value) lets [Data.Grade] decide per file.
	Calling Calling
}

// A Repeat is a result-file line whose id an earlier line had: only the
// first counts.
type Repeat struct {
	ID    string
	Where string // the ignored line's "file:line"
	First string // the counted line's "file:line"
}

func (r Repeat) String() string {
	return fmt.Sprintf("%s: entry %s repeats %s; this line is ignored", r.Where, r.ID, r.First)
}

// Results are a model's result entries, read from its result files. The
// zero value is empty and ready for [Results.Read].
type Results struct {
	Entries []Entry // in the order read
	Repeats []Repeat
	seen    map[string]string // id → where it came first
}

// ReadResults reads result files. A path that is a directory stands for
// the .json and .jsonl files under it, in name order. Errors name the
// file and line; with an error come the results read before it, whose
// repeats a caller may still report.
func ReadResults(paths ...string) (*Results, error) {
	rs := &Results{}
	files, err := resultFiles(paths)
	if err != nil {
		return rs, err
	}
	for _, path := range files {
		text, err := sniff.ReadFile(path, 0, "")
		if err != nil {
			return rs, err
		}
		if err := rs.parse(path, text); err != nil {
			return rs, err
		}
	}
	return rs, nil
}

// resultFiles expands directories into their .json and .jsonl files.
func resultFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".jsonl")) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no .json or .jsonl result files", p)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}

// Read adds the entries of one result file, read from r and named name in
// errors. Each non-blank line must be an object with a string "id" and a
// "result"; a line whose id came before is a [Repeat]; a file without
// lines is an error. On error, the entries of the lines before it have
// been added.
func (rs *Results) Read(name string, r io.Reader) error {
	text, err := budget.ReadAll(r, &budget.Error{Name: name})
	var be *budget.Error
	if errors.As(err, &be) {
		return err // it names the input
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if text, err = sniff.Bytes(text); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return rs.parse(name, text)
}

func (rs *Results) parse(name string, text []byte) error {
	if rs.seen == nil {
		rs.seen = map[string]string{}
		for _, e := range rs.Entries {
			rs.seen[e.ID] = e.Where
		}
	}
	lines := 0
	err := eachLine(name, text, func(line int, v any) error {
		lines++
		where := fmt.Sprintf("%s:%d", name, line)
		obj, ok := v.(jsonvalue.Object)
		id, _ := obj.Get("id")
		ids, isString := id.(string)
		if lines == 1 && sniff.Document(v) == sniff.Result {
			return fmt.Errorf("%s: a toolgrade results file, not BFCL results (a BFCL result file has {\"id\", \"result\"} per line, as BFCL writes it; compare toolgrade's results with toolgrade compare)", where)
		}
		if !ok || !isString {
			return fmt.Errorf("%s: want a result object with a string id", where)
		}
		if first, dup := rs.seen[ids]; dup {
			rs.Repeats = append(rs.Repeats, Repeat{ID: ids, Where: where, First: first})
			return nil
		}
		rs.seen[ids] = where
		result, ok := obj.Get("result")
		if !ok {
			return fmt.Errorf("%s: entry %s has no result", where, ids)
		}
		rs.Entries = append(rs.Entries, Entry{ID: ids, Result: result, Where: where})
		return nil
	})
	if err == nil && lines == 0 {
		err = fmt.Errorf("%s: no result entries", name)
	}
	return err
}

// decode reads a result in BFCL's decoded form: a list of {function:
// {param: value}}, where the arguments may be JSON text. For anything else
// it returns BFCL's decoder error type, with a message.
func decode(result any) ([]toolgrade.Call, string) {
	switch result := result.(type) {
	case string:
		return nil, "ast_decoder:decoder_failed: the result is model text, not decoded calls (toolgrade reads BFCL's decoded form)"
	case []any:
		calls := make([]toolgrade.Call, 0, len(result))
		for i, item := range result {
			obj, ok := item.(jsonvalue.Object)
			if !ok || len(obj) != 1 {
				return nil, fmt.Sprintf("ast_decoder:decoder_wrong_output_format: item %d is not {function: {param: value}}", i)
			}
			args := obj[0].Value
			if text, isText := args.(string); isText {
				v, err := jsonvalue.ParseString(text)
				if err != nil {
					return nil, fmt.Sprintf("ast_decoder:decoder_failed: item %d (%s): arguments are not JSON: %v", i, obj[0].Key, err)
				}
				args = v
			}
			if _, isObject := args.(jsonvalue.Object); !isObject {
				return nil, fmt.Sprintf("ast_decoder:decoder_wrong_output_format: item %d (%s): arguments are %s, not an object", i, obj[0].Key, jsonvalue.Kind(args))
			}
			calls = append(calls, toolgrade.Call{Name: obj[0].Key, Args: args})
		}
		return calls, ""
	}
	return nil, fmt.Sprintf("ast_decoder:decoder_wrong_output_format: the result is %s, not a list of calls", jsonvalue.Kind(result))
}
