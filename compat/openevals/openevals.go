// Package openevals reproduces the verdicts of openevals'
// createTrajectoryMatchEvaluator (the JavaScript package, openevals 0.2.2),
// the successor of agentevals' trajectory match: the same modes, pairing
// and argument matchers (see compat/agentevals), with a stricter deep
// equality, key paths that must be present, and one more input shape.
package openevals

import (
	"context"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/compat/internal/trajectorymatch"
)

// Options configure [Metric]. The JSON names are the options of
// openevals' createTrajectoryMatchEvaluator, in snake_case.
type Options = trajectorymatch.Options

// A TrajectoryMode is openevals' trajectoryMatchMode.
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

// An ArgsMode is openevals' toolArgsMatchMode.
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

// Metric reproduces the verdicts of openevals' trajectory match evaluator
// on OpenAI chat-message trajectories: the case's trajectory is the
// evaluator's outputs, its expected_trajectory the reference. The score is
// 1 or 0 and the threshold 1, so success is the evaluator's verdict.
//
// The trajectory modes, the first-fit pairing and the subset mode's
// swapped matcher arguments are agentevals' (see the agentevals package's
// Metric). What openevals changed:
//
//   - Deep equality (exact arguments, and the values that subset,
//     superset and key paths compare) is strict: numbers by value, "1" is
//     not 1, true is not 1, arrays ordered, an array never equals an object
//     ([] is not {}), and null equals only null.
//   - A key path that leads nowhere on either side (a missing key, a step
//     through a non-object) fails the comparison, even when it leads
//     nowhere on both sides: two identical calls that both lack a listed
//     key do not match. A key present with null still equals null.
//   - A trajectory may be one message object ({role, content, ...}) as
//     well as a list of messages or {messages: [...]}; an object with
//     neither a messages list nor role and content is an error.
//
// Arguments that are not valid JSON make the case an error where the
// evaluator parses them: every call of both trajectories in the flattened
// modes, only the calls it reaches in strict mode.
//
// The evaluator never compares message content, call ids, tool_call_id or
// tool results, nor, in the flattened modes, roles or how calls are
// grouped into messages; the reason says so where an option turns a
// comparison off ("arguments not compared (tool_args_match_mode:
// ignore)").
//
// Non-goals: matcher functions as overrides (they are not data), LangChain
// message objects, and the properties JavaScript objects inherit (a key
// named "constructor" is an ordinary key here). Unknown modes in
// overrides are rejected, where openevals quietly ignores the arguments.
type Metric struct {
	m *trajectorymatch.Matcher
}

// peer is what openevals 0.2.2 does its own way.
var peer = trajectorymatch.Peer{Name: "openevals", Equal: js.DeepEqual, MissingPathFails: true, SingleMessage: true}

// New checks the options and returns the metric; an unknown mode is a
// *toolgrade.OptionError, as openevals throws when it builds the
// evaluator.
func New(opts Options) (*Metric, error) {
	m, err := trajectorymatch.New(peer, opts)
	if err != nil {
		return nil, err
	}
	return &Metric{m: m}, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "openevals".
func (m *Metric) Profile() string { return "openevals" }

// CaseFields returns the fields the metric reads: the two trajectories.
func (m *Metric) CaseFields() []string { return []string{"trajectory", "expected_trajectory"} }

// Grade scores one case.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	return m.m.Grade(m.Name(), m.Profile(), c)
}
