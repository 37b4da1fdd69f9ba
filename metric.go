package toolgrade

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Metric scores one case. Implementations must be safe for concurrent
// use: [Evaluate] calls Grade from several goroutines.
type Metric interface {
	// Name is the metric's name in results, e.g. "tool_correctness".
	Name() string
	// Profile names whose semantics the metric follows: "default" for
	// toolgrade's own, or a peer ("deepeval", "axion", ...).
	Profile() string
	// Grade scores the case. It never panics on bad input: a case that
	// cannot be scored gives a result with Error set.
	Grade(ctx context.Context, c *Case) MetricResult
}

// A MetricResult is one metric's verdict on one case.
type MetricResult struct {
	Name    string
	Profile string

	// Score is the metric's score, usually in [0, 1]. It is meaningless
	// when Error is set (written as null).
	Score float64
	// Threshold is the pass mark; nil means the metric only scores and
	// gives no verdict (success is written as null).
	Threshold *float64
	// Success reports Score >= *Threshold; it is false when Error is set
	// or there is no threshold. [MetricResult.Verdict] is the pass or
	// fail a run counts: it passes results without a threshold.
	Success bool

	// Precision, Recall and F1 are set by metrics that pair calls.
	Precision, Recall, F1 *float64
	// Components holds named parts of the score (DeepFabric's tool
	// selection, a judge's score, ...).
	Components map[string]float64

	// Matches pairs expected with called calls; Missing lists expected
	// calls left unpaired and Unexpected called calls left unpaired, by
	// index. Metrics that do not pair calls leave all three nil.
	Matches    []Match
	Missing    []int
	Unexpected []int
	// NearMisses pair a missing expected call with the unpaired called
	// call the reason names as closest to it, with their differences: a
	// call with a wrong argument under exact comparison scores 0, so it is
	// no match, but what differed is still there to read. Go only: results
	// files keep it in the reason's words.
	NearMisses []Match

	// Failed lists the called calls (by index) that failed, and Retried
	// those of them that a later call of the same tool retried, for
	// metrics that take call status into account.
	Failed, Retried []int
	// Turns holds the score of each turn, for a case graded turn by turn
	// (see [Case.Turns]); nil otherwise.
	Turns []TurnScore
	// Flows are the data-flow links an expected call's {"from": ...} rule
	// checked: where an argument had to come from, and whether it did.
	Flows []Flow
	// Rules are the process rules a metric checked, each kept or broken.
	Rules []RuleCheck
	// Diffs are differences that belong to the case rather than to a pair
	// of calls: state values that differ (state_match), argument values
	// found nowhere earlier (grounding). Path locates each, e.g.
	// "$.orders[0].status" or "#2 cancel_order.order_id".
	Diffs []ArgDiff

	// Reason explains the score in words: each missing call, each extra
	// call, each differing argument.
	Reason string
	// Error is set when the case could not be scored: the text results
	// files keep.
	Error string
	// Err is the error behind Error, for errors.Is and errors.As (a
	// *FieldError, an *OptionError, ...), when the result was made in this
	// process; nil when it was read back from JSON, or when Error was set
	// as text alone.
	Err error

	// Usage counts the LLM tokens spent on this result, if any.
	Usage *Usage

	// Executions are the calls run against a live tool server, with their
	// real outputs, by metrics that execute calls; nil for the others.
	Executions []Execution
}

// A TurnScore is one turn's share of a case graded turn by turn.
type TurnScore struct {
	Turn    int // from 1
	Score   float64
	Success bool // Score reaches the metric's threshold
	// Expected and Called list the turn's calls by their index in the
	// case's lists.
	Expected, Called []int
}

// A Flow is one argument that had to carry a value from an earlier
// call's output: called call To's argument Arg against the output of
// called call From (-1 when the expected source call was not made) at
// Ref.
type Flow struct {
	From, To int
	Arg      string // the argument's path
	Ref      string // the reference as written ("lookup_order.output.id")
	OK       bool
}

// A RuleCheck is one process rule and its verdict: the rule as written,
// whether it was kept, and the called calls (by index) that broke it.
type RuleCheck struct {
	Rule     string
	Kept     bool
	Breaches []int
	Reason   string // why it was broken, in words; empty when kept
}

// An OptionError reports an option set to a value the metric does not
// take, or an option it does not take at all (Err is then
// [ErrUnknownOption]). Constructors (match.New, the peers' New) and
// [DecodeOptions] return it, so that a caller can tell which option was
// wrong with errors.As, and an unknown one with errors.Is.
type OptionError struct {
	// Option is the option's name as config files spell it ("order",
	// "args_overrides.get_weather").
	Option string
	// Value is the value given, as text.
	Value string
	// Allowed lists the values the option takes, when they are few.
	Allowed []string
	// Err says what is wrong when a list of values does not (a number out
	// of range); nil otherwise.
	Err error
}

func (e *OptionError) Error() string {
	switch {
	case e.Err == ErrUnknownOption:
		return fmt.Sprintf("unknown option %q", e.Option)
	case e.Err != nil:
		return e.Option + ": " + e.Err.Error()
	case len(e.Allowed) > 0:
		return fmt.Sprintf("%s: unknown value %q (want %s)", e.Option, e.Value, strings.Join(e.Allowed, ", "))
	}
	return fmt.Sprintf("%s: unknown value %q", e.Option, e.Value)
}

func (e *OptionError) Unwrap() error { return e.Err }

// Threshold returns the pass mark a metric's options give (t), or def
// when they give none. A score of toolgrade's own metrics is a share, so
// a mark outside [0, 1] is an *OptionError: below 0 every case would
// pass, above 1 none could.
func Threshold(t *float64, def float64) (float64, error) {
	if t == nil {
		return def, nil
	}
	if v := *t; math.IsNaN(v) || v < 0 || v > 1 {
		text := strconv.FormatFloat(v, 'g', -1, 64)
		return 0, &OptionError{Option: "threshold", Value: text, Err: errors.New("want a share in [0, 1], got " + text)}
	}
	return *t, nil
}

// Fail marks the result as not scored because of err: Error and Err are
// set, Success is false.
func (r *MetricResult) Fail(err error) {
	r.Err, r.Error, r.Success = err, err.Error(), false
}

// Verdict reports whether the result passed: no error, and, when there is a
// threshold, a score at or above it. Results without a threshold pass.
func (r *MetricResult) Verdict() bool {
	if r.Error != "" {
		return false
	}
	return r.Threshold == nil || r.Success
}

// A Match pairs the expected call at index Expected with the called call at
// index Called. Score is the pair's credit in [0, 1]; Diffs say what kept
// it below 1.
type Match struct {
	Expected int
	Called   int
	Score    float64
	Diffs    []ArgDiff
}

// An ArgDiff is one difference between an expected and a called call.
type ArgDiff struct {
	// Path locates the difference: an argument path ("when.date",
	// "attendees[0]"), or "output", or "name".
	Path     string
	Expected any
	Got      any
	// Note says what kind of difference it is when the values alone do not:
	// "missing" (absent from the call), "unexpected" (not expected at all),
	// or the rule that failed.
	Note string
}

// Usage counts LLM tokens and requests behind a result.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
	Requests         int64 // requests sent (not answered from the cache)
	CachedRequests   int64 // requests answered from the cache
}

// Add adds u2 to u.
func (u *Usage) Add(u2 Usage) {
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.Requests += u2.Requests
	u.CachedRequests += u2.CachedRequests
}

// Float returns a pointer to f, for optional fields such as thresholds.
func Float(f float64) *float64 { return &f }

// Named gives a metric another name in results, so that one suite can run
// the same metric twice with different options.
func Named(m Metric, name string) Metric { return named{m, name} }

type named struct {
	Metric
	name string
}

func (n named) Name() string { return n.name }

func (n named) Grade(ctx context.Context, c *Case) MetricResult {
	r := n.Metric.Grade(ctx, c)
	r.Name = n.name
	return r
}

// Unpaired lists the expected calls (of nExpected) and the called calls
// (of nCalled) that no match uses, in index order: a result's Missing and
// Unexpected. Both are empty, not nil, when every call is paired.
func Unpaired(matches []Match, nExpected, nCalled int) (missing, unexpected []int) {
	used := make([]bool, nExpected+nCalled)
	usedE, usedC := used[:nExpected], used[nExpected:]
	for _, p := range matches {
		usedE[p.Expected], usedC[p.Called] = true, true
	}
	// Matches are usually one to one, so the counts are known.
	missing = make([]int, 0, max(nExpected-len(matches), 0))
	unexpected = make([]int, 0, max(nCalled-len(matches), 0))
	for i, used := range usedE {
		if !used {
			missing = append(missing, i)
		}
	}
	for j, used := range usedC {
		if !used {
			unexpected = append(unexpected, j)
		}
	}
	return missing, unexpected
}
