// Package promptfoo reproduces the verdicts and scores of promptfoo's
// tool-call assertions (promptfoo 0.123.1, run through its
// assertions.runAssertion), quirks included.
//
// A case gives the provider's raw output (output, in whatever shape the
// provider returned it), the assertion's value (value), the provider's
// tool configuration (available_tools) and, for the trajectory
// assertions, promptfoo's trace record (trace: {traceId, spans,
// metadata}). The option type picks the assertion; a not- prefix inverts
// its verdict.
//
//   - tool-call-f1 (the default): F1 of the set of expected names (the
//     value: a list, each item through String() and trimmed, or a
//     comma-separated string; empty names dropped) against the set of names
//     found in the output: OpenAI tool_calls (function.name and name), a
//     Responses function_call item, an Anthropic tool_use block, a Gemini
//     functionCall, a Live toolCall, a list of such blocks or {name} items,
//     and the same as JSON text. Text that is not JSON is scanned line by
//     line for JSON blocks: fenced code is skipped, and a block counts only
//     when its opening bracket starts its line and its closing bracket ends
//     one. Precision is 0 when nothing was called. The score is the F1 even
//     under not-; the verdict is F1 ≥ threshold (default 1), inverted by
//     not-. Past promptfoo's work limit on malformed text the assertion
//     fails with score 0.
//   - is-valid-openai-tools-call: an output holding the text MCP Tool
//     Error fails and one holding MCP Tool Result passes, unchecked; a null
//     output is promptfoo's TypeError. Otherwise the output (or its
//     tool_calls) must be a non-empty list of calls with string
//     function.name and function.arguments, each naming a configured
//     function tool (the first of its name) whose parameters Ajv compiles
//     in strict mode and the parsed arguments satisfy (see ajv.go for where
//     Ajv differs from plain draft-07). Score 1 or 0.
//   - is-valid-function-call and is-valid-openai-function-call: the same
//     check of one call (the output, or its function_call) against the
//     bare functions of available_tools; any failure, a null output
//     included, fails.
//   - trajectory:tool-used, trajectory:tool-sequence and
//     trajectory:tool-args-match read the trace's spans as promptfoo's
//     trajectory steps: sorted by start time, then end time, then input
//     order; a span is a tool step when an attribute names a tool
//     (tool.name, tool_name, tool, function.name, ..., then keys that look
//     like a tool name, then "mcp .../name" span names), unless it is a
//     command tool (exec_command, local_shell, shell and the trace's
//     commandToolNames) with a command. A step answers to its span name and
//     its tool name; patterns are case-insensitive globs. tool-used wants
//     every pattern matched (not-: none), or, for an object, min ≤ count ≤
//     max; tool-sequence wants the patterns in order (exact: position by
//     position, as many steps as patterns); tool-args-match wants any
//     matching step whose arguments match the expected ones partially
//     (recursive subset, arrays of the same length) or exactly, after
//     dropping ignored keys and arguments equal to their defaults, with
//     Node's isDeepStrictEqual (0 differs from -0). Score 1 or 0, not-
//     inverted.
//
// A weight of 0 makes the verdict pass and leaves the score. A malformed
// value is the error promptfoo throws. The result's success is promptfoo's
// pass: under not- (and weight 0) it is not the score's comparison with
// the threshold.
//
// What the assertions leave unchecked, and the reason says: tool-call-f1
// looks at names alone, never at arguments, duplicates or order, and reads
// no JSON inside fenced code; the validity checks never compare calls with
// any expectation; the trajectory assertions never look at a tool's result
// or at spans that are not tool steps.
//
// Non-goals: Nunjucks templates and file:// references in values and
// tools (the values are taken verbatim), promptfoo's LLM-judged assertions,
// the Google variant of is-valid-function-call, and the Ajv features
// listed in ajv.go.
package promptfoo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Type is an assertion type as promptfoo spells it: one of the
// constants, or "not-" before one ("not-" + ToolCallF1) to invert it.
type Type string

// The assertion types, without the not- prefix.
const (
	ToolCallF1         Type = "tool-call-f1"
	ValidToolsCall     Type = "is-valid-openai-tools-call"
	ValidFunctionCall  Type = "is-valid-function-call"
	ValidOpenAIFnCall  Type = "is-valid-openai-function-call"
	TrajectoryToolUsed Type = "trajectory:tool-used"
	TrajectorySequence Type = "trajectory:tool-sequence"
	TrajectoryArgs     Type = "trajectory:tool-args-match"
)

var types = []Type{ToolCallF1, ValidToolsCall, ValidFunctionCall, ValidOpenAIFnCall, TrajectoryToolUsed, TrajectorySequence, TrajectoryArgs}

// Options configure [Metric]. The JSON names are the assertion's own
// fields.
type Options struct {
	// Type is the assertion type, with not- to invert it (default
	// tool-call-f1).
	Type Type `json:"type,omitempty"`
	// Threshold is tool-call-f1's pass mark (default 1).
	Threshold *float64 `json:"threshold,omitempty"`
	// Weight 0 makes any verdict pass, as in promptfoo; other weights
	// change nothing for one assertion.
	Weight *float64 `json:"weight,omitempty"`
}

// Metric reproduces one promptfoo assertion (see the package doc).
type Metric struct {
	opts    Options
	base    Type
	inverse bool
}

// New checks the options: an unknown assertion type, or a threshold on an
// assertion that takes none, is an error.
func New(opts Options) (*Metric, error) {
	if opts.Type == "" {
		opts.Type = ToolCallF1
	}
	name, inverse := strings.CutPrefix(string(opts.Type), "not-")
	base := Type(name)
	if !slices.Contains(types, base) {
		var all []string
		for _, t := range types {
			all = append(all, string(t), "not-"+string(t))
		}
		return nil, &toolgrade.OptionError{Option: "type", Value: string(opts.Type), Allowed: all}
	}
	if opts.Threshold != nil && base != ToolCallF1 {
		return nil, &toolgrade.OptionError{Option: "threshold", Err: fmt.Errorf("only tool-call-f1 takes a threshold; %s is a verdict", base)}
	}
	return &Metric{opts: opts, base: base, inverse: inverse}, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "promptfoo".
func (m *Metric) Profile() string { return "promptfoo" }

// CaseFields returns the fields the assertion reads.
func (m *Metric) CaseFields() []string {
	switch m.base {
	case ToolCallF1:
		return []string{"output", "value"}
	case ValidToolsCall, ValidFunctionCall, ValidOpenAIFnCall:
		return []string{"output", "available_tools"}
	}
	return []string{"trace", "value"}
}

// Grade scores one case.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(1)}
	get := func(key string) any {
		if c.Raw == nil {
			return js.Undefined{}
		}
		return js.Get(c.Raw, key)
	}
	var pass bool
	var err error
	switch m.base {
	case ToolCallF1:
		pass, err = m.toolCallF1(&r, get("output"), get("value"))
	case ValidToolsCall, ValidFunctionCall, ValidOpenAIFnCall:
		var v verdict
		if m.base == ValidToolsCall {
			v, err = toolsCall(get("output"), tools(get("available_tools"), true))
		} else {
			v, err = functionCall(get("output"), tools(get("available_tools"), false))
		}
		pass, r.Reason = v.pass != m.inverse, v.reason+"; "+validityNote
		r.Score = score(pass)
	default:
		pass, err = m.trajectory(&r, get("trace"), get("value"))
	}
	if err != nil {
		r.Score, r.Reason = 0, ""
		r.Fail(fmt.Errorf("%s: %w", m.opts.Type, err))
		return r
	}
	if m.opts.Weight != nil && *m.opts.Weight == 0 {
		pass = true
		r.Reason += " (weight 0: the verdict passes whatever the score)"
	}
	// Success is promptfoo's pass, which not- and weight 0 set apart from
	// the score's comparison with the threshold.
	if m.base == ToolCallF1 && m.opts.Threshold != nil {
		r.Threshold = toolgrade.Float(*m.opts.Threshold)
	}
	r.Success = pass
	return r
}

const validityNote = "the check looks at the calls' shape and schemas only, never at which calls were expected"

func score(pass bool) float64 {
	if pass {
		return 1
	}
	return 0
}

// tools returns the configured tools: available_tools as given (a
// provider's config.tools or config.functions).
func tools(v any, _ bool) any { return v }

func (m *Metric) toolCallF1(r *toolgrade.MetricResult, output, value any) (bool, error) {
	expected, err := expectedNames(value)
	if err != nil {
		return false, err
	}
	var called nameSet
	if err := toolNames(output, &called, 0); err != nil {
		if errors.Is(err, errParseLimit) {
			r.Reason = "Tool Call F1 could not finish parsing malformed output within its work limit (score 0, failed)"
			return false, nil
		}
		return false, err
	}
	f, p, rc := f1(expected, called.names)
	r.Score = f
	r.Precision, r.Recall, r.F1 = toolgrade.Float(p), toolgrade.Float(rc), toolgrade.Float(f)
	threshold := 1.0
	if m.opts.Threshold != nil {
		threshold = *m.opts.Threshold
	}
	pass := (f >= threshold) != m.inverse
	r.Reason = fmt.Sprintf("Tool Call F1 %s (precision %s, recall %s) over the sets of names: expected %s, called %s; threshold %s%s; names only: arguments, duplicates and order are never compared, and JSON in fenced code is not read",
		js.FormatNumber(f), js.FormatNumber(p), js.FormatNumber(rc), setText(expected), setText(called.names), js.FormatNumber(threshold), map[bool]string{true: " (inverted by not-)", false: ""}[m.inverse])
	return pass, nil
}

func (m *Metric) trajectory(r *toolgrade.MetricResult, trace, value any) (bool, error) {
	if js.Nullish(trace) {
		return false, fmt.Errorf("no trace data available for %s assertion", m.base)
	}
	ss, err := steps(trace)
	if err != nil {
		return false, err
	}
	var base bool
	switch m.base {
	case TrajectoryToolUsed:
		base, err = toolUsed(r, ss, value, m.inverse)
		if err == nil && m.inverse {
			// tool-used inverts its list form itself: none may match.
			r.Score = score(base)
			r.Reason += "; the trajectory assertions never look at a tool's result"
			return base, nil
		}
	case TrajectorySequence:
		base, err = toolSequence(r, ss, value)
	case TrajectoryArgs:
		base, err = toolArgsMatch(r, ss, value)
	}
	if err != nil {
		return false, err
	}
	pass := base != m.inverse
	r.Score = score(pass)
	r.Reason += "; the trajectory assertions never look at a tool's result"
	return pass, nil
}

func stepList(ss []step) string {
	if len(ss) == 0 {
		return "(none)"
	}
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = "tool:" + s.name
	}
	return strings.Join(parts, ", ")
}

// toolUsed is trajectory:tool-used. For the list form under not-, the
// pass it returns is already inverted (no pattern may match).
func toolUsed(r *toolgrade.MetricResult, ss []step, value any, inverse bool) (bool, error) {
	list, isList := value.([]any)
	allStrings := isList && !slices.ContainsFunc(list, func(e any) bool { _, ok := e.(string); return !ok })
	if s, ok := value.(string); ok {
		list, allStrings = []any{s}, true
	}
	if allStrings {
		if len(list) == 0 {
			return false, errors.New("trajectory:tool-used assertion requires at least one expected tool")
		}
		var missing, matched []string
		for _, e := range list {
			mt := newMatcher(e)
			found := false
			for _, s := range ss {
				ok, err := mt.matches(s)
				if err != nil {
					return false, err
				}
				if ok {
					found = true
					break
				}
			}
			if found {
				matched = append(matched, mt.label)
			} else {
				missing = append(missing, mt.label)
			}
		}
		if inverse {
			r.Reason = fmt.Sprintf("forbidden tools used: %s; actual tools: %s", orNone(matched), stepList(ss))
			if len(matched) == 0 {
				r.Reason = "no forbidden tool was used; actual tools: " + stepList(ss)
				return true, nil
			}
			return false, nil
		}
		if len(missing) > 0 {
			r.Reason = fmt.Sprintf("missing required tools: %s; actual tools: %s", strings.Join(missing, ", "), stepList(ss))
			return false, nil
		}
		r.Reason = "observed every required tool; actual tools: " + stepList(ss)
		return true, nil
	}
	if _, ok := value.(jsonvalue.Object); !ok {
		return false, errors.New("trajectory:tool-used assertion must have a string, string array, or object value")
	}
	mt := newMatcher(value)
	if !mt.named() {
		return false, errors.New("trajectory:tool-used assertion object must include a name or pattern property")
	}
	lo, hi := 1.0, -1.0
	if n, ok := js.Field(value, "min").(json.Number); ok {
		lo = js.Number(n)
	}
	hasMax := false
	if n, ok := js.Field(value, "max").(json.Number); ok {
		hi, hasMax = js.Number(n), true
	}
	count := 0
	for _, s := range ss {
		ok, err := mt.matches(s)
		if err != nil {
			return false, err
		}
		if ok {
			count++
		}
	}
	pass := float64(count) >= lo && (!hasMax || float64(count) <= hi)
	want := "at least " + js.FormatNumber(lo)
	if hasMax {
		want = js.FormatNumber(lo) + "-" + js.FormatNumber(hi)
	}
	r.Reason = fmt.Sprintf("tool %q matched %d time(s), want %s; actual tools: %s", mt.label, count, want, stepList(ss))
	if inverse {
		return !pass, nil
	}
	return pass, nil
}

func orNone(ss []string) string {
	if len(ss) == 0 {
		return "(none)"
	}
	return strings.Join(ss, ", ")
}

func toolSequence(r *toolgrade.MetricResult, ss []step, value any) (bool, error) {
	var mode any = "in_order"
	var stepsV any
	switch v := value.(type) {
	case []any:
		stepsV = v
	case jsonvalue.Object:
		if md := js.Get(v, "mode"); js.Truthy(md) {
			mode = md
		}
		stepsV = js.Get(v, "steps")
		if !js.Truthy(stepsV) {
			stepsV = []any{}
		}
	default:
		return false, errors.New("trajectory:tool-sequence assertion must have an array or object value")
	}
	list, ok := stepsV.([]any)
	if !ok {
		return false, typeError("value.steps.map is not a function")
	}
	var ms []matcher
	for i, e := range list {
		if js.Nullish(e) {
			return false, typeError("cannot read properties of null (reading 'type')")
		}
		mt := newMatcher(e)
		if !mt.named() {
			return false, fmt.Errorf("trajectory:tool-sequence assertion step %d must include a name or pattern property", i+1)
		}
		ms = append(ms, mt)
	}
	if len(ms) == 0 {
		return false, errors.New("trajectory:tool-sequence assertion requires at least one expected step")
	}
	labels := make([]string, len(ms))
	for i, mt := range ms {
		labels[i] = mt.label
	}
	if js.StrictEqual(mode, "exact") {
		pass := len(ss) == len(ms)
		for i := 0; pass && i < len(ms); i++ {
			ok, err := ms[i].matches(ss[i])
			if err != nil {
				return false, err
			}
			pass = ok
		}
		r.Reason = fmt.Sprintf("exact sequence %s against the tools %s", strings.Join(labels, ", "), stepList(ss))
		return pass, nil
	}
	next := 0
	for _, s := range ss {
		if next >= len(ms) {
			break
		}
		ok, err := ms[next].matches(s)
		if err != nil {
			return false, err
		}
		if ok {
			next++
		}
	}
	if next == len(ms) {
		r.Reason = fmt.Sprintf("observed %s in order among the tools %s", strings.Join(labels, ", "), stepList(ss))
		return true, nil
	}
	r.Reason = fmt.Sprintf("%q was not observed in order among the tools %s", labels[next], stepList(ss))
	return false, nil
}

func toolArgsMatch(r *toolgrade.MetricResult, ss []step, value any) (bool, error) {
	o, ok := value.(jsonvalue.Object)
	if !ok {
		return false, errors.New("trajectory:tool-args-match assertion must have an object value")
	}
	mt := newMatcher(o)
	if !mt.named() {
		return false, errors.New("trajectory:tool-args-match assertion object must include a name or pattern property")
	}
	expected, has := o.Get("args")
	if !has {
		expected = js.Get(o, "arguments")
	}
	if js.IsUndefined(expected) {
		return false, errors.New("trajectory:tool-args-match assertion must include an args or arguments property")
	}
	mode := "partial"
	if md, has := o.Get("mode"); has {
		s, _ := md.(string)
		if s != "partial" && s != "exact" {
			return false, errors.New(`trajectory:tool-args-match assertion mode must be "partial" or "exact"`)
		}
		mode = s
	}
	var defaults jsonvalue.Object
	if d, has := o.Get("defaults"); has {
		if defaults, ok = d.(jsonvalue.Object); !ok {
			return false, errors.New("trajectory:tool-args-match assertion defaults must be an object mapping argument names to default values")
		}
	}
	var ignore []string
	if ig, has := o.Get("ignore"); has {
		entries, isList := ig.([]any)
		if !isList {
			entries = []any{ig}
		}
		for _, e := range entries {
			s, ok := e.(string)
			if !ok || js.Trim(s) == "" {
				return false, errors.New("trajectory:tool-args-match assertion ignore must be a non-empty string or an array of non-empty strings")
			}
			ignore = append(ignore, s)
		}
	}
	matching, withArgs := 0, 0
	for _, s := range ss {
		ok, err := mt.matches(s)
		if err != nil {
			return false, err
		}
		if !ok {
			continue
		}
		matching++
		if js.IsUndefined(s.args) {
			continue
		}
		withArgs++
		actual := stripDefaults(stripIgnored(s.args, ignore), defaults)
		want := stripIgnored(expected, ignore)
		if mode == "exact" && deepStrictEqual(actual, want) || mode == "partial" && partialMatch(actual, want) {
			r.Reason = fmt.Sprintf("tool %q matched the expected arguments (%s)", mt.label, mode)
			return true, nil
		}
	}
	switch {
	case matching == 0:
		r.Reason = fmt.Sprintf("no tool call matched %q; actual tools: %s", mt.label, stepList(ss))
	case withArgs == 0:
		r.Reason = fmt.Sprintf("tool %q was observed but no arguments were captured", mt.label)
	default:
		r.Reason = fmt.Sprintf("no call of tool %q matched the expected arguments (%s; Node's isDeepStrictEqual, so 0 differs from -0)", mt.label, mode)
	}
	return false, nil
}
