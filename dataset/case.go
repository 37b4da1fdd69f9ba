package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// record is one case's text, split off the input and decoded on a worker.
// It is a string so that the decoded case can share its memory instead of
// copying every string and number out of it.
type record struct {
	data     string
	source   string
	line     int
	yaml     bool
	yamlItem bool // a "- " item of a YAML list
}

// Decode parses the record and builds its case. Errors read
// "FILE:LINE: field F: message" and come with a case that has its ID.
func (r *record) Decode() (*toolgrade.Case, error) {
	var v any
	var err error
	if r.yaml {
		v, err = decodeYAML([]byte(r.data), r.line, r.yamlItem)
	} else {
		v, err = jsonvalue.ParseString(r.data)
	}
	if err != nil {
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) {
			col := se.Offset - strings.LastIndexByte(r.data[:min(se.Offset, len(r.data))], '\n')
			return r.stub(nil), fmt.Errorf("%s:%d:%d: invalid JSON: %s", r.source, r.line+se.Line-1, col, se.Msg)
		}
		return r.stub(nil), fmt.Errorf("%s:%d: %w", r.source, r.line, err)
	}
	if obj, ok := v.(jsonvalue.Object); ok {
		if err := misspelledError(obj); err != nil {
			return r.stub(v), fmt.Errorf("%s:%d: %w", r.source, r.line, err)
		}
	}
	c, err := DecodeCase(v)
	if err != nil {
		return r.stub(v), fmt.Errorf("%s:%d: %w", r.source, r.line, err)
	}
	if c.ID == "" {
		c.ID = r.lineID()
	}
	c.Source, c.Line = r.source, r.line
	return c, nil
}

// stub is the case an error result names: its id when the record has a
// readable one, else its line.
func (r *record) stub(v any) *toolgrade.Case {
	c := &toolgrade.Case{ID: r.lineID(), Source: r.source, Line: r.line}
	if obj, ok := v.(jsonvalue.Object); ok {
		if id, err := caseID(obj); err == nil && id != "" {
			c.ID = id
		}
	}
	return c
}

// lineID is the id of a case that has none of its own.
func (r *record) lineID() string { return "line-" + strconv.Itoa(r.line) }

// The field names of a case, with the aliases peers' datasets use.
var (
	inputKeys            = []string{"input", "query"}
	actualOutputKeys     = []string{"actual_output", "generated_response", "actual_response", "response"}
	expectedOutputKeys   = []string{"expected_output", "expected_response", "reference"}
	calledKeys           = []string{"tools_called", "toolsCalled"}
	expectedKeys         = []string{"expected_tools", "expectedTools", "reference_tool_calls"}
	trajectoryKeys       = []string{"trajectory", "agent_trajectory", "user_input"}
	expectedTrajectories = []string{"expected_trajectory", "expected_agent_trajectory"}
	availableToolsKeys   = []string{"available_tools", "availableTools", "tools"}
)

// The fields of a case, each found under the first of its aliases present.
const (
	fieldInput = iota
	fieldActualOutput
	fieldExpectedOutput
	fieldAvailableTools
	fieldTrajectory
	fieldExpectedTrajectory
	fieldCalled
	fieldExpected
	numFields
)

// aliases maps every key a case may use to its field and its rank among
// the field's aliases.
var aliases = func() map[string][2]int {
	m := map[string][2]int{}
	for field, keys := range [numFields][]string{
		fieldInput: inputKeys, fieldActualOutput: actualOutputKeys, fieldExpectedOutput: expectedOutputKeys,
		fieldAvailableTools: availableToolsKeys, fieldTrajectory: trajectoryKeys,
		fieldExpectedTrajectory: expectedTrajectories, fieldCalled: calledKeys, fieldExpected: expectedKeys,
	} {
		for rank, k := range keys {
			m[k] = [2]int{field, rank}
		}
	}
	return m
}()

// A found field: the key it was found under and its value.
type found struct {
	key  string
	v    any
	rank int
}

func (f found) ok() bool { return f.key != "" }

// fields finds every field of a case in one pass over its members: a case
// has a handful, and looking up each alias in turn cost more than reading
// them. The first-ranked alias present wins, and the first of a repeated key.
func fields(obj jsonvalue.Object) [numFields]found {
	var out [numFields]found
	for i := len(obj) - 1; i >= 0; i-- {
		m := &obj[i]
		a, ok := aliases[m.Key]
		if !ok {
			continue
		}
		if f := &out[a[0]]; !f.ok() || a[1] <= f.rank {
			*f = found{m.Key, m.Value, a[1]}
		}
	}
	return out
}

func caseID(obj jsonvalue.Object) (string, error) {
	v, ok := obj.Get("id")
	if !ok || v == nil {
		return "", nil
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case json.Number:
		return string(v), nil
	}
	return "", &toolgrade.FieldError{Path: "id", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(v))}
}

// DecodeCase builds a case from its JSON form (see docs/cases.md). Calls
// come from tools_called / expected_tools, or, when those are absent, are
// extracted from trajectory / expected_trajectory by package trace. Errors
// are *toolgrade.FieldError values naming the field.
func DecodeCase(v any) (*toolgrade.Case, error) {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, fmt.Errorf("want a case object, got %s", jsonvalue.Kind(v))
	}
	c := &toolgrade.Case{Raw: obj}
	var err error
	if c.ID, err = caseID(obj); err != nil {
		return nil, err
	}
	if err := checkTrial(obj); err != nil {
		return nil, err
	}
	f := fields(obj)
	// Ragas' user_input is the conversation of a MultiTurnSample (a list
	// of messages) but the query of a SingleTurnSample (a string).
	if t := &f[fieldTrajectory]; t.key == "user_input" {
		if _, isList := t.v.([]any); !isList {
			if !f[fieldInput].ok() {
				f[fieldInput] = *t
			}
			*t = found{}
		}
	}
	c.Input, c.ActualOutput, c.ExpectedOutput = f[fieldInput].v, f[fieldActualOutput].v, f[fieldExpectedOutput].v
	c.AvailableTools = f[fieldAvailableTools].v
	c.Trajectory, c.ExpectedTrajectory = f[fieldTrajectory].v, f[fieldExpectedTrajectory].v
	if c.Called, err = calls(c, f[fieldCalled], f[fieldTrajectory]); err != nil {
		return nil, err
	}
	if c.Expected, err = calls(c, f[fieldExpected], f[fieldExpectedTrajectory]); err != nil {
		return nil, err
	}
	return c, nil
}

// calls reads a list of calls from list when present, else extracts them
// from trace, adding the items the trace reader skipped to c's warnings.
func calls(c *toolgrade.Case, list, tr found) ([]toolgrade.Call, error) {
	if list.ok() {
		calls, err := toolgrade.DecodeCalls(list.v)
		return calls, toolgrade.InField(list.key, err)
	}
	if tr.ok() && tr.v != nil {
		t, err := trace.Extract(tr.v, "")
		if err != nil {
			return nil, toolgrade.InField(tr.key, err)
		}
		for _, w := range t.Warnings() {
			c.Warnings = append(c.Warnings, tr.key+": "+w)
		}
		return t.Calls, nil
	}
	return nil, nil
}

// checkTrial checks the optional "trial" field, the index of a trial
// among the repeated runs of a case with the same id: a whole number from
// 1, or null.
func checkTrial(obj jsonvalue.Object) error {
	v, ok := obj.Get("trial")
	if !ok || v == nil {
		return nil
	}
	n, isNum := v.(json.Number)
	if f := jsonvalue.NumberFloat(n); !isNum || f < 1 || f != float64(int64(f)) || f > 1e9 {
		return &toolgrade.FieldError{Path: "trial", Err: fmt.Errorf("want the trial's index, a whole number from 1, got %s", jsonvalue.Append(nil, v))}
	}
	return nil
}
