package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
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
	stub := &toolgrade.Case{ID: "line-" + strconv.Itoa(r.line), Source: r.source, Line: r.line}
	var v any
	var err error
	if r.yaml {
		v, err = decodeYAML([]byte(r.data), r.line, r.yamlItem)
	} else {
		v, err = toolgrade.ParseJSONString(r.data)
	}
	if err != nil {
		var se *toolgrade.SyntaxError
		if errors.As(err, &se) {
			col := se.Offset - strings.LastIndexByte(r.data[:min(se.Offset, len(r.data))], '\n')
			return stub, fmt.Errorf("%s:%d:%d: invalid JSON: %s", r.source, r.line+se.Line-1, col, se.Msg)
		}
		return stub, fmt.Errorf("%s:%d: %w", r.source, r.line, err)
	}
	if obj, ok := v.(toolgrade.Object); ok {
		if id, err := caseID(obj); err == nil && id != "" {
			stub.ID = id
		}
	}
	c, err := DecodeCase(v)
	if err != nil {
		return stub, fmt.Errorf("%s:%d: %w", r.source, r.line, err)
	}
	if c.ID == "" {
		c.ID = stub.ID
	}
	c.Source, c.Line = r.source, r.line
	return c, nil
}

// The field names of a case, with the aliases peers' datasets use.
var (
	inputKeys            = []string{"input", "query"}
	actualOutputKeys     = []string{"actual_output", "generated_response", "actual_response"}
	expectedOutputKeys   = []string{"expected_output", "expected_response"}
	calledKeys           = []string{"tools_called", "toolsCalled"}
	expectedKeys         = []string{"expected_tools", "expectedTools"}
	trajectoryKeys       = []string{"trajectory", "agent_trajectory"}
	expectedTrajectories = []string{"expected_trajectory", "expected_agent_trajectory"}
	availableToolsKeys   = []string{"available_tools", "availableTools", "tools"}
)

func first(obj toolgrade.Object, keys []string) (string, any, bool) {
	for _, k := range keys {
		if v, ok := obj.Get(k); ok {
			return k, v, true
		}
	}
	return "", nil, false
}

func caseID(obj toolgrade.Object) (string, error) {
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
	return "", &toolgrade.FieldError{Path: "id", Err: fmt.Errorf("want a string, got %s", toolgrade.Kind(v))}
}

// DecodeCase builds a case from its JSON form (see the case format in the
// README). Calls come from tools_called / expected_tools, or, when those are
// absent, are extracted from trajectory / expected_trajectory by package
// trace. Errors are *toolgrade.FieldError values naming the field.
func DecodeCase(v any) (*toolgrade.Case, error) {
	obj, ok := v.(toolgrade.Object)
	if !ok {
		return nil, fmt.Errorf("want a case object, got %s", toolgrade.Kind(v))
	}
	c := &toolgrade.Case{Raw: obj}
	var err error
	if c.ID, err = caseID(obj); err != nil {
		return nil, err
	}
	_, c.Input, _ = first(obj, inputKeys)
	_, c.ActualOutput, _ = first(obj, actualOutputKeys)
	_, c.ExpectedOutput, _ = first(obj, expectedOutputKeys)
	_, c.AvailableTools, _ = first(obj, availableToolsKeys)
	_, c.Trajectory, _ = first(obj, trajectoryKeys)
	_, c.ExpectedTrajectory, _ = first(obj, expectedTrajectories)

	if c.Called, err = calls(obj, calledKeys, trajectoryKeys); err != nil {
		return nil, err
	}
	if c.Expected, err = calls(obj, expectedKeys, expectedTrajectories); err != nil {
		return nil, err
	}
	return c, nil
}

// calls reads a list of calls from the first of listKeys present, else
// extracts them from the first of traceKeys present.
func calls(obj toolgrade.Object, listKeys, traceKeys []string) ([]toolgrade.Call, error) {
	if key, v, ok := first(obj, listKeys); ok {
		list, err := toolgrade.DecodeCalls(v)
		return list, toolgrade.InField(key, err)
	}
	if key, v, ok := first(obj, traceKeys); ok && v != nil {
		t, err := trace.Extract(v, "")
		if err != nil {
			return nil, toolgrade.InField(key, err)
		}
		return t.Calls, nil
	}
	return nil, nil
}
