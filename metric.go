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

// A MetricResult is one metric's verdict on one case: the core every
// metric has, and the metric's own [Detail]s.
//
// It is written as one JSON object (see [MetricResult.AppendJSON]) whose
// members come in a fixed order: name, profile, score, success,
// threshold, precision, recall, f1; the details placed [AfterScore];
// matches, missing, unexpected; the details placed [AfterMatches];
// reason; the details placed [AfterReason]; error. Details of one place
// come in their order in Details, which reading keeps. That order is part
// of the contract: results files of the same run are byte-identical.
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

	// Matches pairs expected with called calls; Missing lists expected
	// calls left unpaired and Unexpected called calls left unpaired, by
	// index. Metrics that do not pair calls leave all three nil; the three
	// are written together when any is set.
	Matches    []Match
	Missing    []int
	Unexpected []int

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

	// Details are what the metric found beyond the core, at most one per
	// member name ([MetricResult.SetDetail] keeps it so): the turns of a
	// case graded turn by turn, the rules checked, a judge's usage. Read
	// one with [DetailOf]. A metric that finds nothing of a kind adds no
	// detail of it.
	Details []Detail
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

// Usage counts LLM tokens and requests behind a result. A metric that
// asks an LLM adds it to its result as a detail (see [Usage.Member]).
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
