// Package mastra reproduces the scores of Mastra's code scorers for tool
// use (@mastra/evals 1.10.2, run through @mastra/core 1.67.0's scorer
// pipeline), quirks included. A Mastra scorer gives a score and no
// verdict, so the result has no threshold.
//
// Calls come from the case's output, run.output of an agent run: a list
// of Mastra stored messages (format 2). Every message is read, whatever
// its role; in each, the tool-invocation parts and the legacy
// content.toolInvocations entries are merged by call id as Mastra merges
// them (a legacy entry whose id a part has is dropped; the others keep
// their order, each placed before the next part it shares an id with). An
// invocation is a call when its toolName is set and its state is result,
// call or output-error; partial-call and other states are not. Names
// compare exactly.
//
// The scorers (option scorer, Mastra's own scorer id):
//
//   - code-tool-call-accuracy-scorer (createToolCallAccuracyScorerCode;
//     options expected_tool, strict_mode, expected_tool_order): 1 or 0.
//     Empty input_messages or output is an error, no calls score 0. A
//     non-empty expected_tool_order decides: with strict_mode the called
//     names must be exactly that list; without, each expected name's
//     first occurrence must come after the previous one's, so a name the
//     order lists twice never passes and [a, b, a] fails the order [b, a].
//     Else expected_tool must have been called, and with strict_mode be the
//     only call. The options must give expected_tool or
//     expected_tool_order, as Mastra's factory demands.
//   - code-trajectory-accuracy-scorer (createTrajectoryAccuracyScorerCode;
//     options expected_trajectory, comparison_options): the case's
//     trajectory ({steps}, a Mastra Trajectory) against the expected steps
//     (the option, else the case's expected_trajectory.steps; neither
//     scores 0). The ordering is the case's expected_trajectory.ordering,
//     else comparison_options.ordering, else relaxed; repeats are allowed
//     unless expected_trajectory.allowRepeatedSteps or
//     comparison_options.allow_repeated_steps says not. Steps match by
//     name; when the expected step has a stepType, by type too, and then
//     each of that type's data fields it gives (toolArgs, toolResult,
//     success, mcpServer, modelId, the token counts, finishReason,
//     agentId, stepId, status, output, ...) must be on the actual step
//     with the same JSON.stringify text, so key order matters. strict
//     compares position by position and takes 0.5 × extra/expected off for
//     surplus steps; relaxed finds the expected steps in order, extras
//     free; unordered pairs each expected step with the first unused
//     matching step. The score is matched/expected, minus 0.1 per name
//     repeated among the actual steps when repeats are not allowed, clamped
//     to [0, 1] and rounded to two decimals. No expected steps score 1 only
//     when there are no actual steps.
//   - code-trajectory-scorer (createTrajectoryScorerCode; options defaults,
//     weights): the expectation is defaults with the case's
//     expected_trajectory laid over it. Accuracy (weight 0.4) is the
//     comparison above when it gives steps; efficiency (0.3), when it gives
//     a budget (max_steps, max_total_tokens, max_total_duration_ms) or
//     no_redundant_calls, is the mean of 1 − overrun/limit per budget and
//     1 − 0.2 per tool call that repeats the one before it with the same
//     arguments; tool failures (0.2) count retries after a call with
//     success false beyond max_retries_per_tool (2), 0.2 each, and weigh in
//     only when there was a retry; blacklist (0.1) is 0 when a forbidden
//     tool or sequence occurs, and then the whole score is 0. The score is
//     the weighted mean of the dimensions present, blended 70/30 with the
//     scores of expected steps that carry nested (children) expectations,
//     rounded to two decimals. A budget that is no finite non-negative
//     number, or that the trajectory gives no measurements for, is an
//     error.
//   - check-called-tool (tool_name, times: default 1), check-did-not-call
//     (tool_name), check-tool-order (expected_order: an in-order
//     subsequence, unlike the accuracy scorer), check-max-tool-calls (max),
//     check-used-no-tools, check-no-tool-errors (every merged invocation,
//     whatever its state: an error when its state is call or output-error,
//     isError is true or result.error is truthy): 1 or 0.
//
// What the scorers leave unchecked, and the reason says: the tool-call
// accuracy scorer and the checks look at names alone, never at arguments
// or results; the trajectory scorers compare a step's data only when the
// expected step has a stepType, and never look at durationMs or metadata
// there.
//
// Non-goals: option values of the wrong type (JavaScript would coerce
// them) and null options, which are read as absent; Mastra's LLM-judged
// scorers; the descriptions and reasons Mastra writes.
package mastra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Scorer is a Mastra scorer's id.
type Scorer string

// The scorers the profile reproduces.
const (
	ToolCallAccuracy   Scorer = "code-tool-call-accuracy-scorer"
	TrajectoryAccuracy Scorer = "code-trajectory-accuracy-scorer"
	Trajectory         Scorer = "code-trajectory-scorer"
	CalledTool         Scorer = "check-called-tool"
	DidNotCall         Scorer = "check-did-not-call"
	ToolOrder          Scorer = "check-tool-order"
	MaxToolCalls       Scorer = "check-max-tool-calls"
	UsedNoTools        Scorer = "check-used-no-tools"
	NoToolErrors       Scorer = "check-no-tool-errors"
)

// scorerOptions lists each scorer's options, by their JSON names.
var scorerOptions = map[Scorer][]string{
	ToolCallAccuracy:   {"expected_tool", "strict_mode", "expected_tool_order"},
	TrajectoryAccuracy: {"expected_trajectory", "comparison_options"},
	Trajectory:         {"defaults", "weights"},
	CalledTool:         {"tool_name", "times"},
	DidNotCall:         {"tool_name"},
	ToolOrder:          {"expected_order"},
	MaxToolCalls:       {"max"},
	UsedNoTools:        nil,
	NoToolErrors:       nil,
}

// Options configure [Metric]. The JSON names are the scorer factories'
// options in snake_case.
type Options struct {
	// Scorer picks the scorer (default TrajectoryAccuracy).
	Scorer Scorer `json:"scorer,omitempty"`

	// ExpectedTool, StrictMode and ExpectedToolOrder are
	// createToolCallAccuracyScorerCode's options. An empty, non-nil
	// ExpectedToolOrder counts as given.
	ExpectedTool      string   `json:"expected_tool,omitempty"`
	StrictMode        bool     `json:"strict_mode,omitempty"`
	ExpectedToolOrder []string `json:"expected_tool_order,omitempty"`

	// ExpectedTrajectory (JSON: a Trajectory {steps} or a list of
	// expected steps, with Mastra's camelCase step fields) and
	// ComparisonOptions are createTrajectoryAccuracyScorerCode's options.
	ExpectedTrajectory json.RawMessage    `json:"expected_trajectory,omitempty"`
	ComparisonOptions  *ComparisonOptions `json:"comparison_options,omitempty"`

	// Defaults and Weights are createTrajectoryScorerCode's options.
	Defaults *Expectation `json:"defaults,omitempty"`
	Weights  *Weights     `json:"weights,omitempty"`

	// ToolName, Times, ExpectedOrder and Max are the checks' arguments.
	ToolName      *string  `json:"tool_name,omitempty"`
	Times         *float64 `json:"times,omitempty"`
	ExpectedOrder []string `json:"expected_order,omitempty"`
	Max           *float64 `json:"max,omitempty"`
}

// ComparisonOptions are the trajectory accuracy scorer's comparisonOptions.
type ComparisonOptions struct {
	// Ordering is strict, relaxed (the default) or unordered; any other
	// value compares as relaxed, as in Mastra.
	Ordering *string `json:"ordering,omitempty"`
	// AllowRepeatedSteps (default true) false takes 0.1 off per repeated
	// name.
	AllowRepeatedSteps *bool `json:"allow_repeated_steps,omitempty"`
}

// An Expectation is the trajectory scorer's defaults, a Mastra
// TrajectoryExpectation with its keys in snake_case (its steps keep
// Mastra's camelCase fields).
type Expectation struct {
	Steps                json.RawMessage `json:"steps,omitempty"`
	Ordering             *string         `json:"ordering,omitempty"`
	AllowRepeatedSteps   *bool           `json:"allow_repeated_steps,omitempty"`
	MaxSteps             *float64        `json:"max_steps,omitempty"`
	MaxTotalTokens       *float64        `json:"max_total_tokens,omitempty"`
	MaxTotalDurationMs   *float64        `json:"max_total_duration_ms,omitempty"`
	NoRedundantCalls     *bool           `json:"no_redundant_calls,omitempty"`
	BlacklistedTools     []string        `json:"blacklisted_tools,omitempty"`
	BlacklistedSequences [][]string      `json:"blacklisted_sequences,omitempty"`
	MaxRetriesPerTool    *float64        `json:"max_retries_per_tool,omitempty"`
}

// Weights are the trajectory scorer's weights; nil keeps the default, a
// negative weight counts 0.
type Weights struct {
	Accuracy     *float64 `json:"accuracy,omitempty"`
	Efficiency   *float64 `json:"efficiency,omitempty"`
	ToolFailures *float64 `json:"tool_failures,omitempty"`
	Blacklist    *float64 `json:"blacklist,omitempty"`
}

// Metric reproduces one Mastra scorer (see the package doc).
type Metric struct {
	opts     Options
	static   any // the parsed expected_trajectory option; undefined when not given
	defaults jsonvalue.Object
	w        [4]float64 // accuracy, efficiency, tool failures, blacklist
}

// New checks the options and returns the metric. An unknown scorer, an
// option of another scorer, or a tool-call accuracy scorer given neither
// expected_tool nor expected_tool_order (Mastra's factory throws) is an
// error.
func New(opts Options) (*Metric, error) {
	if opts.Scorer == "" {
		opts.Scorer = TrajectoryAccuracy
	}
	allowed, ok := scorerOptions[opts.Scorer]
	if !ok {
		var all []string
		for s := range scorerOptions {
			all = append(all, string(s))
		}
		slices.Sort(all)
		return nil, &toolgrade.OptionError{Option: "scorer", Value: string(opts.Scorer), Allowed: all}
	}
	for _, o := range opts.given() {
		if !slices.Contains(allowed, o) {
			want := "takes no options"
			if len(allowed) > 0 {
				want = "takes " + strings.Join(allowed, ", ")
			}
			return nil, &toolgrade.OptionError{Option: o, Err: fmt.Errorf("not an option of scorer %s, which %s", opts.Scorer, want)}
		}
	}
	m := &Metric{opts: opts, static: js.Undefined{}}
	if opts.Scorer == ToolCallAccuracy && opts.ExpectedTool == "" && opts.ExpectedToolOrder == nil {
		return nil, &toolgrade.OptionError{Option: "expected_tool", Err: errors.New(`give expected_tool or expected_tool_order (Mastra's factory throws "Either expectedTool or expectedToolOrder must be provided")`)}
	}
	if opts.Scorer == ToolOrder && opts.ExpectedOrder == nil {
		return nil, &toolgrade.OptionError{Option: "expected_order", Err: errors.New("checks.toolOrder needs the order (Mastra's factory throws a TypeError without it)")}
	}
	if len(opts.ExpectedTrajectory) > 0 {
		v, err := jsonvalue.Parse(opts.ExpectedTrajectory)
		if err != nil {
			return nil, &toolgrade.OptionError{Option: "expected_trajectory", Err: err}
		}
		if err := checkStatic(v); err != nil {
			return nil, &toolgrade.OptionError{Option: "expected_trajectory", Err: err}
		}
		if v != nil {
			m.static = v
		}
	}
	if d := opts.Defaults; d != nil {
		var err error
		if m.defaults, err = d.object(); err != nil {
			return nil, &toolgrade.OptionError{Option: "defaults.steps", Err: err}
		}
	}
	m.w = [4]float64{0.4, 0.3, 0.2, 0.1}
	if w := opts.Weights; w != nil {
		for i, p := range []*float64{w.Accuracy, w.Efficiency, w.ToolFailures, w.Blacklist} {
			if p != nil {
				m.w[i] = math.Max(0, *p)
			}
		}
	}
	return m, nil
}

// given lists the options set, by their JSON names.
func (o Options) given() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(o.ExpectedTool != "", "expected_tool")
	add(o.StrictMode, "strict_mode")
	add(o.ExpectedToolOrder != nil, "expected_tool_order")
	add(len(o.ExpectedTrajectory) > 0, "expected_trajectory")
	add(o.ComparisonOptions != nil, "comparison_options")
	add(o.Defaults != nil, "defaults")
	add(o.Weights != nil, "weights")
	add(o.ToolName != nil, "tool_name")
	add(o.Times != nil, "times")
	add(o.ExpectedOrder != nil, "expected_order")
	add(o.Max != nil, "max")
	return out
}

// checkStatic checks the expected_trajectory option as Mastra's factory
// reads it: a list is used as it is; a Trajectory's steps are mapped (each
// must be an object, and children that are given must be a list).
func checkStatic(v any) error {
	switch v := v.(type) {
	case nil, []any:
		return nil
	case jsonvalue.Object:
		steps, ok := js.Get(v, "steps").([]any)
		if !ok {
			return typeError("expectedTrajectory.steps.map is not a function: give a list of steps, or {\"steps\": [...]}")
		}
		return checkSteps(steps)
	}
	return typeError(fmt.Sprintf("expectedTrajectory is %s: give a list of steps, or {\"steps\": [...]}", jsonvalue.Kind(v)))
}

func checkSteps(steps []any) error {
	for i, s := range steps {
		if js.Nullish(s) {
			return fmt.Errorf("steps[%d]: %w", i, typeError("cannot destructure a null step"))
		}
		children := js.Field(s, "children")
		if n, _ := js.Length(children); js.Truthy(children) && n > 0 {
			kids, ok := children.([]any)
			if !ok {
				return fmt.Errorf("steps[%d]: %w", i, typeError("children.map is not a function"))
			}
			if err := checkSteps(kids); err != nil {
				return fmt.Errorf("steps[%d].children: %w", i, err)
			}
		}
	}
	return nil
}

// object is the expectation as Mastra holds it: camelCase keys, only those
// given.
func (e *Expectation) object() (jsonvalue.Object, error) {
	var o jsonvalue.Object
	if len(e.Steps) > 0 {
		v, err := jsonvalue.Parse(e.Steps)
		if err != nil {
			return nil, err
		}
		o = append(o, jsonvalue.Member{Key: "steps", Value: v})
	}
	if e.Ordering != nil {
		o = append(o, jsonvalue.Member{Key: "ordering", Value: *e.Ordering})
	}
	if e.AllowRepeatedSteps != nil {
		o = append(o, jsonvalue.Member{Key: "allowRepeatedSteps", Value: *e.AllowRepeatedSteps})
	}
	for _, n := range []struct {
		key string
		v   *float64
	}{{"maxSteps", e.MaxSteps}, {"maxTotalTokens", e.MaxTotalTokens}, {"maxTotalDurationMs", e.MaxTotalDurationMs}, {"maxRetriesPerTool", e.MaxRetriesPerTool}} {
		if n.v != nil {
			o = append(o, jsonvalue.Member{Key: n.key, Value: json.Number(js.FormatNumber(*n.v))})
		}
	}
	if e.NoRedundantCalls != nil {
		o = append(o, jsonvalue.Member{Key: "noRedundantCalls", Value: *e.NoRedundantCalls})
	}
	if e.BlacklistedTools != nil {
		o = append(o, jsonvalue.Member{Key: "blacklistedTools", Value: strings2(e.BlacklistedTools)})
	}
	if e.BlacklistedSequences != nil {
		seqs := make([]any, len(e.BlacklistedSequences))
		for i, s := range e.BlacklistedSequences {
			seqs[i] = strings2(s)
		}
		o = append(o, jsonvalue.Member{Key: "blacklistedSequences", Value: seqs})
	}
	return o, nil
}

func strings2(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "mastra".
func (m *Metric) Profile() string { return "mastra" }

// CaseFields returns the fields the scorer reads: output (and, for the
// tool-call accuracy scorer, input_messages) for the agent scorers, the
// trajectory and the expected trajectory for the trajectory scorers.
func (m *Metric) CaseFields() []string {
	switch m.opts.Scorer {
	case ToolCallAccuracy:
		return []string{"output", "input_messages"}
	case TrajectoryAccuracy, Trajectory:
		return []string{"trajectory", "expected_trajectory"}
	}
	return []string{"output"}
}

// WrittenFields returns the fields the trajectory scorers read as
// written, in Mastra's shape: trajectory and expected_trajectory. An
// expectation toolgrade reads as no trace (budgets alone, or {}) is graded
// all the same, as Mastra grades it.
func (m *Metric) WrittenFields() []string {
	if m.opts.Scorer == TrajectoryAccuracy || m.opts.Scorer == Trajectory {
		return []string{"trajectory", "expected_trajectory"}
	}
	return nil
}

// Grade scores one case.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	get := func(key string) any {
		if c.Raw == nil {
			return js.Undefined{}
		}
		return js.Get(c.Raw, key)
	}
	var err error
	switch m.opts.Scorer {
	case ToolCallAccuracy:
		err = m.toolCallAccuracy(&r, get("input_messages"), get("output"))
	case TrajectoryAccuracy:
		err = m.trajectoryAccuracy(&r, get("trajectory"), get("expected_trajectory"))
	case Trajectory:
		err = m.trajectory(&r, get("trajectory"), get("expected_trajectory"))
	case NoToolErrors:
		err = m.noToolErrors(&r, get("output"))
	default:
		err = m.check(&r, get("output"))
	}
	if err == nil && math.IsNaN(r.Score) {
		err = errors.New("the score is NaN")
	}
	if err != nil {
		r.Score, r.Reason = 0, ""
		r.Fail(fmt.Errorf("%s: %w", m.opts.Scorer, err))
	}
	return r
}

func (m *Metric) toolCallAccuracy(r *toolgrade.MetricResult, input, output any) error {
	in, _ := js.Length(input)
	out, _ := js.Length(output)
	_, inList := input.([]any)
	_, outList := output.([]any)
	if !js.Truthy(input) || (inList || isString(input)) && in == 0 || !js.Truthy(output) || (outList || isString(output)) && out == 0 {
		return errors.New("input and output messages cannot be null or empty (Mastra's run throws)")
	}
	cs, err := calls(output)
	if err != nil {
		return err
	}
	ns := names(cs)
	const unchecked = " (names only: arguments and results are never compared)"
	switch {
	case len(ns) == 0:
		r.Reason = "no tool was called"
	case len(m.opts.ExpectedToolOrder) > 0:
		order := m.opts.ExpectedToolOrder
		if m.opts.StrictMode {
			ok := len(ns) == len(order)
			for i := 0; ok && i < len(ns); i++ {
				ok = is(ns[i], order[i])
			}
			if ok {
				r.Score, r.Reason = 1, "the calls are exactly the order "+quote(order)+unchecked
			} else {
				r.Reason = "strict_mode: the calls " + labels(ns) + " are not exactly the order " + quote(order) + unchecked
			}
			break
		}
		r.Score, r.Reason = 1, "each name of the order "+quote(order)+" first occurs after the one before it"+unchecked
		prev := -1
		for _, want := range order {
			at := slices.IndexFunc(ns, func(n any) bool { return is(n, want) })
			if at < 0 {
				r.Score, r.Reason = 0, fmt.Sprintf("%q of the order %s was never called%s", want, quote(order), unchecked)
				break
			}
			if at <= prev {
				r.Score, r.Reason = 0, fmt.Sprintf("%q first occurs at call %d, not after call %d: Mastra checks only each name's first occurrence, so a repeated or re-visited name fails the order %s%s", want, at+1, prev+1, quote(order), unchecked)
				break
			}
			prev = at
		}
	case m.opts.ExpectedTool == "":
		r.Reason = "no expected_tool, and expected_tool_order is empty"
	case m.opts.StrictMode:
		if len(ns) == 1 && is(ns[0], m.opts.ExpectedTool) {
			r.Score, r.Reason = 1, fmt.Sprintf("%q was the only call%s", m.opts.ExpectedTool, unchecked)
		} else {
			r.Reason = fmt.Sprintf("strict_mode: want %q as the only call, got %s%s", m.opts.ExpectedTool, labels(ns), unchecked)
		}
	default:
		if slices.ContainsFunc(ns, func(n any) bool { return is(n, m.opts.ExpectedTool) }) {
			r.Score, r.Reason = 1, fmt.Sprintf("%q was called%s", m.opts.ExpectedTool, unchecked)
		} else {
			r.Reason = fmt.Sprintf("%q was not called (calls: %s)%s", m.opts.ExpectedTool, labels(ns), unchecked)
		}
	}
	return nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

func quote(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (m *Metric) check(r *toolgrade.MetricResult, output any) error {
	cs, err := calls(output)
	if err != nil {
		return err
	}
	ns := names(cs)
	count := func(want *string) int {
		n := 0
		for _, x := range ns {
			if want != nil && is(x, *want) {
				n++
			}
		}
		return n
	}
	name := func() string {
		if m.opts.ToolName == nil {
			return "(no tool_name)"
		}
		return fmt.Sprintf("%q", *m.opts.ToolName)
	}
	pass := false
	const unchecked = " (names only: arguments are never compared)"
	switch m.opts.Scorer {
	case CalledTool:
		times := 1.0
		if m.opts.Times != nil {
			times = *m.opts.Times
		}
		n := count(m.opts.ToolName)
		pass = float64(n) >= times
		r.Reason = fmt.Sprintf("%s was called %d time(s), want at least %s%s", name(), n, js.FormatNumber(times), unchecked)
	case DidNotCall:
		n := count(m.opts.ToolName)
		pass = n == 0
		r.Reason = fmt.Sprintf("%s was called %d time(s), want none", name(), n)
	case ToolOrder:
		next := 0
		for _, x := range ns {
			if next < len(m.opts.ExpectedOrder) && is(x, m.opts.ExpectedOrder[next]) {
				next++
			}
		}
		pass = next == len(m.opts.ExpectedOrder)
		if pass {
			r.Reason = "the calls " + labels(ns) + " hold the order " + quote(m.opts.ExpectedOrder) + " in sequence" + unchecked
		} else {
			r.Reason = fmt.Sprintf("the calls %s hold the order %s only up to %q", labels(ns), quote(m.opts.ExpectedOrder), m.opts.ExpectedOrder[next])
		}
	case MaxToolCalls:
		pass = m.opts.Max != nil && float64(len(ns)) <= *m.opts.Max
		limit := "no max"
		if m.opts.Max != nil {
			limit = "at most " + js.FormatNumber(*m.opts.Max)
		}
		r.Reason = fmt.Sprintf("%d call(s), want %s", len(ns), limit)
	case UsedNoTools:
		pass = len(ns) == 0
		r.Reason = fmt.Sprintf("%d call(s), want none", len(ns))
	}
	if pass {
		r.Score = 1
	}
	return nil
}

func (m *Metric) noToolErrors(r *toolgrade.MetricResult, output any) error {
	invs, err := invocations(output)
	if err != nil {
		return err
	}
	var bad []string
	for i, inv := range invs {
		if failed(inv) {
			bad = append(bad, fmt.Sprintf("invocation %d (%s)", i+1, label(js.Field(inv, "toolName"))))
		}
	}
	if len(bad) == 0 {
		r.Score, r.Reason = 1, fmt.Sprintf("none of %d invocation(s) failed", len(invs))
		return nil
	}
	r.Reason = fmt.Sprintf("%d of %d invocation(s) failed or never completed (state call or output-error, isError, or result.error): %s", len(bad), len(invs), strings.Join(bad, ", "))
	return nil
}

// trajectoryAccuracy is createTrajectoryAccuracyScorerCode's run.
func (m *Metric) trajectoryAccuracy(r *toolgrade.MetricResult, actual, item any) error {
	steps, err := stepsOf(actual, "trajectory")
	if err != nil {
		return err
	}
	var expected any = js.Undefined{}
	switch s := m.static.(type) {
	case []any:
		expected = s
	case jsonvalue.Object:
		expected = js.Get(s, "steps")
	}
	if !js.Truthy(expected) && js.Truthy(item) {
		expected = js.Field(item, "steps")
	}
	if !js.Truthy(expected) {
		if _, err := stepNames(steps, "trajectory.steps"); err != nil {
			return err
		}
		r.Reason = "no expected steps: the option expected_trajectory and the case's expected_trajectory.steps are both missing (Mastra scores 0)"
		return nil
	}
	ordering, allow := any(js.Undefined{}), any(js.Undefined{})
	if co := m.opts.ComparisonOptions; co != nil {
		if co.Ordering != nil {
			ordering = *co.Ordering
		}
		if co.AllowRepeatedSteps != nil {
			allow = *co.AllowRepeatedSteps
		}
	}
	if !js.Nullish(item) {
		if o := js.Field(item, "ordering"); !js.Nullish(o) {
			ordering = o
		}
		if a := js.Field(item, "allowRepeatedSteps"); !js.Nullish(a) {
			allow = a
		}
	}
	c, err := compareTrajectories(steps, expected, ordering, allow)
	if err != nil {
		return err
	}
	r.Score = c.score
	r.Reason = c.reason(len(steps)) + "; " + dataNote
	r.SetDetail(toolgrade.Components{"matched_steps": float64(c.matched), "expected_steps": float64(c.total)})
	return nil
}

const dataNote = "a step's data (arguments, results, ...) is compared only where the expected step has a stepType, and then by JSON.stringify text, so key order matters"

// reason explains a comparison.
func (c comparison) reason(actual int) string {
	if c.total == 0 {
		if c.score == 1 {
			return "no steps expected and none taken"
		}
		return fmt.Sprintf("no steps expected, but %d taken", actual)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s ordering: %d of %d expected steps matched", c.ordering, c.matched, c.total)
	if c.unnamedQuirkHits > 0 {
		fmt.Fprintf(&b, " (%d of them nameless steps past the expected list's end, which Mastra counts as matches)", c.unnamedQuirkHits)
	}
	if len(c.missing) > 0 {
		fmt.Fprintf(&b, "; missing %s", labels(c.missing))
	}
	if len(c.notes) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(c.notes, "; "))
	}
	if c.extraSteps > 0 {
		fmt.Fprintf(&b, "; %d extra step(s) cost 0.5 × %d/%d", c.extraSteps, c.extraSteps, c.total)
	}
	if c.repeatPenalty {
		fmt.Fprintf(&b, "; repeats not allowed: 0.1 off for each of %s", labels(c.repeated))
	}
	fmt.Fprintf(&b, "; score %s", js.FormatNumber(c.score))
	return b.String()
}

// expectation is defaults with the case's expectation laid over it, as
// {...defaults, ...item}.
type expectation struct{ defaults, item any }

func (e expectation) get(key string) any {
	if p, ok := js.Property(e.item, key); ok {
		return p
	}
	if s, ok := e.item.(string); ok { // a string spreads its characters as index keys
		if i, ok := js.ArrayIndex(key); ok {
			if u := js.UTF16(s); i < len(u) {
				return string(rune(u[i]))
			}
		}
	}
	if d, ok := e.defaults.(jsonvalue.Object); ok {
		return js.Get(d, key)
	}
	return js.Undefined{}
}

// A level is one level of the trajectory scorer: its dimensions' scores.
type level struct {
	accuracy, efficiency, failures, blacklist *float64
	blacklisted                               []string
	nested                                    []nestedResult
	parts                                     []string
}

type nestedResult struct {
	name        any
	score       float64
	blacklisted bool
	nested      []nestedResult
}

func violates(rs []nestedResult) bool {
	for _, r := range rs {
		if r.blacklisted || violates(r.nested) {
			return true
		}
	}
	return false
}

// evaluate computes the dimensions of one level: the trajectory's steps
// (and its total duration) against an expectation.
func (m *Metric) evaluate(steps []any, total any, get func(string) any) (level, error) {
	var l level
	if exp := get("steps"); js.Truthy(exp) {
		ordering, allow := get("ordering"), get("allowRepeatedSteps")
		if js.Nullish(ordering) {
			ordering = "relaxed"
		}
		if js.Nullish(allow) {
			allow = true
		}
		c, err := compareTrajectories(steps, exp, ordering, allow)
		if err != nil {
			return l, err
		}
		l.accuracy = &c.score
		l.parts = append(l.parts, "accuracy "+js.FormatNumber(c.score)+" ("+c.reason(len(steps))+")")
	}
	maxSteps, maxTokens, maxDuration, noRedundant := get("maxSteps"), get("maxTotalTokens"), get("maxTotalDurationMs"), get("noRedundantCalls")
	if !js.IsUndefined(maxSteps) || !js.IsUndefined(maxTokens) || !js.IsUndefined(maxDuration) || !js.IsUndefined(noRedundant) {
		if js.Nullish(noRedundant) {
			noRedundant = true
		}
		e, err := efficiency(steps, total, maxSteps, maxTokens, maxDuration, noRedundant)
		if err != nil {
			return l, err
		}
		l.efficiency = &e.score
		detail := "all budgets met, no redundant calls"
		if len(e.parts) > 0 {
			detail = strings.Join(e.parts, "; ")
		}
		l.parts = append(l.parts, "efficiency "+js.FormatNumber(e.score)+" ("+detail+")")
	}
	tools, seqs := get("blacklistedTools"), get("blacklistedSequences")
	nonEmpty := func(v any) bool {
		n, ok := js.Length(v)
		return js.Truthy(v) && ok && n > 0
	}
	if nonEmpty(tools) || nonEmpty(seqs) {
		ns, err := stepNames(steps, "trajectory.steps")
		if err != nil {
			return l, err
		}
		s, hits, err := blacklist(ns, tools, seqs)
		if err != nil {
			return l, err
		}
		l.blacklist, l.blacklisted = &s, hits
		if s == 1 {
			l.parts = append(l.parts, "blacklist 1 (no forbidden tool or sequence)")
		}
	}
	maxRetries := get("maxRetriesPerTool")
	if js.Nullish(maxRetries) {
		maxRetries = json.Number("2")
	}
	fs, patterns, retries, err := toolFailures(steps, maxRetries)
	if err != nil {
		return l, err
	}
	if patterns > 0 {
		l.failures = &fs
		l.parts = append(l.parts, fmt.Sprintf("tool failures %s (%d retry(ies) after failed calls, %s allowed per tool)", js.FormatNumber(fs), retries, js.ToString(maxRetries)))
	}
	if exp, ok := get("steps").([]any); ok && len(exp) > 0 {
		if l.nested, err = m.nested(exp, steps); err != nil {
			return l, err
		}
	}
	return l, nil
}

// score combines a level's dimensions: 0 on a blacklist hit here or
// below, else the weighted mean of the dimensions present (1 when there
// are none or the weights add up to 0), blended 70/30 with the nested
// scores.
func (m *Metric) score(l level) float64 {
	if l.blacklist != nil && *l.blacklist == 0 {
		return 0
	}
	type dim struct{ w, v float64 }
	var ds []dim
	for i, p := range []*float64{l.accuracy, l.efficiency, l.failures, l.blacklist} {
		if p != nil {
			ds = append(ds, dim{m.w[i], *p})
		}
	}
	s := 1.0
	if len(ds) > 0 {
		total := 0.0
		for _, d := range ds {
			total += d.w
		}
		if total > 0 {
			s = 0
			for _, d := range ds {
				s += d.w / total * d.v
			}
		}
	}
	if len(l.nested) > 0 {
		if violates(l.nested) {
			return 0
		}
		sum := 0.0
		for _, n := range l.nested {
			sum += n.score
		}
		s = 0.7*s + 0.3*(sum/float64(len(l.nested)))
	}
	return js.MathRound(s*100) / 100
}

// nested is evaluateNestedExpectations: each expected step with children
// takes the first unused actual step of its name (and type, when given)
// and is scored on that step's children.
func (m *Metric) nested(expected, actual []any) ([]nestedResult, error) {
	var out []nestedResult
	used := make([]bool, len(actual))
	for i, e := range expected {
		if js.Nullish(e) {
			return nil, fmt.Errorf("expected steps[%d]: %w", i, typeError("cannot read properties of null (reading 'children')"))
		}
		children := js.Field(e, "children")
		if !js.Truthy(children) {
			continue
		}
		name, st := js.Field(e, "name"), js.Field(e, "stepType")
		at := -1
		for j, a := range actual {
			an, err := field(a, "name")
			if err != nil {
				return nil, err
			}
			if !used[j] && js.StrictEqual(an, name) && (!js.Truthy(st) || js.StrictEqual(js.Field(a, "stepType"), st)) {
				at = j
				break
			}
		}
		if at < 0 {
			out = append(out, nestedResult{name: name})
			continue
		}
		used[at] = true
		kidsV := js.Field(actual[at], "children")
		if js.Nullish(kidsV) {
			kidsV = []any{}
		}
		kids, ok := kidsV.([]any)
		if !ok {
			return nil, typeError("the children of step " + label(name) + " are not a list")
		}
		get := func(key string) any { return js.Field(children, key) }
		l, err := m.evaluate(kids, js.Field(actual[at], "durationMs"), get)
		if err != nil {
			return nil, err
		}
		r := nestedResult{name: name, nested: l.nested}
		if l.blacklist != nil && *l.blacklist == 0 {
			r.blacklisted = true
		} else if !violates(l.nested) {
			r.score = m.score(l)
		}
		out = append(out, r)
	}
	return out, nil
}

// trajectory is createTrajectoryScorerCode's run.
func (m *Metric) trajectory(r *toolgrade.MetricResult, actual, item any) error {
	steps, err := stepsOf(actual, "trajectory")
	if err != nil {
		return err
	}
	if js.Nullish(item) {
		item = jsonvalue.Object{}
	}
	e := expectation{defaults: m.defaults, item: item}
	l, err := m.evaluate(steps, js.Field(actual, "totalDurationMs"), e.get)
	if err != nil {
		return err
	}
	comps := toolgrade.Components{}
	for _, d := range []struct {
		name string
		p    *float64
	}{{"accuracy", l.accuracy}, {"efficiency", l.efficiency}, {"tool_failures", l.failures}, {"blacklist", l.blacklist}} {
		if d.p != nil {
			comps[d.name] = *d.p
		}
	}
	if len(comps) > 0 {
		r.SetDetail(comps)
	}
	switch {
	case l.blacklist != nil && *l.blacklist == 0:
		r.Score, r.Reason = 0, "blacklist violated: "+strings.Join(l.blacklisted, ", ")+" (the whole score is 0)"
		return nil
	case violates(l.nested):
		r.Score, r.Reason = 0, "a nested expectation's blacklist was violated (the whole score is 0)"
		return nil
	case len(l.parts) == 0 && len(l.nested) == 0:
		r.Score, r.Reason = 1, "no dimension applies: no expected steps, budgets or blacklist, and no retried failures"
		return nil
	}
	r.Score = m.score(l)
	parts := l.parts
	if len(l.nested) > 0 {
		var ns []string
		for _, n := range l.nested {
			ns = append(ns, label(n.name)+" "+js.FormatNumber(n.score))
		}
		parts = append(parts, "nested "+strings.Join(ns, ", ")+" (blended 30%)")
	}
	r.Reason = strings.Join(parts, "; ") + "; " + dataNote
	return nil
}
