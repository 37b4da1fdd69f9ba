package deepfabric

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/execution"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// Options configure [Metric]. The JSON names are those of
// DeepFabric's EvaluatorConfig, so a DeepFabric configuration works
// unchanged as a metric entry.
type Options struct {
	// MultiTurn scores all calls of a sample instead of only the first
	// expected and the first called one.
	MultiTurn bool `json:"multi_turn"`
	// MetricWeights weighs the four parts of the overall score. nil means
	// DeepFabric's defaults, 0.40, 0.35, 0.25 and 0; a map given replaces
	// them entirely (a part it leaves out weighs 0, other names are
	// ignored, as DeepFabric ignores them, and weights need not be in
	// [0, 1] nor sum to 1).
	MetricWeights map[Part]float64 `json:"metric_weights"`

	// Execution chooses how execution success is decided: "" or
	// [ExecutionTypeCheck], DeepFabric's own rule (see [Metric]); or
	// [ExecutionMCP], running the calls on a live MCP server (Server),
	// each sample in a fresh session: a single-turn sample's execution
	// succeeds when its first call runs without error, a multi-turn one's
	// when all its calls do. Not a DeepFabric option: toolgrade's own.
	Execution ExecutionMode `json:"execution,omitempty"`
	// AllowTools and CallTimeout (a Go duration) guard the calls run
	// with execution: mcp, as the execution_success metric's options do.
	AllowTools  []string `json:"allow_tools,omitempty"`
	CallTimeout string   `json:"call_timeout,omitempty"`
	// Server runs the calls with execution: mcp.
	Server toolgrade.ToolServer `json:"-"`
}

// An ExecutionMode is how execution success is decided.
type ExecutionMode string

const (
	// ExecutionTypeCheck is DeepFabric's own rule (the default).
	ExecutionTypeCheck ExecutionMode = "type_check"
	// ExecutionMCP runs the calls on an MCP server.
	ExecutionMCP ExecutionMode = "mcp"
)

// A Part is one part of DeepFabric's overall score, as MetricWeights and
// the result's components name it.
type Part string

const (
	PartToolSelection     Part = "tool_selection"
	PartParameterAccuracy Part = "parameter_accuracy"
	PartExecutionSuccess  Part = "execution_success"
	PartResponseQuality   Part = "response_quality"
)

// The parts of DeepFabric's score, in the order the overall score adds
// them.
var componentNames = []Part{PartToolSelection, PartParameterAccuracy, PartExecutionSuccess, PartResponseQuality}

var defaultWeights = map[Part]float64{
	PartToolSelection:     0.40,
	PartParameterAccuracy: 0.35,
	PartExecutionSuccess:  0.25,
	PartResponseQuality:   0.00,
}

// Metric reproduces the scores of DeepFabric's evaluation pipeline
// (always-further/deepfabric @ 8fdd2a3, v4.12.0: Evaluator.evaluate with
// its tool_calling evaluator and compute_metrics).
//
// Each sample gets three flags and a response quality. Single-turn (the
// default) looks only at the first expected and the first called call:
// tool selection is the names being equal; parameter accuracy is a check
// against the called tool's schema in available_tools (required parameters
// present, known parameters of the right type; values are never compared),
// or, without such a schema, a comparison of values (same keys; strings
// equal after Python's lower() and strip(), numbers within 1e-6); execution
// success is both; response quality is 0. A sample with no expected call
// is skipped and scores 0. Multi-turn looks at all calls: tool selection
// is every expected name being called, parameter accuracy is every call of
// an expected tool having the keys of that tool's first expected call,
// execution success is anything called or a final response given, and
// response quality is the share of expected names called.
//
// A sample DeepFabric cannot process scores 0 on every part: an expected
// call with a top-level argument that is null or "", or, single-turn, a
// first called call whose arguments are null.
//
// The score is the weighted sum of the parts. A case with a "samples"
// list is a dataset of those samples: each part is its mean over the
// samples and the score the weighted sum of the means. The result's
// components hold the four parts and the counts samples_evaluated and
// processing_errors (1 for a single sample DeepFabric could not process).
// DeepFabric gives no verdict, so results have no threshold.
type Metric struct {
	multiTurn bool
	weights   map[Part]float64
	exec      *execution.Runner // with execution: mcp
}

// New returns the metric.
func New(opts Options) (*Metric, error) {
	m := &Metric{multiTurn: opts.MultiTurn, weights: defaultWeights}
	if opts.MetricWeights != nil {
		m.weights = maps.Clone(opts.MetricWeights)
	}
	switch opts.Execution {
	case "", ExecutionTypeCheck:
	case ExecutionMCP:
		if opts.Server == nil {
			return nil, &toolgrade.OptionError{Option: "execution", Value: string(opts.Execution), Err: errors.New("execution: mcp needs an MCP server to run the calls on")}
		}
		m.exec = &execution.Runner{Server: opts.Server, AllowTools: opts.AllowTools}
		if opts.CallTimeout != "" {
			d, err := time.ParseDuration(opts.CallTimeout)
			if err != nil || d <= 0 {
				return nil, &toolgrade.OptionError{Option: "call_timeout", Value: opts.CallTimeout, Err: fmt.Errorf("want a positive duration such as 30s, got %q", opts.CallTimeout)}
			}
			m.exec.CallTimeout = d
		}
	default:
		return nil, &toolgrade.OptionError{Option: "execution", Value: string(opts.Execution), Allowed: []string{string(ExecutionTypeCheck), string(ExecutionMCP)}}
	}
	return m, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "deepfabric".
func (m *Metric) Profile() string { return "deepfabric" }

// CaseFields returns the fields the metric reads: the samples, or the
// calls, tool definitions and final response of the case itself.
func (m *Metric) CaseFields() []string {
	return []string{"samples", "tools_called", "expected_tools", "available_tools", "final_response", "actual_output"}
}

// A sample is one DeepFabric sample.
type sample struct {
	called, expected []toolgrade.Call
	tools            []tool
	finalResponse    string
}

// An evaluation is DeepFabric's evaluation of one sample.
type evaluation struct {
	toolSelection, parameters, execution bool
	responseQuality                      float64
	processingError                      bool
	notes                                []string
}

// Grade scores the case as DeepFabric would.
func (m *Metric) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	samples, aggregate, err := readSamples(c)
	if err != nil {
		r.Fail(err)
		return r
	}
	evals := make([]evaluation, len(samples))
	for i := range samples {
		if m.multiTurn {
			evals[i] = multiTurn(&samples[i])
		} else {
			evals[i] = singleTurn(&samples[i])
		}
	}
	if m.exec != nil {
		for i := range samples {
			execs, err := m.execute(ctx, &samples[i], &evals[i])
			if err != nil {
				r.Fail(err)
				return r
			}
			if !aggregate && execs != nil {
				r.SetDetail(execs)
			}
		}
	}

	// compute_metrics: means over all samples, errors and skips counting 0.
	var ts, pa, es, errs int
	var quality float64
	for _, e := range evals {
		ts += b2i(e.toolSelection)
		pa += b2i(e.parameters)
		es += b2i(e.execution)
		quality += e.responseQuality
		errs += b2i(e.processingError)
	}
	parts := make([]float64, 4)
	if n := float64(len(evals)); n > 0 {
		parts = []float64{float64(ts) / n, float64(pa) / n, float64(es) / n, quality / n}
	}
	for i, p := range parts {
		// Each product is rounded on its own (float64 forbids fusing it
		// with the sum), as in Python.
		r.Score += float64(p * m.weights[componentNames[i]])
	}
	comps := toolgrade.Components{
		"samples_evaluated": float64(len(evals)),
		"processing_errors": float64(errs),
	}
	for i, name := range componentNames {
		comps[string(name)] = parts[i]
	}
	r.SetDetail(comps)
	r.Reason = m.reason(evals, parts, aggregate)
	if !m.multiTurn && slices.ContainsFunc(samples, func(s sample) bool { return len(s.expected) > 1 || len(s.called) > 1 }) {
		r.Reason += "; only the first expected and the first called call compared (multi_turn: false)"
	}
	if m.exec != nil {
		r.Reason = "execution_success by running the calls on the MCP server (execution: mcp), not by DeepFabric's type check; " + r.Reason
	}
	return r
}

// execute decides a sample's execution success by running its calls (see
// [Options.Execution]).
func (m *Metric) execute(ctx context.Context, s *sample, ev *evaluation) (execution.Outcomes, error) {
	if ev.processingError {
		return nil, nil
	}
	execs, err := m.exec.Run(ctx, s.called)
	if err != nil {
		return nil, err
	}
	ok, counted := execution.Tally(execs)
	if m.multiTurn {
		ev.execution = ok == counted && (len(s.called) > 0 || s.finalResponse != "")
	} else {
		ev.execution = len(execs) > 0 && execs[0].Success
	}
	for _, e := range execs {
		if !e.Success && e.Skipped == "" && (m.multiTurn || e.Call == 0) {
			ev.notes = append(ev.notes, fmt.Sprintf("execution: call %d %s: %s", e.Call, e.Name, e.Error))
		}
	}
	return execs, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readSamples reads the case's samples: its "samples" list when it has one
// (aggregate is then true), else the case itself.
func readSamples(c *toolgrade.Case) (samples []sample, aggregate bool, err error) {
	v, ok := c.Raw.Get("samples")
	if !ok {
		s := sample{called: c.Called, expected: c.Expected}
		if s.tools, err = readTools(schema.Definitions(c)); err != nil {
			return nil, false, toolgrade.InField("available_tools", err)
		}
		s.finalResponse = finalResponse(c.Raw, c.ActualOutput)
		return []sample{s}, false, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, true, &toolgrade.FieldError{Path: "samples", Err: fmt.Errorf("want a list of samples, got %s", jsonvalue.Kind(v))}
	}
	samples = make([]sample, len(list))
	for i, e := range list {
		path := "samples[" + strconv.Itoa(i) + "]"
		obj, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, true, &toolgrade.FieldError{Path: path, Err: fmt.Errorf("want a sample object, got %s", jsonvalue.Kind(e))}
		}
		s := &samples[i]
		for _, side := range []struct {
			keys []string
			dst  *[]toolgrade.Call
		}{{[]string{"tools_called", "toolsCalled"}, &s.called}, {[]string{"expected_tools", "expectedTools"}, &s.expected}} {
			for _, k := range side.keys {
				if v, ok := obj.Get(k); ok {
					if *side.dst, err = compat.DecodeCalls(v); err != nil {
						return nil, true, toolgrade.InField(path+"."+k, err)
					}
					break
				}
			}
		}
		tools, _ := obj.Get("available_tools")
		if s.tools, err = readTools(tools); err != nil {
			return nil, true, toolgrade.InField(path+".available_tools", err)
		}
		output, _ := obj.Get("actual_output")
		s.finalResponse = finalResponse(obj, output)
	}
	return samples, true, nil
}

// finalResponse is the model's closing text: final_response, else the
// case's actual output; "" when neither is a string.
func finalResponse(raw jsonvalue.Object, actualOutput any) string {
	if v, ok := raw.Get("final_response"); ok {
		s, _ := v.(string)
		return s
	}
	s, _ := actualOutput.(string)
	return s
}

// invalidExpected says why DeepFabric's dataset validation rejects the
// sample's expected calls, or "": arguments that are not an object, or a
// top-level argument that is null or "".
func invalidExpected(s *sample) string {
	for i := range s.expected {
		args, bad := python.Dict(&s.expected[i])
		if bad != "" {
			return fmt.Sprintf("expected call %d has arguments that are %s", i, bad)
		}
		for _, a := range args {
			if a.Value == nil || a.Value == "" {
				return fmt.Sprintf("expected call %d has argument %q = %s, which DeepFabric's dataset validation rejects", i, a.Key, jsonvalue.Format(a.Value))
			}
		}
	}
	return ""
}

func processingError(why string) evaluation {
	return evaluation{processingError: true, notes: []string{"processing error: " + why}}
}

// singleTurn evaluates a sample by its first expected and first called
// call.
func singleTurn(s *sample) evaluation {
	if why := invalidExpected(s); why != "" {
		return processingError(why)
	}
	var got jsonvalue.Object
	if len(s.called) > 0 {
		var bad string
		if got, bad = python.Dict(&s.called[0]); bad != "" {
			return processingError("the first call's arguments are " + bad + ", which DeepFabric cannot compare")
		}
	}
	switch {
	case len(s.expected) == 0:
		return evaluation{notes: []string{"no expected call: DeepFabric skips the sample"}}
	case len(s.called) == 0:
		return evaluation{notes: []string{"nothing called"}}
	}
	e, p := &s.expected[0], &s.called[0]
	var ev evaluation
	ev.toolSelection = e.Name == p.Name
	if !ev.toolSelection {
		ev.notes = append(ev.notes, fmt.Sprintf("first call: expected %q, got %q", e.Name, p.Name))
	}
	want, _ := e.Args.(jsonvalue.Object)
	var why string
	switch tool := findTool(s.tools, p.Name); {
	case len(want) == 0 && len(got) == 0:
		ev.parameters = true
	case tool != nil:
		why = tool.check(got)
		if why != "" {
			why = "schema of " + tool.name + ": " + why
		}
		ev.parameters = why == ""
	default:
		why = compareValues(want, got)
		ev.parameters = why == ""
	}
	if why != "" {
		ev.notes = append(ev.notes, "parameters: "+why)
	}
	ev.execution = ev.toolSelection && ev.parameters
	return ev
}

// compareValues is DeepFabric's comparison of values, used when the
// called tool has no schema: the same keys, strings equal after Python's
// lower().strip(), numbers (booleans included) within 1e-6, anything else
// by Python ==. It returns the first difference, or "".
func compareValues(want, got jsonvalue.Object) string {
	if len(want) != len(got) {
		return fmt.Sprintf("keys: expected %q, got %q", want.Keys(), got.Keys())
	}
	for _, w := range want {
		if !got.Has(w.Key) {
			return fmt.Sprintf("keys: expected %q, got %q", want.Keys(), got.Keys())
		}
	}
	for _, w := range want {
		g, _ := got.Get(w.Key)
		ws, wIsStr := w.Value.(string)
		gs, gIsStr := g.(string)
		wf, wIsNum := pyNumber(w.Value)
		gf, gIsNum := pyNumber(g)
		var same bool
		switch {
		case wIsStr && gIsStr:
			same = python.Strip(python.Lower(ws)) == python.Strip(python.Lower(gs))
		case wIsNum && gIsNum:
			same = !(math.Abs(wf-gf) > 1e-6)
		default:
			same = python.Equal(w.Value, g)
		}
		if !same {
			return fmt.Sprintf("%q: expected %s, got %s", w.Key, jsonvalue.Format(w.Value), jsonvalue.Format(g))
		}
	}
	return ""
}

// pyNumber is Python's float(v) for a value that is an int, float or bool.
func pyNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		return jsonvalue.NumberFloat(v), true
	case bool:
		return float64(b2i(v)), true
	}
	return 0, false
}

// multiTurn evaluates a sample by all its calls.
func multiTurn(s *sample) evaluation {
	if why := invalidExpected(s); why != "" {
		return processingError(why)
	}
	var ev evaluation
	called := make(map[string]bool, len(s.called))
	for _, c := range s.called {
		called[c.Name] = true
	}
	first := map[string]jsonvalue.Object{} // the first expected call of each name
	var names []string                     // distinct expected names, in order
	for _, e := range s.expected {
		if _, seen := first[e.Name]; !seen {
			first[e.Name], _ = e.Args.(jsonvalue.Object)
			names = append(names, e.Name)
		}
	}
	if len(names) == 0 {
		ev.toolSelection = len(s.called) == 0
		if !ev.toolSelection {
			ev.notes = append(ev.notes, "calls made where none were expected")
		}
		ev.responseQuality = float64(b2i(ev.toolSelection))
	} else {
		var missing []string
		for _, n := range names {
			if !called[n] {
				missing = append(missing, strconv.Quote(n))
			}
		}
		ev.toolSelection = len(missing) == 0
		ev.responseQuality = float64(len(names)-len(missing)) / float64(len(names))
		if len(missing) > 0 {
			ev.notes = append(ev.notes, "not called: "+strings.Join(missing, ", "))
		}
	}
	ev.parameters = true
	for j, c := range s.called {
		want, ok := first[c.Name]
		if !ok {
			continue
		}
		got, _ := c.Args.(jsonvalue.Object)
		for _, w := range want {
			if !got.Has(w.Key) {
				ev.parameters = false
				ev.notes = append(ev.notes, fmt.Sprintf("call %d %s lacks argument %q", j, c.Name, w.Key))
				break
			}
		}
	}
	ev.execution = len(s.called) > 0 || s.finalResponse != ""
	if !ev.execution {
		ev.notes = append(ev.notes, "nothing called and no final response")
	}
	return ev
}

// A tool is a tool as DeepFabric's scorer reads it (its
// ToolDefinition): parameters with a type of str, int, float, bool, list
// or dict.
type tool struct {
	name   string
	params []param
}

type param struct {
	name, typ string
	required  bool
}

// paramTypes maps JSON Schema types to DeepFabric's; any other type is str.
var paramTypes = map[string]string{"string": "str", "integer": "int", "number": "float", "boolean": "bool", "array": "list", "object": "dict"}

// readTools reads tool definitions in DeepFabric's own form ({"name",
// "parameters": [{"name", "type", "required"}]}), or with a JSON Schema
// (OpenAI's {"type": "function", "function": {...}}, a bare {"name",
// "parameters"}, MCP's inputSchema, Anthropic's input_schema), which it
// converts as DeepFabric's ToolDefinition.from_openai does: properties in
// order, JSON types mapped by paramTypes, a missing or unknown type read as
// str, required when listed in "required".
func readTools(v any) ([]tool, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of tools, got %s", jsonvalue.Kind(v))
	}
	tools := make([]tool, len(list))
	for i, e := range list {
		at := "[" + strconv.Itoa(i) + "]"
		fail := func(field string, err error) ([]tool, error) {
			return nil, toolgrade.InField(at, &toolgrade.FieldError{Path: field, Err: err})
		}
		fn, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, &toolgrade.FieldError{Path: at, Err: fmt.Errorf("want a tool object, got %s", jsonvalue.Kind(e))}
		}
		if f, ok := fn.Get("function"); ok {
			if fo, ok := f.(jsonvalue.Object); ok {
				fn = fo
			}
		}
		name, _ := fn.Get("name")
		if tools[i].name, ok = name.(string); !ok {
			return fail("name", fmt.Errorf("want a string, got %s", jsonvalue.Kind(name)))
		}
		params, _ := fn.Get("parameters")
		if list, ok := params.([]any); ok {
			for k, p := range list {
				po, _ := p.(jsonvalue.Object)
				var dp param
				pn, _ := po.Get("name")
				pt, _ := po.Get("type")
				var nameOK, typeOK bool
				dp.name, nameOK = pn.(string)
				dp.typ, typeOK = pt.(string)
				if !nameOK || !typeOK {
					return fail("parameters["+strconv.Itoa(k)+"]", errors.New(`want {"name", "type", "required"} with a string name and type`))
				}
				dp.required = true
				if req, ok := po.Get("required"); ok {
					if dp.required, ok = req.(bool); !ok {
						return fail("parameters["+strconv.Itoa(k)+"].required", fmt.Errorf("want true or false, got %s", jsonvalue.Kind(req)))
					}
				}
				tools[i].params = append(tools[i].params, dp)
			}
			continue
		}
		schema, _ := params.(jsonvalue.Object)
		if params == nil {
			for _, k := range []string{"input_schema", "inputSchema"} {
				if s, ok := fn.Get(k); ok {
					schema, _ = s.(jsonvalue.Object)
					break
				}
			}
		}
		props, _ := schema.Get("properties")
		req, _ := schema.Get("required")
		required := map[string]bool{}
		reqList, _ := req.([]any)
		for _, r := range reqList {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
		propObj, _ := props.(jsonvalue.Object)
		for _, p := range propObj {
			if p.Value == nil {
				continue // DeepFabric skips null properties
			}
			po, _ := p.Value.(jsonvalue.Object)
			jt, _ := po.Get("type")
			js, _ := jt.(string)
			typ, ok := paramTypes[js]
			if !ok {
				typ = "str"
			}
			tools[i].params = append(tools[i].params, param{name: p.Key, typ: typ, required: required[p.Key]})
		}
	}
	return tools, nil
}

// findTool returns the first tool of the name, or nil.
func findTool(tools []tool, name string) *tool {
	for i := range tools {
		if tools[i].name == name {
			return &tools[i]
		}
	}
	return nil
}

// check is DeepFabric's schema check of called arguments: every required
// parameter present, and every argument the schema knows of the right
// type (extra arguments are ignored, values never compared). It returns
// the first failure, or "".
func (t *tool) check(args jsonvalue.Object) string {
	for _, p := range t.params {
		if p.required && !args.Has(p.name) {
			return fmt.Sprintf("required parameter %q missing", p.name)
		}
	}
	types := make(map[string]string, len(t.params))
	for _, p := range t.params {
		types[p.name] = p.typ // a repeated name: the last one counts
	}
	for _, a := range args {
		if typ, ok := types[a.Key]; ok && !typeOK(typ, a.Value) {
			return fmt.Sprintf("%q is %s, want %s", a.Key, jsonvalue.Format(a.Value), typ)
		}
	}
	return ""
}

// typeOK is DeepFabric's type check: int wants an integer (not a float
// such as 3.0, not a boolean), float accepts integers too, and null fails
// every type, as does an unknown type.
func typeOK(typ string, v any) bool {
	switch typ {
	case "str":
		_, ok := v.(string)
		return ok
	case "int":
		n, ok := v.(json.Number)
		return ok && jsonvalue.IsIntegerLiteral(string(n))
	case "float":
		_, ok := v.(json.Number)
		return ok
	case "bool":
		_, ok := v.(bool)
		return ok
	case "list":
		_, ok := v.([]any)
		return ok
	case "dict":
		_, ok := v.(jsonvalue.Object)
		return ok
	}
	return false
}

// reason sums up the parts and explains each sample's shortfalls.
func (m *Metric) reason(evals []evaluation, parts []float64, aggregate bool) string {
	var b strings.Builder
	if aggregate {
		errs := 0
		for _, e := range evals {
			errs += b2i(e.processingError)
		}
		fmt.Fprintf(&b, "%d samples, %d processing errors; ", len(evals), errs)
	}
	for i, name := range componentNames {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s (weight %s)", name, fmtFloat(parts[i]), fmtFloat(m.weights[name]))
	}
	for i, e := range evals {
		if len(e.notes) == 0 {
			continue
		}
		b.WriteString("; ")
		if aggregate {
			fmt.Fprintf(&b, "sample %d: ", i)
		}
		b.WriteString(strings.Join(e.notes, ", "))
	}
	return b.String()
}

// fmtFloat writes a score briefly, for reasons.
func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }
