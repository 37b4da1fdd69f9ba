package agentevals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// Options configure [Metric]. The JSON names are the options
// of LangChain agentevals' createTrajectoryMatchEvaluator, in snake_case.
type Options struct {
	// TrajectoryMatchMode says how trajectories match (default
	// TrajectoryStrict).
	TrajectoryMatchMode TrajectoryMode `json:"trajectory_match_mode,omitempty"`
	// ToolArgsMatchMode says how a call's arguments match (default
	// ArgsExact); see [Metric] for what each accepts.
	ToolArgsMatchMode ArgsMode `json:"tool_args_match_mode,omitempty"`
	// ToolArgsMatchOverrides replaces the argument mode for the calls of
	// the named tools.
	ToolArgsMatchOverrides map[string]Override `json:"tool_args_match_overrides,omitempty"`
}

// A TrajectoryMode is agentevals' trajectoryMatchMode.
type TrajectoryMode string

const (
	// TrajectoryStrict matches message by message.
	TrajectoryStrict TrajectoryMode = "strict"
	// TrajectoryUnordered needs the same tool calls in any order.
	TrajectoryUnordered TrajectoryMode = "unordered"
	// TrajectorySuperset needs the agent's calls to cover the reference's.
	TrajectorySuperset TrajectoryMode = "superset"
	// TrajectorySubset needs the agent to make no call outside the
	// reference.
	TrajectorySubset TrajectoryMode = "subset"
)

// An ArgsMode is agentevals' toolArgsMatchMode.
type ArgsMode string

const (
	ArgsExact    ArgsMode = "exact"
	ArgsIgnore   ArgsMode = "ignore"
	ArgsSubset   ArgsMode = "subset"
	ArgsSuperset ArgsMode = "superset"
)

// An Override is how one tool's arguments are compared: a mode
// (JSON: a string), or, when Mode is empty, only the values at the dotted
// key paths in Keys (JSON: a list of paths such as "when.date" or
// "attendees.0.name"). An override without paths accepts any arguments.
type Override struct {
	Mode ArgsMode
	Keys []string
}

// UnmarshalJSON reads a mode string or a list of key paths.
func (o *Override) UnmarshalJSON(b []byte) error {
	*o = Override{}
	if string(b) == "null" {
		return errors.New("want an argument mode or a list of key paths, got null")
	}
	if err := json.Unmarshal(b, &o.Mode); err == nil {
		return nil
	}
	if err := json.Unmarshal(b, &o.Keys); err != nil || o.Keys == nil {
		return fmt.Errorf("want an argument mode or a list of key paths, got %s", b)
	}
	return nil
}

// MarshalJSON writes the mode, or the list of key paths.
func (o Override) MarshalJSON() ([]byte, error) {
	if o.Mode != "" {
		return json.Marshal(o.Mode)
	}
	return json.Marshal(append([]string{}, o.Keys...))
}

// Metric reproduces the verdicts of LangChain agentevals' trajectory
// match evaluator (the JavaScript package, agentevals 0.0.7) on OpenAI
// chat-message trajectories: the case's trajectory is the evaluator's
// outputs, its expected_trajectory the reference. The score is 1 or 0 and
// the threshold 1, so success is the evaluator's verdict.
//
// Trajectory modes:
//
//   - strict: the same number of messages; position by position the same
//     role, tool_calls present on both or neither (an empty list counts as
//     present, null as absent), the same number of calls, and each output
//     call in order takes the first unused reference call of that message
//     with the same name whose arguments match. Content is never compared.
//   - superset: the calls of all messages flattened; each reference call in
//     order takes the first unused output call with the same name whose
//     arguments match, as matcher(output, reference).
//   - subset: the same with the sides swapped, so that the matcher sees
//     matcher(reference, output): argument mode "superset" then accepts an
//     output call whose arguments are a subset of the reference's.
//   - unordered: both the superset and the subset checks.
//
// Argument modes compare the parsed arguments with JavaScript's rules as
// agentevals applies them: exact is deep equality (numbers by value, "1" is
// not 1, true is not 1, arrays ordered, a key set to null differs from a
// missing key, and an array equals an object with the same index keys);
// subset wants every top-level key of the first argument in the second with
// a deep-equal value; superset every top-level key of the second in the
// first; ignore accepts anything. Key paths compare the values found by
// following object keys and array indices, a path that leads nowhere giving
// undefined, which equals null.
//
// Pairing is first-fit, without backtracking, as in agentevals; when it
// fails although a one-to-one pairing exists, the reason says so.
// Arguments that are not valid JSON make the case an error where the
// evaluator parses them: every call of both trajectories in the flattened
// modes, only the calls it reaches in strict mode.
//
// Non-goals: matcher functions as overrides (they are not data), LangChain
// message objects, and the properties JavaScript objects inherit (a key
// named "constructor" is an ordinary key here).
type Metric struct {
	opts Options
}

var (
	trajectoryModes = []string{"strict", "unordered", "subset", "superset"}
	argModes        = []string{"exact", "ignore", "subset", "superset"}
)

// New checks the options and returns the metric; an unknown mode is an
// *toolgrade.OptionError.

// Unlike agentevals, which ignores arguments under an unknown argument
// mode, it rejects unknown modes.
func New(opts Options) (*Metric, error) {
	if opts.TrajectoryMatchMode == "" {
		opts.TrajectoryMatchMode = "strict"
	}
	if opts.ToolArgsMatchMode == "" {
		opts.ToolArgsMatchMode = "exact"
	}
	if !slices.Contains(trajectoryModes, string(opts.TrajectoryMatchMode)) {
		return nil, &toolgrade.OptionError{Option: "trajectory_match_mode", Value: string(opts.TrajectoryMatchMode), Allowed: trajectoryModes}
	}
	if !slices.Contains(argModes, string(opts.ToolArgsMatchMode)) {
		return nil, &toolgrade.OptionError{Option: "tool_args_match_mode", Value: string(opts.ToolArgsMatchMode), Allowed: argModes}
	}
	for tool, o := range opts.ToolArgsMatchOverrides {
		if o.Mode != "" && !slices.Contains(argModes, string(o.Mode)) {
			return nil, &toolgrade.OptionError{Option: "tool_args_match_overrides." + tool, Value: string(o.Mode),
				Err: fmt.Errorf("unknown mode %q (want %s or a list of key paths)", o.Mode, strings.Join(argModes, ", "))}
		}
	}
	return &Metric{opts: opts}, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "agentevals".
func (m *Metric) Profile() string { return "agentevals" }

// CaseFields returns the fields the metric reads: the two trajectories.
func (m *Metric) CaseFields() []string { return []string{"trajectory", "expected_trajectory"} }

// Grade scores one case.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(1)}
	v, err := m.verdict(c)
	if err != nil {
		r.Fail(err)
		return r
	}
	if v.ok {
		r.Score = 1
	}
	r.Success = v.ok
	r.Matches, r.Missing, r.Unexpected = v.matches, v.missing, v.unexpected
	notes := v.notes
	if m.opts.ToolArgsMatchMode == "ignore" && len(m.opts.ToolArgsMatchOverrides) == 0 {
		notes = append(notes, "arguments not compared (tool_args_match_mode: ignore)")
	}
	r.Reason = strings.Join(notes, "; ")
	return r
}

func (m *Metric) verdict(c *toolgrade.Case) (verdict, error) {
	out, err := trajectory(c.Trajectory, "trajectory")
	if err != nil {
		return verdict{}, err
	}
	ref, err := trajectory(c.ExpectedTrajectory, "expected_trajectory")
	if err != nil {
		return verdict{}, err
	}
	if m.opts.TrajectoryMatchMode == "strict" {
		return m.strict(out, ref)
	}
	return m.flat(out, ref)
}

// A verdict is the evaluator's boolean with the pairs behind it,
// indexed over all calls of each trajectory, and notes for the reason.
type verdict struct {
	ok                  bool
	matches             []toolgrade.Match
	missing, unexpected []int
	notes               []string
}

// jsUndefined stands for JavaScript's undefined: a key or path that is not
// there. It equals null in agentevals' deep equality.
type jsUndefined struct{}

// A message is one chat message as the evaluator reads it.
type message struct {
	role     any  // jsUndefined{} when absent
	hasCalls bool // tool_calls present and not null
	calls    []toolCall
}

// A toolCall is one tool call with its place among all calls of its
// trajectory.
type toolCall struct {
	index int
	raw   jsonvalue.Object
}

func jsGet(o jsonvalue.Object, key string) any {
	if v, ok := o.Get(key); ok {
		return v
	}
	return jsUndefined{}
}

// trajectory reads a list of chat messages, or an object holding
// one under "messages", as agentevals accepts both.
func trajectory(v any, field string) ([]message, error) {
	if o, ok := v.(jsonvalue.Object); ok {
		if l, ok := o.Get("messages"); ok {
			v = l
		}
	}
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, fmt.Errorf("%s: missing; the agentevals profile compares chat-message trajectories", field)
		}
		return nil, fmt.Errorf("%s: want a list of chat messages, got %s", field, jsonvalue.Kind(v))
	}
	msgs := make([]message, len(list))
	n := 0
	for i, e := range list {
		o, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: want a message object, got %s", field, i, jsonvalue.Kind(e))
		}
		msgs[i].role = jsGet(o, "role")
		tcs, _ := o.Get("tool_calls")
		if tcs == nil {
			continue
		}
		calls, ok := tcs.([]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d].tool_calls: want a list, got %s", field, i, jsonvalue.Kind(tcs))
		}
		msgs[i].hasCalls = true
		for j, tc := range calls {
			co, ok := tc.(jsonvalue.Object)
			if !ok {
				return nil, fmt.Errorf("%s[%d].tool_calls[%d]: want a call object, got %s", field, i, j, jsonvalue.Kind(tc))
			}
			msgs[i].calls = append(msgs[i].calls, toolCall{index: n, raw: co})
			n++
		}
	}
	return msgs, nil
}

// strictName and strictArgs read a call as strict mode does:
// function.name, and function.arguments parsed, "{}" when absent.
func (c *toolCall) strictName() any {
	if f, ok := c.raw.Get("function"); ok {
		if fo, ok := f.(jsonvalue.Object); ok {
			return jsGet(fo, "name")
		}
	}
	return jsUndefined{}
}

func (c *toolCall) strictArgs(side string) (any, error) {
	var a any = jsUndefined{}
	if f, ok := c.raw.Get("function"); ok {
		if fo, ok := f.(jsonvalue.Object); ok {
			a = jsGet(fo, "arguments")
		}
	}
	switch a := a.(type) {
	case nil, jsUndefined:
		return jsonvalue.Object{}, nil
	case string:
		return c.parse(a, side)
	case json.Number, bool:
		return a, nil // JSON.parse(String(a)) gives a back
	}
	return nil, fmt.Errorf("%s call #%d: arguments are a %s, not JSON text (JSON.parse threw)", side, c.index, jsonvalue.Kind(a))
}

func (c *toolCall) parse(text, side string) (any, error) {
	v, err := jsonvalue.ParseString(text)
	if err != nil {
		return nil, fmt.Errorf("%s call #%d %s: arguments are not valid JSON (JSON.parse threw): %v", side, c.index, callString(c.strictName(), strconv.Quote(text)), err)
	}
	return v, nil
}

// A flatCall is a call as the flattened modes read it: from function.name
// and the parsed function.arguments when arguments is text, else from the
// call's own name and args.
type flatCall struct {
	index      int
	name, args any
	text       string // for messages
}

func flatten(msgs []message, side string) ([]flatCall, error) {
	var calls []flatCall
	for _, msg := range msgs {
		for i := range msg.calls {
			c := &msg.calls[i]
			fc := flatCall{index: c.index, name: jsGet(c.raw, "name"), args: jsGet(c.raw, "args")}
			if f, ok := c.raw.Get("function"); ok {
				if fo, ok := f.(jsonvalue.Object); ok {
					if text, ok := jsGet(fo, "arguments").(string); ok {
						args, err := c.parse(text, side)
						if err != nil {
							return nil, err
						}
						fc.name, fc.args, fc.text = jsGet(fo, "name"), args, text
					}
				}
			}
			if fc.text == "" {
				fc.text = jsonvalue.Format(jsShow(fc.args))
			}
			calls = append(calls, fc)
		}
	}
	return calls, nil
}

func (c *flatCall) String() string { return callString(c.name, c.text) }

func callString(name any, args string) string {
	n, ok := name.(string)
	if !ok {
		n = jsonvalue.Format(jsShow(name))
	}
	const most = 80
	if r := []rune(args); len(r) > most {
		args = string(r[:most-3]) + "..."
	}
	return n + "(" + args + ")"
}

// A matcher compares the arguments of two calls, in the order the
// evaluator passes them.
type matcher func(a, b any) (bool, error)

// matcher returns the argument matcher for a tool and describes it.
func (m *Metric) matcher(tool any) (matcher, string) {
	mode := m.opts.ToolArgsMatchMode
	if name, ok := tool.(string); ok {
		if o, ok := m.opts.ToolArgsMatchOverrides[name]; ok {
			if o.Mode == "" {
				return keysMatcher(o.Keys), fmt.Sprintf("key paths %q", o.Keys)
			}
			mode = o.Mode
		}
	}
	switch mode {
	case "exact":
		return func(a, b any) (bool, error) { return jsDeepEqual(a, b), nil }, "exact args"
	case "subset":
		return contained, "subset args"
	case "superset":
		return func(a, b any) (bool, error) { return contained(b, a) }, "superset args"
	}
	return func(any, any) (bool, error) { return true, nil }, "args ignored"
}

// contained reports whether every top-level key of a is in b
// with a deep-equal value (agentevals' subset matcher). Where JavaScript
// throws (keys of null, a key looked up in a primitive), it is an error;
// text arguments, which JavaScript would take apart character by
// character, are one too.
func contained(a, b any) (bool, error) {
	keys, ok := jsObjectKeys(a)
	switch a.(type) {
	case json.Number, bool:
		ok = true // no keys
	}
	if !ok {
		return false, fmt.Errorf("tool call arguments are %s, not an object (agentevals' subset and superset matchers need one)", jsonvalue.Format(jsShow(a)))
	}
	for _, k := range keys {
		if _, ok := jsObjectKeys(b); !ok {
			return false, fmt.Errorf("tool call arguments are %s, not an object (agentevals' subset and superset matchers need one)", jsonvalue.Format(jsShow(b)))
		}
		bv, ok := jsProperty(b, k)
		if !ok {
			return false, nil
		}
		av, _ := jsProperty(a, k)
		if !jsDeepEqual(av, bv) {
			return false, nil
		}
	}
	return true, nil
}

// keysMatcher compares only the values at the key paths.
func keysMatcher(paths []string) matcher {
	return func(a, b any) (bool, error) {
		for _, p := range paths {
			if !jsDeepEqual(jsPath(a, p), jsPath(b, p)) {
				return false, nil
			}
		}
		return true, nil
	}
}

// jsPath follows a dotted path through objects and arrays; a step that
// leads nowhere gives undefined.
func jsPath(v any, path string) any {
	for part := range strings.SplitSeq(path, ".") {
		if l, ok := v.([]any); ok && part == "length" {
			v = json.Number(strconv.Itoa(len(l)))
			continue
		}
		next, ok := jsProperty(v, part)
		if !ok {
			return jsUndefined{}
		}
		v = next
	}
	return v
}

// jsProperty is an own property of an object or array by key.
func jsProperty(v any, key string) (any, bool) {
	switch v := v.(type) {
	case jsonvalue.Object:
		return v.Get(key)
	case []any:
		if i, ok := jsIndex(key); ok && i < len(v) {
			return v[i], true
		}
	}
	return nil, false
}

// jsIndex reads an array index as JavaScript spells one: decimal digits
// without leading zeros.
func jsIndex(key string) (int, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	i, err := strconv.Atoi(key)
	if err != nil || i < 0 || strconv.Itoa(i) != key {
		return 0, false
	}
	return i, true
}

// jsObjectKeys is Object.keys of an object or array; ok is false for
// other values.
func jsObjectKeys(v any) (keys []string, ok bool) {
	switch v := v.(type) {
	case jsonvalue.Object:
		return v.Keys(), true
	case []any:
		keys := make([]string, len(v))
		for i := range v {
			keys[i] = strconv.Itoa(i)
		}
		return keys, true
	}
	return nil, false
}

// jsDeepEqual is agentevals' deep equality: null and undefined are equal,
// primitives compare strictly (numbers by value), arrays element by
// element, and otherwise two objects or arrays are equal when they have
// the same keys with deep-equal values, so [] equals {}.
func jsDeepEqual(a, b any) bool {
	if jsNullish(a) && jsNullish(b) {
		return true
	}
	switch a := a.(type) {
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && jsonvalue.NumberFloat(a) == jsonvalue.NumberFloat(bn)
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if aList && bList {
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !jsDeepEqual(al[i], bl[i]) {
				return false
			}
		}
		return true
	}
	ak, okA := jsObjectKeys(a)
	bk, okB := jsObjectKeys(b)
	if !okA || !okB || len(ak) != len(bk) {
		return false
	}
	for _, k := range ak {
		bv, ok := jsProperty(b, k)
		if !ok {
			return false
		}
		av, _ := jsProperty(a, k)
		if !jsDeepEqual(av, bv) {
			return false
		}
	}
	return true
}

func jsNullish(v any) bool {
	_, undef := v.(jsUndefined)
	return v == nil || undef
}

// jsSame is JavaScript's === on the values a message or call field can
// hold: objects and arrays are never the same.
func jsSame(a, b any) bool {
	switch a.(type) {
	case jsUndefined:
		_, ok := b.(jsUndefined)
		return ok
	case nil:
		return b == nil
	case bool, string, json.Number:
		return jsDeepEqual(a, b)
	}
	return false
}

// strict is the strict trajectory match.
func (m *Metric) strict(out, ref []message) (verdict, error) {
	var v verdict
	fail := func(format string, args ...any) (verdict, error) {
		v.notes = append(v.notes, fmt.Sprintf(format, args...))
		v.missing, v.unexpected = unpaired(v.matches, ref, out)
		return v, nil
	}
	if len(out) != len(ref) {
		return fail("strict: the trajectory has %d messages, the reference %d", len(out), len(ref))
	}
	for i := range out {
		o, r := &out[i], &ref[i]
		if !jsSame(o.role, r.role) {
			return fail("strict: message #%d has role %s, the reference %s (roles must agree position by position)", i, jsonvalue.Format(jsShow(o.role)), jsonvalue.Format(jsShow(r.role)))
		}
		if o.hasCalls != r.hasCalls {
			which := "the trajectory"
			if r.hasCalls {
				which = "the reference"
			}
			return fail("strict: message #%d has tool_calls only in %s (an empty list counts as present)", i, which)
		}
		if len(o.calls) != len(r.calls) {
			return fail("strict: message #%d has %d tool calls, the reference %d", i, len(o.calls), len(r.calls))
		}
		seen := make([]bool, len(r.calls))
		for _, oc := range o.calls {
			found := false
			name := oc.strictName()
			matcher, how := m.matcher(name)
			for k, rc := range r.calls {
				if seen[k] || !jsSame(name, rc.strictName()) {
					continue
				}
				oa, err := oc.strictArgs("trajectory")
				if err != nil {
					return v, err
				}
				ra, err := rc.strictArgs("expected_trajectory")
				if err != nil {
					return v, err
				}
				ok, err := matcher(oa, ra)
				if err != nil {
					return v, fmt.Errorf("trajectory call #%d: %w", oc.index, err)
				}
				if ok {
					seen[k], found = true, true
					v.matches = append(v.matches, toolgrade.Match{Expected: rc.index, Called: oc.index, Score: 1})
					break
				}
			}
			if !found {
				note := fmt.Sprintf("strict: in message #%d, call #%d %s matches no unused reference call of that message with the same name (%s)",
					i, oc.index, callString(name, argsText(oc)), how)
				if m.strictPairable(o, r, matcher) {
					note += "; a one-to-one pairing exists, but agentevals pairs first-fit"
				}
				return fail("%s", note)
			}
		}
	}
	slices.SortFunc(v.matches, func(a, b toolgrade.Match) int { return a.Expected - b.Expected })
	v.ok = true
	v.missing, v.unexpected = []int{}, []int{}
	v.notes = append(v.notes, fmt.Sprintf("strict: the %d messages agree in role and tool calls, position by position", len(out)))
	return v, nil
}

// strictPairable reports whether the calls of two messages could be paired
// one to one, for the reason; false when any arguments fail to parse.
func (m *Metric) strictPairable(o, r *message, matcher matcher) bool {
	scores := make([][]float64, len(o.calls))
	for i, oc := range o.calls {
		scores[i] = make([]float64, len(r.calls))
		for k, rc := range r.calls {
			if !jsSame(oc.strictName(), rc.strictName()) {
				continue
			}
			oa, err1 := oc.strictArgs("")
			ra, err2 := rc.strictArgs("")
			if err1 != nil || err2 != nil {
				return false
			}
			if ok, err := matcher(oa, ra); err == nil && ok {
				scores[i][k] = 1
			}
		}
	}
	return len(match.Optimal(scores)) == len(o.calls)
}

func argsText(c toolCall) string {
	if f, ok := c.raw.Get("function"); ok {
		if fo, ok := f.(jsonvalue.Object); ok {
			if s, ok := jsGet(fo, "arguments").(string); ok {
				return s
			}
		}
	}
	return ""
}

// jsShow turns undefined into null for messages.
func jsShow(v any) any {
	if _, ok := v.(jsUndefined); ok {
		return nil
	}
	return v
}

// flat is the unordered, superset and subset match over the calls of all
// messages.
func (m *Metric) flat(out, ref []message) (verdict, error) {
	var v verdict
	// The evaluator parses every call of both sides up front, the first
	// argument of its superset check first.
	first, second := out, ref
	if m.opts.TrajectoryMatchMode == "subset" {
		first, second = ref, out
	}
	fa, err := flatten(first, sideOf(m.opts.TrajectoryMatchMode == "subset"))
	if err != nil {
		return v, err
	}
	fb, err := flatten(second, sideOf(m.opts.TrajectoryMatchMode != "subset"))
	if err != nil {
		return v, err
	}
	outCalls, refCalls := fa, fb
	if m.opts.TrajectoryMatchMode == "subset" {
		outCalls, refCalls = fb, fa
	}

	mode := m.opts.TrajectoryMatchMode
	v.ok = true
	v.missing, v.unexpected = []int{}, []int{}
	if mode == "superset" || mode == "unordered" {
		// Each reference call takes an output call: matcher(output, reference).
		pairs, unmatched, err := m.superset(outCalls, refCalls, false)
		if err != nil {
			return v, err
		}
		for _, p := range pairs {
			v.matches = append(v.matches, toolgrade.Match{Expected: refCalls[p[0]].index, Called: outCalls[p[1]].index, Score: 1})
		}
		for _, i := range unmatched {
			v.missing = append(v.missing, refCalls[i].index)
			v.notes = append(v.notes, fmt.Sprintf("reference call #%d %s is not matched by any unused trajectory call of that name (%s)",
				refCalls[i].index, &refCalls[i], m.describe(refCalls[i].name)))
		}
		if len(unmatched) > 0 {
			v.ok = false
			if m.pairable(outCalls, refCalls) {
				v.notes = append(v.notes, "a one-to-one pairing of the reference calls exists, but agentevals pairs first-fit")
			}
		}
	}
	if mode == "subset" || mode == "unordered" {
		// Each output call takes a reference call: matcher(reference, output).
		// After a failed first check the evaluator stops; this one then
		// only explains.
		pairs, unmatched, err := m.superset(refCalls, outCalls, !v.ok)
		if err != nil {
			return v, err
		}
		if mode == "subset" {
			for _, p := range pairs {
				v.matches = append(v.matches, toolgrade.Match{Expected: refCalls[p[1]].index, Called: outCalls[p[0]].index, Score: 1})
			}
		}
		for _, j := range unmatched {
			v.unexpected = append(v.unexpected, outCalls[j].index)
			v.notes = append(v.notes, fmt.Sprintf("trajectory call #%d %s is not matched by any unused reference call of that name (%s, given as matcher(reference, output))",
				outCalls[j].index, &outCalls[j], m.describe(outCalls[j].name)))
		}
		if len(unmatched) > 0 {
			v.ok = false
			if m.pairable(refCalls, outCalls) {
				v.notes = append(v.notes, "a one-to-one pairing of the trajectory calls exists, but agentevals pairs first-fit")
			}
		}
	}
	slices.SortFunc(v.matches, func(a, b toolgrade.Match) int { return a.Expected - b.Expected })
	if v.ok {
		switch mode {
		case "superset":
			v.notes = append(v.notes, fmt.Sprintf("all %d reference calls are matched by trajectory calls", len(refCalls)))
		case "subset":
			v.notes = append(v.notes, fmt.Sprintf("all %d trajectory calls are matched by reference calls", len(outCalls)))
		default:
			v.notes = append(v.notes, fmt.Sprintf("the %d trajectory calls and %d reference calls match each other both ways", len(outCalls), len(refCalls)))
		}
	}
	return v, nil
}

func sideOf(reference bool) string {
	if reference {
		return "expected_trajectory"
	}
	return "trajectory"
}

func (m *Metric) describe(name any) string {
	_, how := m.matcher(name)
	return how
}

// superset is agentevals' superset check: each call of b, in order, takes
// the first unused call of a with the same name and matcher(a.args,
// b.args). It returns the pairs as (index in b, index in a) and the calls
// of b left unmatched. The evaluator stops at the first unmatched call; the
// check goes on for the reason, but an error after that point is one the
// evaluator never meets and is dropped, as are all errors when quiet.
func (m *Metric) superset(a, b []flatCall, quiet bool) (pairs [][2]int, unmatched []int, err error) {
	used := make([]bool, len(a))
	for i := range b {
		matcher, _ := m.matcher(b[i].name)
		found := false
		for j := range a {
			if used[j] || !jsSame(b[i].name, a[j].name) {
				continue
			}
			ok, err := matcher(a[j].args, b[i].args)
			if err != nil {
				if quiet || len(unmatched) > 0 {
					return pairs, unmatched, nil
				}
				return nil, nil, fmt.Errorf("call #%d: %w", b[i].index, err)
			}
			if ok {
				used[j], found = true, true
				pairs = append(pairs, [2]int{i, j})
				break
			}
		}
		if !found {
			unmatched = append(unmatched, i)
		}
	}
	return pairs, unmatched, nil
}

// pairable reports whether every call of b could take its own call of a,
// for the reason.
func (m *Metric) pairable(a, b []flatCall) bool {
	scores := make([][]float64, len(b))
	for i := range b {
		scores[i] = make([]float64, len(a))
		matcher, _ := m.matcher(b[i].name)
		for j := range a {
			if jsSame(b[i].name, a[j].name) {
				if ok, err := matcher(a[j].args, b[i].args); err == nil && ok {
					scores[i][j] = 1
				}
			}
		}
	}
	return len(match.Optimal(scores)) == len(b)
}

// unpaired lists the reference and trajectory calls outside the
// pairs.
func unpaired(pairs []toolgrade.Match, ref, out []message) (missing, unexpected []int) {
	count := func(msgs []message) int {
		n := 0
		for _, m := range msgs {
			n += len(m.calls)
		}
		return n
	}
	return toolgrade.Unpaired(pairs, count(ref), count(out))
}
