package agentevals

import (
	"context"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/compat/internal/trajectorymatch"
)

// Options configure [Metric]. The JSON names are the options of
// agentevals' createTrajectoryMatchEvaluator, in snake_case.
type Options = trajectorymatch.Options

// A TrajectoryMode is agentevals' trajectoryMatchMode; openevals, its
// successor, takes the same modes.
type TrajectoryMode = trajectorymatch.TrajectoryMode

const (
	// TrajectoryStrict matches message by message.
	TrajectoryStrict = trajectorymatch.TrajectoryStrict
	// TrajectoryUnordered needs the same tool calls in any order.
	TrajectoryUnordered = trajectorymatch.TrajectoryUnordered
	// TrajectorySuperset needs the agent's calls to cover the reference's.
	TrajectorySuperset = trajectorymatch.TrajectorySuperset
	// TrajectorySubset needs the agent to make no call outside the
	// reference.
	TrajectorySubset = trajectorymatch.TrajectorySubset
)

// An ArgsMode is agentevals' toolArgsMatchMode.
type ArgsMode = trajectorymatch.ArgsMode

const (
	ArgsExact    = trajectorymatch.ArgsExact
	ArgsIgnore   = trajectorymatch.ArgsIgnore
	ArgsSubset   = trajectorymatch.ArgsSubset
	ArgsSuperset = trajectorymatch.ArgsSuperset
)

// An Override is how one tool's arguments are compared: a mode
// (JSON: a string), or, when Mode is empty, only the values at the dotted
// key paths in Keys (JSON: a list of paths such as "when.date" or
// "attendees.0.name"). An override without paths accepts any arguments.
type Override = trajectorymatch.Override

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
	m *trajectorymatch.Matcher
}

// peer is what agentevals 0.0.7 does its own way: its loose deep
// equality, key paths that read undefined where they lead nowhere, and
// trajectories that are lists or {messages} objects only.
var peer = trajectorymatch.Peer{Name: "agentevals", Equal: deepEqual}

// New checks the options and returns the metric; an unknown mode is an
// *toolgrade.OptionError.
//
// Unlike agentevals, which ignores arguments under an unknown argument
// mode, it rejects unknown modes.
func New(opts Options) (*Metric, error) {
	m, err := trajectorymatch.New(peer, opts)
	if err != nil {
		return nil, err
	}
	return &Metric{m: m}, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "agentevals".
func (m *Metric) Profile() string { return "agentevals" }

// CaseFields returns the fields the metric reads: the two trajectories.
func (m *Metric) CaseFields() []string { return []string{"trajectory", "expected_trajectory"} }

// Grade scores one case.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	return m.m.Grade(m.Name(), m.Profile(), c)
}

// deepEqual is agentevals 0.0.7's deep equality: null and undefined are
// equal, primitives compare strictly (numbers by value), arrays element by
// element, and otherwise two objects or arrays are equal when they have
// the same keys with deep-equal values, so [] equals {}.
func deepEqual(a, b any) bool {
	if js.Nullish(a) && js.Nullish(b) {
		return true
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if aList && bList {
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !deepEqual(al[i], bl[i]) {
				return false
			}
		}
		return true
	}
	ak, okA := js.Keys(a)
	bk, okB := js.Keys(b)
	if !okA || !okB {
		return js.StrictEqual(a, b)
	}
	if len(ak) != len(bk) {
		return false
	}
	for _, k := range ak {
		bv, ok := js.Property(b, k)
		if !ok {
			return false
		}
		av, _ := js.Property(a, k)
		if !deepEqual(av, bv) {
			return false
		}
	}
	return true
}
