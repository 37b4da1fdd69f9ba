package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

type bfclFlags struct {
	data     string
	results  []string
	out      string
	exitZero bool
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
summary is N/A when one of its categories has no results.

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
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when entries are invalid (2 still means unreadable input)")
	cmd.MarkFlagRequired("data")
	cmd.MarkFlagRequired("results")
	return cmd
}

// A bfclEntry is one line of a result file.
type bfclEntry struct {
	id       string
	category string
	result   any
	where    string // file:line
}

func (m *Main) runBFCL(ctx context.Context, f bfclFlags) error {
	if st, err := os.Stat(f.data); err != nil || !st.IsDir() {
		return usageError("--data %s: not a directory", f.data)
	}
	files, err := resultFiles(f.results)
	if err != nil {
		return usageError("%v", err)
	}
	var entries []bfclEntry
	seen := map[string]string{}
	for _, path := range files {
		err := readJSONLines(path, func(line int, v any) error {
			where := fmt.Sprintf("%s:%d", path, line)
			obj, ok := v.(jsonvalue.Object)
			id, _ := obj.Get("id")
			ids, isString := id.(string)
			if !ok || !isString {
				return fmt.Errorf("%s: want a result object with a string id", where)
			}
			if prev, dup := seen[ids]; dup {
				fmt.Fprintf(m.Stderr, "toolgrade: %s: entry %s repeats %s; this line is ignored\n", where, ids, prev)
				return nil
			}
			seen[ids] = where
			result, ok := obj.Get("result")
			if !ok {
				return fmt.Errorf("%s: entry %s has no result", where, ids)
			}
			entries = append(entries, bfclEntry{id: ids, category: bfcl.Category(ids), result: result, where: where})
			return nil
		})
		if err != nil {
			return usageError("%v", err)
		}
	}

	// Load the data each graded category needs, failing before any output
	// when it is missing.
	data := map[string]*bfclData{}
	skipped := map[string]int{}
	for _, e := range entries {
		kind := bfclCategoryKind(e.category)
		if kind == "" {
			skipped[e.category]++
			continue
		}
		if data[e.category] == nil {
			d, err := loadBFCLData(f.data, e.category, kind == "ast")
			if err != nil {
				return usageError("%v", err)
			}
			data[e.category] = d
		}
	}
	for _, c := range slices.Sorted(maps.Keys(skipped)) {
		fmt.Fprintf(m.Stderr, "toolgrade: %d entries of category %q skipped: only the AST and relevance categories are graded\n", skipped[c], c)
	}

	var out *bufio.Writer
	if f.out != "" {
		fh, err := os.Create(f.out)
		if err != nil {
			return usageError("%v", err)
		}
		defer fh.Close()
		out = bufio.NewWriter(fh)
	}
	tally := map[string]*bfclTally{}
	failed := false
	var line []byte
	for _, e := range entries {
		d := data[e.category]
		if d == nil {
			continue
		}
		r := d.grade(ctx, e)
		t := tally[e.category]
		if t == nil {
			t = &bfclTally{}
			tally[e.category] = t
		}
		t.total++
		if r.Error == "" && r.Success {
			t.correct++
		} else {
			failed = true
		}
		if r.Error != "" {
			fmt.Fprintf(m.Stderr, "toolgrade: %s: %s: %s\n", e.where, e.id, r.Error)
		}
		if out != nil {
			res := toolgrade.Result{ID: e.id, Success: r.Error == "" && r.Success, Metrics: []toolgrade.MetricResult{r}}
			line = res.AppendJSON(line[:0])
			line = append(line, '\n')
			if _, err := out.Write(line); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
		}
	}
	if out != nil {
		if err := out.Flush(); err != nil {
			return &ExitError{Code: 2, Err: err}
		}
	}
	for _, c := range slices.Sorted(maps.Keys(data)) {
		if n := len(data[c].questions) - tally[c].count(); n > 0 {
			fmt.Fprintf(m.Stderr, "toolgrade: %s: %d of %d entries have no result and are not counted\n", c, n, len(data[c].questions))
		}
	}
	printBFCLTable(m.Stdout, tally)
	if failed && !f.exitZero {
		return &ExitError{Code: 1}
	}
	return nil
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

// readJSONLines calls fn with each non-blank line of a JSON Lines file,
// parsed. Errors name the file and line.
func readJSONLines(path string, fn func(line int, v any) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for n := 1; len(data) > 0; n++ {
		var text []byte
		text, data, _ = bytes.Cut(data, []byte("\n"))
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		v, err := jsonvalue.Parse(text)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if err := fn(n, v); err != nil {
			return err
		}
	}
	return nil
}

// bfclCategoryKind says how a category is graded: "ast", "relevance", or
// "" when toolgrade does not grade it (multi-turn, agentic, format
// sensitivity).
func bfclCategoryKind(category string) string {
	for _, s := range []string{"multi_turn", "web_search", "memory", "format_sensitivity"} {
		if strings.Contains(category, s) {
			return ""
		}
	}
	if category == "" {
		return ""
	}
	if strings.Contains(category, "relevance") {
		return "relevance"
	}
	return "ast"
}

// bfclData is one category's questions and ground truth.
type bfclData struct {
	category  string
	questions map[string]any // id → function docs
	answers   map[string]any // id → ground truth (AST categories)
	metric    *bfcl.Metric
}

var bfclDataFile = regexp.MustCompile(`^BFCL_v\d+_(.+)\.json$`)

// loadBFCLData reads BFCL_v*_<category>.json from dir, and its possible
// answers when the category needs them.
func loadBFCLData(dir, category string, withAnswers bool) (*bfclData, error) {
	find := func(dir string) (string, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", err
		}
		var found string
		for _, e := range entries {
			if m := bfclDataFile.FindStringSubmatch(e.Name()); m != nil && m[1] == category && e.Name() > found {
				found = e.Name() // the newest BFCL version wins
			}
		}
		if found == "" {
			return "", fmt.Errorf("%s: no BFCL_v*_%s.json for the %s results", dir, category, category)
		}
		return filepath.Join(dir, found), nil
	}
	d := &bfclData{category: category, questions: map[string]any{}, answers: map[string]any{}}
	qpath, err := find(dir)
	if err != nil {
		return nil, err
	}
	err = readJSONLines(qpath, func(line int, v any) error {
		obj, _ := v.(jsonvalue.Object)
		id, _ := obj.Get("id")
		ids, ok := id.(string)
		if !ok {
			return fmt.Errorf("%s:%d: want an entry with a string id", qpath, line)
		}
		d.questions[ids], _ = obj.Get("function")
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !withAnswers {
		return d, nil
	}
	apath, err := find(filepath.Join(dir, "possible_answer"))
	if err != nil {
		return nil, err
	}
	err = readJSONLines(apath, func(line int, v any) error {
		obj, _ := v.(jsonvalue.Object)
		id, _ := obj.Get("id")
		ids, ok := id.(string)
		gt, hasGT := obj.Get("ground_truth")
		if !ok || !hasGT {
			return fmt.Errorf("%s:%d: want an entry with a string id and ground_truth", apath, line)
		}
		d.answers[ids] = gt
		return nil
	})
	if err != nil {
		return nil, err
	}
	if d.metric, err = bfcl.New(bfcl.Options{Category: category}); err != nil {
		return nil, err
	}
	return d, nil
}

// grade checks one entry.
func (d *bfclData) grade(ctx context.Context, e bfclEntry) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: "tool_correctness", Profile: "bfcl", Threshold: toolgrade.Float(1)}
	docs, ok := d.questions[e.id]
	if !ok {
		r.Error = fmt.Sprintf("no question %s in the %s data", e.id, d.category)
		return r
	}
	calls, decodeError := bfclDecode(e.result)
	if d.metric == nil { // irrelevance, live_relevance
		hasCall := decodeError == "" && len(calls) > 0
		want := !strings.Contains(d.category, "irrelevance")
		switch {
		case hasCall == want:
			r.Score, r.Success, r.Reason = 1, true, "valid"
		case want:
			r.Reason = "relevance_error:decoder_failed: the result holds no function call"
		default:
			r.Reason = "irrelevance_error:decoder_success: the result holds a function call, and should not"
		}
		return r
	}
	if decodeError != "" {
		r.Reason = decodeError
		return r
	}
	answer, ok := d.answers[e.id]
	if !ok {
		r.Error = fmt.Sprintf("no possible answer for %s in the %s data", e.id, d.category)
		return r
	}
	c := &toolgrade.Case{
		ID:             e.id,
		Called:         calls,
		AvailableTools: docs,
		Raw:            jsonvalue.Object{{Key: "possible_answer", Value: answer}},
	}
	return d.metric.Grade(ctx, c)
}

// bfclDecode reads a result in BFCL's decoded form: a list of {function:
// {param: value}}, where the arguments may be JSON text. It returns BFCL's
// decoder error type (with a message) for anything else.
func bfclDecode(result any) ([]toolgrade.Call, string) {
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

type bfclTally struct{ correct, total int }

func (t *bfclTally) count() int {
	if t == nil {
		return 0
	}
	return t.total
}

// The categories in the order of BFCL's score tables; a name after "|" is
// BFCL v3's name for the same category.
var bfclCategoryOrder = []string{
	"simple_python|simple", "simple_java|java", "simple_javascript|javascript",
	"multiple", "parallel", "parallel_multiple", "irrelevance",
	"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
	"live_irrelevance", "live_relevance",
}

// A bfclScore is an accuracy with the number of entries behind it; ok is
// false when a category it needs has no results (BFCL shows N/A).
type bfclScore struct {
	accuracy float64
	entries  int
	ok       bool
}

func printBFCLTable(w io.Writer, tally map[string]*bfclTally) {
	category := func(names string) (string, bfclScore) {
		for n := range strings.SplitSeq(names, "|") {
			if t := tally[n]; t != nil {
				return n, bfclScore{float64(t.correct) / float64(t.total), t.total, true}
			}
		}
		name, _, _ := strings.Cut(names, "|")
		return name, bfclScore{}
	}
	score := func(names string) bfclScore { _, s := category(names); return s }
	mean := func(parts ...bfclScore) bfclScore { // BFCL's unweighted accuracy
		s := bfclScore{ok: true}
		for _, p := range parts {
			s.accuracy += p.accuracy / float64(len(parts))
			s.entries += p.entries
			s.ok = s.ok && p.ok
		}
		return s
	}
	weighted := func(parts ...bfclScore) bfclScore { // BFCL's weighted accuracy
		s := bfclScore{ok: true}
		correct := 0.0
		for _, p := range parts {
			correct += p.accuracy * float64(p.entries)
			s.entries += p.entries
			s.ok = s.ok && p.ok
		}
		if s.entries > 0 {
			s.accuracy = correct / float64(s.entries)
		}
		return s
	}
	percent := func(s bfclScore) string {
		if !s.ok {
			return "N/A"
		}
		return fmt.Sprintf("%.2f%%", 100*s.accuracy)
	}

	type row struct {
		name string
		s    bfclScore
		t    *bfclTally
	}
	var cats []row
	listed := map[string]bool{}
	for _, names := range bfclCategoryOrder {
		name, s := category(names)
		listed[name] = true
		if s.ok {
			cats = append(cats, row{name, s, tally[name]})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(tally)) {
		if t := tally[name]; !listed[name] {
			cats = append(cats, row{name, bfclScore{float64(t.correct) / float64(t.total), t.total, true}, t})
		}
	}
	simple := mean(score("simple_python|simple"), score("simple_java|java"), score("simple_javascript|javascript"))
	nonLive := []bfclScore{simple, score("multiple"), score("parallel"), score("parallel_multiple")}
	live := []bfclScore{score("live_simple"), score("live_multiple"), score("live_parallel"), score("live_parallel_multiple")}
	sums := []struct {
		name string
		s    bfclScore
		how  string
	}{
		{"Non-Live Simple AST", simple, "mean of simple_python, simple_java, simple_javascript"},
		{"Non-Live AST Summary", mean(nonLive...), "mean of Simple AST, multiple, parallel, parallel_multiple"},
		{"Non-Live Overall", mean(append(nonLive, score("irrelevance"))...), "mean of the above and irrelevance"},
		{"Live AST Summary", weighted(live...), "weighted by entries: live_simple, live_multiple, live_parallel, live_parallel_multiple"},
		{"Live Overall", weighted(append(live, score("live_irrelevance"), score("live_relevance"))...), "weighted: the above, live_irrelevance, live_relevance"},
	}

	width := len("Non-Live AST Summary")
	for _, r := range cats {
		width = max(width, len(r.name))
	}
	fmt.Fprintf(w, "%-*s  %8s  %7s  %7s\n", width, "Category", "Accuracy", "Correct", "Total")
	for _, r := range cats {
		fmt.Fprintf(w, "%-*s  %8s  %7d  %7d\n", width, r.name, percent(r.s), r.t.correct, r.t.total)
	}
	fmt.Fprintf(w, "\n%-*s  %8s  %7s  %s\n", width, "Summary", "Accuracy", "Entries", "Computed as")
	for _, r := range sums {
		fmt.Fprintf(w, "%-*s  %8s  %7d  %s\n", width, r.name, percent(r.s), r.s.entries, r.how)
	}
}
