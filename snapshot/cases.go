package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Cases is an accepted cases file, as a check reads it and an update
// rewrites it: JSON Lines, one case per line, as [Snapshot.AppendJSON]
// writes them, each found by its id. Lines an update does not replace
// are written back byte for byte, blank ones included.
type Cases struct {
	Name  string
	lines []string       // the file's lines, without their "\n"
	byID  map[string]int // each case's line index
	objs  map[string]jsonvalue.Object
}

// ReadCases reads an accepted cases file. Every line that is not blank
// must be a case: a JSON object with a string id and expected calls
// (expected_tools, or an expected trajectory). Anything else — a line
// that is not JSON, a trace, a case without an id, an id given twice —
// is an error naming the file and line: a check would otherwise grade
// against the wrong expectations. An empty file holds no case.
func ReadCases(name string, data []byte) (*Cases, error) {
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB", name, MaxFile>>20)
	}
	cs := &Cases{Name: name, byID: map[string]int{}, objs: map[string]jsonvalue.Object{}}
	data, err := sniff.Bytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > 0 {
		cs.lines = splitLines(string(bytes.TrimSuffix(data, []byte("\n"))))
	}
	const format = "(toolgrade snapshot writes one case per line; the cases file comes first: toolgrade snapshot --check CASES TRACE...)"
	for k, line := range cs.lines {
		n := k + 1
		if len(bytes.TrimSpace([]byte(line))) == 0 {
			continue
		}
		v, err := jsonvalue.ParseString(line)
		if err != nil {
			if keys := yamlConfigKeys(cs.lines); keys != "" {
				return nil, fmt.Errorf("%s: a toolgrade config, not a cases file (keys %s): give it with --config, and the accepted cases (JSON Lines, as toolgrade snapshot writes them) with --check", name, keys)
			}
			var se *jsonvalue.SyntaxError
			if errors.As(err, &se) {
				err = errors.New(se.Msg)
			}
			return nil, fmt.Errorf("%s:%d: not a cases file: the line is not one JSON value (%v) %s", name, n, err, format)
		}
		obj, ok := v.(jsonvalue.Object)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a cases file: want a case object, got %s %s", name, n, jsonvalue.Kind(v), format)
		}
		switch sniff.Document(obj) {
		case sniff.Result:
			return nil, fmt.Errorf("%s:%d: a toolgrade results file, not a cases file (the line is a result: %s): --check takes the accepted cases toolgrade snapshot wrote", name, n, sniff.Keys(obj, 6))
		case sniff.Config:
			return nil, fmt.Errorf("%s: a toolgrade config, not a cases file (keys %s): give it with --config, and the accepted cases (JSON Lines, as toolgrade snapshot writes them) with --check", name, sniff.Keys(obj, 6))
		}
		id, ok := obj.Get("id")
		ids, isString := id.(string)
		if !ok || !isString || ids == "" {
			return nil, fmt.Errorf("%s:%d: a case without an id (a string): cases are checked by id", name, n)
		}
		if !hasAny(obj, expectedKeys) && !obj.Has("turns") {
			return nil, fmt.Errorf("%s:%d: not a case: it has no expected calls (expected_tools) %s", name, n, format)
		}
		if first, dup := cs.byID[ids]; dup {
			return nil, fmt.Errorf("%s: the id %q is on lines %d and %d: cases are checked by id, so each needs its own", name, ids, first+1, n)
		}
		cs.byID[ids], cs.objs[ids] = k, obj
	}
	return cs, nil
}

// yamlConfigKeys returns the config keys that lines, a file that is not
// JSON Lines, has at the top as YAML writes them ("metrics:"), when it
// has only such keys there; "" otherwise.
func yamlConfigKeys(lines []string) string {
	var keys []string
	for _, line := range lines {
		if line == "" || line[0] == '#' || line[0] == ' ' || line[0] == '\t' || line[0] == '-' {
			continue
		}
		key, _, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !slices.Contains(sniff.ConfigKeys, key) {
			return ""
		}
		keys = append(keys, key)
	}
	return strings.Join(keys, ", ")
}

// splitLines splits text at "\n", keeping any "\r" with its line, so
// that lines written back are the bytes read.
func splitLines(text string) []string {
	var lines []string
	for {
		i := bytes.IndexByte([]byte(text), '\n')
		if i < 0 {
			return append(lines, text)
		}
		lines = append(lines, text[:i])
		text = text[i+1:]
	}
}

// Len returns the number of cases.
func (cs *Cases) Len() int { return len(cs.byID) }

// IDs returns the cases' ids in file order.
func (cs *Cases) IDs() []string {
	var ids []string
	for id := range cs.byID {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return cs.byID[a] - cs.byID[b] })
	return ids
}

// Unchecked returns the ids of the cases that no run has, in file order.
func (cs *Cases) Unchecked(runs []*Run) []string {
	has := make(map[string]bool, len(runs))
	for _, r := range runs {
		has[r.ID] = true
	}
	var out []string
	for _, id := range cs.IDs() {
		if !has[id] {
			out = append(out, id)
		}
	}
	return out
}

// Records returns one record per run, in order, for toolgrade.Evaluate:
// the accepted case with the run's calls as its called calls, graded as
// the same case with those calls in tools_called would be. The case's
// own recorded calls, if it has any, are not read. The case names the
// cases file and line; its warnings add the run's (trace items not
// understood) and say when the run's first user message is not the
// case's input. A run with no accepted case is an error result that
// says how to add it.
func (cs *Cases) Records(runs []*Run) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		for _, r := range runs {
			var rec toolgrade.Record = missing{r, cs.Name}
			if k, ok := cs.byID[r.ID]; ok {
				rec = &checked{obj: cs.objs[r.ID], line: k + 1, name: cs.Name, run: r}
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

// checked is an accepted case and the run checked against it.
type checked struct {
	obj  jsonvalue.Object
	line int
	name string
	run  *Run
}

func (r *checked) Decode() (*toolgrade.Case, error) {
	c, err := dataset.DecodeCase(r.obj)
	if err != nil {
		return &toolgrade.Case{ID: r.run.ID, Source: r.name, Line: r.line}, fmt.Errorf("%s:%d: %w", r.name, r.line, err)
	}
	c.Source, c.Line = r.name, r.line
	c.Called = slices.Clone(r.run.Calls)
	c.Trajectory = nil
	c.Warnings = append(c.Warnings, r.run.Warnings...)
	if c.Input != nil && r.run.Input != nil && !jsonvalue.Equal(c.Input, r.run.Input) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: the run's first user message, %s, is not the case's input", r.run.Where(), jsonvalue.Format(r.run.Input)))
	}
	// The run's user messages are the case's turns, as a trajectory's are.
	c.Turns = nil
	if n := max(c.TurnCount(), len(r.run.Inputs)); n > 0 {
		c.Turns = make([]toolgrade.Turn, n)
		for i, in := range r.run.Inputs {
			c.Turns[i].Input = in
		}
	}
	if c.ByTurn() && len(c.Called) > 0 && !slices.ContainsFunc(c.Called, func(call toolgrade.Call) bool { return call.Turn > 0 }) {
		return c, fmt.Errorf("%s:%d: the expected calls are pinned to turns, but %s records no user turns", r.name, r.line, r.run.Where())
	}
	return c, nil
}

// missing is a run with no accepted case.
type missing struct {
	run   *Run
	cases string
}

func (m missing) Decode() (*toolgrade.Case, error) {
	return &toolgrade.Case{ID: m.run.ID, Source: m.run.Source, Line: m.run.Line},
		fmt.Errorf("no accepted case with the id %q in %s (--update adds its snapshot)", m.run.ID, m.cases)
}

// A Change is one case an update writes: replaced, or added when Old is
// nil.
type Change struct {
	ID       string
	Line     int // the case's line in the new file
	Old, New jsonvalue.Object
	Run      *Run
}

// Update returns the cases file with each snapshot in place of the case
// with its id, and those with a new id added at the end, in order; every
// other line is the bytes read, and the file ends with a newline. It also
// returns what changed, for [Change.Diff].
func (cs *Cases) Update(snaps []*Snapshot) ([]byte, []Change) {
	lines := slices.Clone(cs.lines)
	var changes []Change
	for _, s := range snaps {
		line := string(s.AppendJSON(nil))
		ch := Change{ID: s.ID(), New: s.Case, Run: s.Run}
		if k, ok := cs.byID[s.ID()]; ok {
			lines[k] = line
			ch.Old, ch.Line = cs.objs[s.ID()], k+1
		} else {
			lines = append(lines, line)
			ch.Line = len(lines)
		}
		changes = append(changes, ch)
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes(), changes
}

// Where names the change's case for messages: "ID (CASES:LINE, from
// TRACE)".
func (c *Change) Where(cases string) string {
	return c.ID + " (" + cases + ":" + strconv.Itoa(c.Line) + ", from " + c.Run.Where() + ")"
}
