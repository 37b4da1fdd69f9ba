// Package trajectorymatch is the trajectory match of LangChain's
// evaluators, which agentevals 0.0.7 shipped and openevals 0.2.2 carries
// on with a few changes: the modes, the first-fit pairing, the argument
// matchers and the chat-message reading they share. Each peer's package
// gives its own deep equality and the input shapes it accepts as a [Peer];
// the rules are documented on the peers' metrics.
package trajectorymatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// A TrajectoryMode is the evaluator's trajectoryMatchMode.
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

// An ArgsMode is the evaluator's toolArgsMatchMode.
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

// A Peer is what one version of the evaluator does its own way.
type Peer struct {
	// Name names the peer in messages ("agentevals").
	Name string
	// Equal is the peer's deep equality of argument values, which may meet
	// js.Undefined where a key path leads nowhere.
	Equal func(a, b any) bool
	// MissingPathFails says that a key path missing on either side fails
	// the comparison; otherwise both sides' values, undefined or not, go
	// to Equal.
	MissingPathFails bool
	// SingleMessage says that an object trajectory without a messages list
	// is one message when it has role and content, and an error otherwise.
	SingleMessage bool
}

// Options are createTrajectoryMatchEvaluator's options, agentevals' and
// openevals' alike. The JSON names are the peers' option names in
// snake_case.
type Options struct {
	// TrajectoryMatchMode says how trajectories match (default
	// TrajectoryStrict).
	TrajectoryMatchMode TrajectoryMode `json:"trajectory_match_mode,omitempty"`
	// ToolArgsMatchMode says how a call's arguments match (default
	// ArgsExact).
	ToolArgsMatchMode ArgsMode `json:"tool_args_match_mode,omitempty"`
	// ToolArgsMatchOverrides replaces the argument mode for the calls of
	// the named tools.
	ToolArgsMatchOverrides map[string]Override `json:"tool_args_match_overrides,omitempty"`
}

var (
	trajectoryModes = []string{"strict", "unordered", "subset", "superset"}
	argModes        = []string{"exact", "ignore", "subset", "superset"}
)

// A Matcher grades cases as one peer's evaluator with fixed options.
type Matcher struct {
	peer Peer
	opts Options
}

// New checks the options, filling in the defaults (strict, exact), and
// returns the matcher; an unknown mode is a *toolgrade.OptionError named
// by the JSON option names. Unknown modes in overrides are rejected too,
// where the evaluators would quietly ignore the arguments.
func New(peer Peer, opts Options) (*Matcher, error) {
	if opts.TrajectoryMatchMode == "" {
		opts.TrajectoryMatchMode = TrajectoryStrict
	}
	if opts.ToolArgsMatchMode == "" {
		opts.ToolArgsMatchMode = ArgsExact
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
	return &Matcher{peer: peer, opts: opts}, nil
}

// Grade scores one case: 1 and success when the evaluator returns true,
// 0 otherwise, under a threshold of 1, with the pairs behind the verdict
// and a reason; an error result where the evaluator throws.
func (m *Matcher) Grade(name, profile string, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: name, Profile: profile, Threshold: toolgrade.Float(1)}
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
	if m.opts.ToolArgsMatchMode == ArgsIgnore && len(m.opts.ToolArgsMatchOverrides) == 0 {
		notes = append(notes, "arguments not compared (tool_args_match_mode: ignore)")
	}
	r.Reason = strings.Join(notes, "; ")
	return r
}

func (m *Matcher) verdict(c *toolgrade.Case) (verdict, error) {
	out, err := m.trajectory(c.Trajectory, "trajectory")
	if err != nil {
		return verdict{}, err
	}
	ref, err := m.trajectory(c.ExpectedTrajectory, "expected_trajectory")
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

// A message is one chat message as the evaluator reads it.
type message struct {
	role     any  // js.Undefined{} when absent
	hasCalls bool // tool_calls present and not null
	calls    []toolCall
}

// A toolCall is one tool call with its place among all calls of its
// trajectory.
type toolCall struct {
	index int
	raw   jsonvalue.Object
}

// trajectory reads the messages of a trajectory in the shapes the peer
// accepts (see Peer.SingleMessage).
func (m *Matcher) trajectory(v any, field string) ([]message, error) {
	if o, ok := v.(jsonvalue.Object); ok {
		l, hasList := o.Get("messages")
		if _, isList := l.([]any); m.peer.SingleMessage && !isList && o.Has("role") && o.Has("content") {
			v = []any{o}
		} else if hasList {
			v = l
		} else if m.peer.SingleMessage {
			return nil, fmt.Errorf("%s: an object trajectory needs a messages list, or role and content to be one message (%s threw)", field, m.peer.Name)
		}
	}
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, fmt.Errorf("%s: missing; the %s profile compares chat-message trajectories", field, m.peer.Name)
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
		msgs[i].role = js.Get(o, "role")
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
			return js.Get(fo, "name")
		}
	}
	return js.Undefined{}
}

func (c *toolCall) strictArgs(side string) (any, error) {
	var a any = js.Undefined{}
	if f, ok := c.raw.Get("function"); ok {
		if fo, ok := f.(jsonvalue.Object); ok {
			a = js.Get(fo, "arguments")
		}
	}
	switch a := a.(type) {
	case nil, js.Undefined:
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
			fc := flatCall{index: c.index, name: js.Get(c.raw, "name"), args: js.Get(c.raw, "args")}
			if f, ok := c.raw.Get("function"); ok {
				if fo, ok := f.(jsonvalue.Object); ok {
					if text, ok := js.Get(fo, "arguments").(string); ok {
						args, err := c.parse(text, side)
						if err != nil {
							return nil, err
						}
						fc.name, fc.args, fc.text = js.Get(fo, "name"), args, text
					}
				}
			}
			if fc.text == "" {
				fc.text = jsonvalue.Format(show(fc.args))
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
		n = jsonvalue.Format(show(name))
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
func (m *Matcher) matcher(tool any) (matcher, string) {
	mode := m.opts.ToolArgsMatchMode
	if name, ok := tool.(string); ok {
		if o, ok := m.opts.ToolArgsMatchOverrides[name]; ok {
			if o.Mode == "" {
				return m.keysMatcher(o.Keys), fmt.Sprintf("key paths %q", o.Keys)
			}
			mode = o.Mode
		}
	}
	switch mode {
	case ArgsExact:
		return func(a, b any) (bool, error) { return m.peer.Equal(a, b), nil }, "exact args"
	case ArgsSubset:
		return m.contained, "subset args"
	case ArgsSuperset:
		return func(a, b any) (bool, error) { return m.contained(b, a) }, "superset args"
	}
	return func(any, any) (bool, error) { return true, nil }, "args ignored"
}

// contained reports whether every top-level key of a is in b with an
// equal value (the peers' subset matcher). Where JavaScript throws (keys
// of null, a key looked up in a primitive), it is an error; text
// arguments, which JavaScript would take apart character by character,
// are one too.
func (m *Matcher) contained(a, b any) (bool, error) {
	keys, ok := js.Keys(a)
	switch a.(type) {
	case json.Number, bool:
		ok = true // no keys
	}
	if !ok {
		return false, m.notObject(a)
	}
	for _, k := range keys {
		if !js.IsObject(b) {
			return false, m.notObject(b)
		}
		bv, ok := js.Property(b, k)
		if !ok {
			return false, nil
		}
		av, _ := js.Property(a, k)
		if !m.peer.Equal(av, bv) {
			return false, nil
		}
	}
	return true, nil
}

func (m *Matcher) notObject(v any) error {
	return fmt.Errorf("tool call arguments are %s, not an object (%s' subset and superset matchers need one)", jsonvalue.Format(show(v)), m.peer.Name)
}

// keysMatcher compares only the values at the key paths.
func (m *Matcher) keysMatcher(paths []string) matcher {
	return func(a, b any) (bool, error) {
		for _, p := range paths {
			av, bv := path(a, p), path(b, p)
			if m.peer.MissingPathFails && (js.IsUndefined(av) || js.IsUndefined(bv)) {
				return false, nil
			}
			if !m.peer.Equal(av, bv) {
				return false, nil
			}
		}
		return true, nil
	}
}

// path follows a dotted path through objects and arrays (an array's
// "length" too); a step that leads nowhere gives undefined.
func path(v any, p string) any {
	for part := range strings.SplitSeq(p, ".") {
		if l, ok := v.([]any); ok && part == "length" {
			v = json.Number(strconv.Itoa(len(l)))
			continue
		}
		next, ok := js.Property(v, part)
		if !ok {
			return js.Undefined{}
		}
		v = next
	}
	return v
}

// strict is the strict trajectory match.
func (m *Matcher) strict(out, ref []message) (verdict, error) {
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
		if !js.StrictEqual(o.role, r.role) {
			return fail("strict: message #%d has role %s, the reference %s (roles must agree position by position)", i, jsonvalue.Format(show(o.role)), jsonvalue.Format(show(r.role)))
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
				if seen[k] || !js.StrictEqual(name, rc.strictName()) {
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
					note += "; a one-to-one pairing exists, but " + m.peer.Name + " pairs first-fit"
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
func (m *Matcher) strictPairable(o, r *message, matcher matcher) bool {
	scores := make([][]float64, len(o.calls))
	for i, oc := range o.calls {
		scores[i] = make([]float64, len(r.calls))
		for k, rc := range r.calls {
			if !js.StrictEqual(oc.strictName(), rc.strictName()) {
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
			if s, ok := js.Get(fo, "arguments").(string); ok {
				return s
			}
		}
	}
	return ""
}

// show turns undefined into null for messages.
func show(v any) any {
	if js.IsUndefined(v) {
		return nil
	}
	return v
}

// flat is the unordered, superset and subset match over the calls of all
// messages.
func (m *Matcher) flat(out, ref []message) (verdict, error) {
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
				v.notes = append(v.notes, "a one-to-one pairing of the reference calls exists, but "+m.peer.Name+" pairs first-fit")
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
				v.notes = append(v.notes, "a one-to-one pairing of the trajectory calls exists, but "+m.peer.Name+" pairs first-fit")
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

func (m *Matcher) describe(name any) string {
	_, how := m.matcher(name)
	return how
}

// superset is agentevals' superset check: each call of b, in order, takes
// the first unused call of a with the same name and matcher(a.args,
// b.args). It returns the pairs as (index in b, index in a) and the calls
// of b left unmatched. The evaluator stops at the first unmatched call; the
// check goes on for the reason, but an error after that point is one the
// evaluator never meets and is dropped, as are all errors when quiet.
func (m *Matcher) superset(a, b []flatCall, quiet bool) (pairs [][2]int, unmatched []int, err error) {
	used := make([]bool, len(a))
	for i := range b {
		matcher, _ := m.matcher(b[i].name)
		found := false
		for j := range a {
			if used[j] || !js.StrictEqual(b[i].name, a[j].name) {
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
func (m *Matcher) pairable(a, b []flatCall) bool {
	scores := make([][]float64, len(b))
	for i := range b {
		scores[i] = make([]float64, len(a))
		matcher, _ := m.matcher(b[i].name)
		for j := range a {
			if js.StrictEqual(b[i].name, a[j].name) {
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
