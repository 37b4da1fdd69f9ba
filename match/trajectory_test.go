package match_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"pgregory.net/rapid"
)

// gradeTurns grades a case whose calls may carry "status" and "turn"; turns
// is the length of Case.Turns (0: none).
func gradeTurns(t tb, opts match.Options, expected, called string, turns int) toolgrade.MetricResult {
	t.Helper()
	m, err := match.New(opts)
	if err != nil {
		t.Fatalf("New(%+v): %v", opts, err)
	}
	c := &toolgrade.Case{Expected: calls(t, expected), Called: calls(t, called)}
	if turns > 0 {
		c.Turns = make([]toolgrade.Turn, turns)
	}
	return m.Grade(context.Background(), c)
}

// A trajectoryTest is one case graded along its trajectory. The list
// fields are in fmt's form ("[0 1]"); an empty string skips the check.
type trajectoryTest struct {
	name                     string
	opts                     match.Options
	expected, called         string
	turns                    int
	score, precision, recall float64
	success                  bool
	missing, unexp           string
	failed, retried          string
	turnScores               string // the turns' scores, "[1 0]"
	flows                    string
	reason                   []string // substrings the reason holds
	notReason                []string // substrings it does not
}

func (tt trajectoryTest) run(t *testing.T) {
	t.Helper()
	r := gradeTurns(t, tt.opts, tt.expected, tt.called, tt.turns)
	if r.Error != "" {
		t.Fatalf("error: %s", r.Error)
	}
	if math.Abs(r.Score-tt.score) > 1e-12 || math.Abs(*r.Precision-tt.precision) > 1e-12 || math.Abs(*r.Recall-tt.recall) > 1e-12 {
		t.Errorf("score/precision/recall = %v/%v/%v, want %v/%v/%v", r.Score, *r.Precision, *r.Recall, tt.score, tt.precision, tt.recall)
	}
	if r.Success != tt.success {
		t.Errorf("success = %v, want %v", r.Success, tt.success)
	}
	for _, f := range []struct {
		name string
		got  any
		want string
	}{
		{"missing", r.Missing, tt.missing},
		{"unexpected", r.Unexpected, tt.unexp},
		{"failed", toolgrade.DetailOf[match.Failed](&r), tt.failed},
		{"retried", toolgrade.DetailOf[match.Retried](&r), tt.retried},
		{"flows", toolgrade.DetailOf[match.Flows](&r), tt.flows},
	} {
		if got := fmt.Sprint(f.got); f.want != "" && got != f.want {
			t.Errorf("%s = %s, want %s", f.name, got, f.want)
		}
	}
	if tt.turnScores != "" {
		scores := make([]float64, len(toolgrade.DetailOf[match.Turns](&r)))
		for i, ts := range toolgrade.DetailOf[match.Turns](&r) {
			scores[i] = ts.Score
			if ts.Turn != i+1 {
				t.Errorf("turns[%d].Turn = %d", i, ts.Turn)
			}
			if want := ts.Score >= *r.Threshold; ts.Success != want {
				t.Errorf("turn %d: success %v with score %v", ts.Turn, ts.Success, ts.Score)
			}
		}
		if got := fmt.Sprint(scores); got != tt.turnScores {
			t.Errorf("turn scores = %s, want %s", got, tt.turnScores)
		}
	} else if tt.turns == 0 && toolgrade.DetailOf[match.Turns](&r) != nil {
		t.Errorf("a case without turns has turn scores %v", toolgrade.DetailOf[match.Turns](&r))
	}
	for _, s := range tt.reason {
		if !strings.Contains(r.Reason, s) {
			t.Errorf("reason %q lacks %q", r.Reason, s)
		}
	}
	for _, s := range tt.notReason {
		if strings.Contains(r.Reason, s) {
			t.Errorf("reason %q holds %q", r.Reason, s)
		}
	}
}

const (
	orderW1    = `{"name":"get_order","args":{"id":"W1"}}`
	orderW1Err = `{"name":"get_order","args":{"id":"W1"},"status":"error","output":"timeout"}`
	orderW1OK  = `{"name":"get_order","args":{"id":"W1"},"status":"ok","output":{"status":"paid"}}`
	orderW2OK  = `{"name":"get_order","args":{"id":"W2"},"status":"ok"}`
	listOK     = `{"name":"list_orders","status":"ok"}`
)

func TestFailedCalls(t *testing.T) {
	var (
		retry    = match.Options{}
		count    = match.Options{FailedCalls: match.FailedCount}
		ignore   = match.Options{FailedCalls: match.FailedIgnore}
		penalize = match.Options{FailedCalls: match.FailedPenalize}
	)
	one := `[` + orderW1 + `]`
	for _, tt := range []trajectoryTest{
		{name: "retry: retried", opts: retry, expected: one, called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[0]",
			reason: []string{"all 1 expected calls matched", "get_order (called #0) failed and was retried: not counted"}},
		{name: "retry: not retried", opts: retry, expected: one, called: `[` + orderW1Err + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[0]", failed: "[0]", retried: "[]",
			reason:    []string{`missing get_order({"id":"W1"}) (expected #0): called #0 failed`},
			notReason: []string{"retried", "unexpected"}},
		{name: "retry: a failure with no match is extra", opts: retry, expected: `[]`, called: `[` + orderW1Err + `]`,
			score: 0, precision: 0, recall: 0, missing: "[]", unexp: "[0]", failed: "[0]", retried: "[]",
			reason: []string{`unexpected get_order({"id":"W1"}) (called #0, failed)`}},
		{name: "retry: a retry by another tool is none", opts: retry, expected: one, called: `[` + orderW1Err + `,` + listOK + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[0 1]", failed: "[0]", retried: "[]",
			reason: []string{"called #0 failed", "unexpected list_orders() (called #1)"}},
		{name: "retry: two failures then success", opts: retry, expected: one, called: `[` + orderW1Err + `,` + orderW1Err + `,` + orderW1OK + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 1]", retried: "[0 1]",
			reason: []string{"(called #0) failed and was retried", "(called #1) failed and was retried"}},
		{name: "retry: a success before the failure is no retry", opts: retry, expected: one, called: `[` + orderW1OK + `,` + orderW1Err + `]`,
			score: 2.0 / 3, precision: 0.5, recall: 1, missing: "[]", unexp: "[1]", failed: "[1]", retried: "[]",
			reason: []string{"(called #1, failed)"}},
		{name: "retry: a retry with other arguments", opts: retry, expected: one, called: `[` + orderW1Err + `,` + orderW2OK + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[1]", failed: "[0]", retried: "[0]",
			reason: []string{`called #1 differs: id expected "W1", got "W2"`, "failed and was retried: not counted"}},
		{name: "retry: a failed call that would match satisfies nothing", opts: retry, expected: `[` + orderW1 + `,` + listOK + `]`, called: `[` + listOK + `,` + orderW1Err + `]`,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[0]", unexp: "[1]", failed: "[1]", retried: "[]",
			reason: []string{"called #1 failed"}},
		{name: "count: a failed call that would match", opts: count, expected: one, called: `[` + orderW1Err + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]",
			notReason: []string{"failed"}},
		{name: "count: a retried call is extra", opts: count, expected: one, called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score: 2.0 / 3, precision: 0.5, recall: 1, missing: "[]", unexp: "[1]", failed: "[0]", retried: "[0]",
			notReason: []string{"not counted"}},
		{name: "count: with turns", opts: count, expected: `[{"name":"get_order","args":{"id":"W1"},"turn":1}]`, called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score: 2.0 / 3, precision: 0.5, recall: 1, missing: "[]", unexp: "[1]", failed: "[0]", retried: "[0]", turnScores: "[0.6666666666666666]"},
		{name: "ignore: not retried", opts: ignore, expected: one, called: `[` + orderW1Err + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[]", failed: "[0]", retried: "[]",
			reason: []string{`missing get_order({"id":"W1"}) (expected #0)`}, notReason: []string{"unexpected"}},
		{name: "ignore: retried", opts: ignore, expected: one, called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[0]",
			notReason: []string{"not counted"}},
		{name: "ignore: only failures, none expected", opts: ignore, expected: `[]`, called: `[` + orderW1Err + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]"},
		{name: "ignore: a failure among others", opts: ignore, expected: `[` + orderW1 + `,` + listOK + `]`, called: `[` + listOK + `,` + orderW1Err + `]`,
			score: 2.0 / 3, precision: 1, recall: 0.5, missing: "[0]", unexp: "[]", failed: "[1]", retried: "[]"},
		{name: "penalize: retried", opts: penalize, expected: one, called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score: 2.0 / 3, precision: 0.5, recall: 1, missing: "[]", unexp: "[0]", failed: "[0]", retried: "[0]",
			reason:    []string{`unexpected get_order({"id":"W1"}) (called #0, failed)`, "get_order (called #0) failed and was retried"},
			notReason: []string{"not counted"}},
		{name: "retry: exact order counts the retry only", opts: match.Options{Order: match.OrderExact}, expected: one, called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[0]",
			notReason: []string{"exact order needs"}},
		{name: "ignore: exact order leaves failures out", opts: match.Options{Order: match.OrderExact, FailedCalls: match.FailedIgnore}, expected: `[` + orderW1 + `,` + listOK + `]`,
			called: `[` + orderW1Err + `,` + orderW1OK + `,` + listOK + `]`,
			score:  1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[0]",
			notReason: []string{"exact order needs"}},
		{name: "penalize: exact order counts the failure", opts: match.Options{Order: match.OrderExact, FailedCalls: match.FailedPenalize}, expected: one,
			called: `[` + orderW1Err + `,` + orderW1OK + `]`,
			score:  0, precision: 0, recall: 0, missing: "[0]", unexp: "[0 1]", failed: "[0]", retried: "[0]",
			reason: []string{"exact order needs 1 calls, got 2", "called #0 failed"}},
		{name: "penalize: not retried", opts: penalize, expected: one, called: `[` + orderW1Err + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[0]", failed: "[0]", retried: "[]",
			reason: []string{"called #0 failed"}},
		{name: "penalize: two failures then success", opts: penalize, expected: one, called: `[` + orderW1Err + `,` + orderW1Err + `,` + orderW1OK + `]`,
			score: 0.5, precision: 1.0 / 3, recall: 1, missing: "[]", unexp: "[0 1]", failed: "[0 1]", retried: "[0 1]"},
	} {
		t.Run(tt.name, tt.run)
	}
}

// An expected call whose status is error expects a failed call: it takes
// only a call that failed, whatever failed_calls says, and the option
// counts the failed calls no expected call takes.
func TestExpectedFailures(t *testing.T) {
	const orderW1Fails = `{"name":"get_order","args":{"id":"W1"},"status":"error"}`
	var (
		retry    = match.Options{}
		count    = match.Options{FailedCalls: match.FailedCount}
		ignore   = match.Options{FailedCalls: match.FailedIgnore}
		penalize = match.Options{FailedCalls: match.FailedPenalize}
		exact    = match.Options{Order: match.OrderExact}
		inOrder  = match.Options{Order: match.OrderInOrder}
	)
	failThenRetry := `[` + orderW1Fails + `,` + orderW1 + `]`
	retried := `[` + orderW1Err + `,` + orderW1OK + `]`
	for _, tt := range []trajectoryTest{
		{name: "retry: the failure and its retry", opts: retry, expected: failThenRetry, called: retried,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]",
			reason: []string{"all 2 expected calls matched"}, notReason: []string{"retried"}},
		{name: "retry: the retry missing", opts: retry, expected: failThenRetry, called: `[` + orderW1Err + `]`,
			score: 2.0 / 3, precision: 1, recall: 0.5, missing: "[1]", unexp: "[]", failed: "[0]", retried: "[]",
			reason: []string{`missing get_order({"id":"W1"}) (expected #1)`}, notReason: []string{"to fail"}},
		{name: "retry: the failure missing", opts: retry, expected: failThenRetry, called: `[` + orderW1OK + `]`,
			score: 2.0 / 3, precision: 1, recall: 0.5, missing: "[0]", unexp: "[]",
			reason: []string{`missing get_order({"id":"W1"}) (expected #0 to fail)`}},
		{name: "retry: a call that did not fail satisfies no expected failure", opts: retry, expected: `[` + orderW1Fails + `]`, called: `[` + orderW1OK + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[0]",
			reason: []string{`missing get_order({"id":"W1"}) (expected #0 to fail): called #0 did not fail`}},
		{name: "retry: a failure with other arguments", opts: retry, expected: failThenRetry, called: `[` + orderW1Err + `,` + orderW2OK + `]`,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", unexp: "[1]", failed: "[0]", retried: "[]",
			reason: []string{`called #1 differs: id expected "W1", got "W2"`}, notReason: []string{"retried"}},
		{name: "retry: two failures, one expected, the other retried", opts: retry, expected: failThenRetry,
			called: `[` + orderW1Err + `,` + orderW1Err + `,` + orderW1OK + `]`,
			score:  1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 1]",
			reason: []string{"failed and was retried: not counted"}},
		{name: "retry: a failure that counts is expected before a retried one", opts: retry, expected: failThenRetry,
			called: `[` + orderW1Err + `,` + orderW1OK + `,` + orderW1Err + `]`,
			score:  1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 2]", retried: "[0]"},
		{name: "retry: an expected failure not retried", opts: retry, expected: `[` + orderW1Fails + `]`, called: `[` + orderW1Err + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]"},
		{name: "count: the failure and its retry", opts: count, expected: failThenRetry, called: retried,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]"},
		{name: "count: a call that did not fail satisfies no expected failure", opts: count, expected: `[` + orderW1Fails + `]`, called: `[` + orderW1OK + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[0]", reason: []string{"did not fail"}},
		{name: "ignore: the failure and its retry", opts: ignore, expected: failThenRetry, called: retried,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]"},
		{name: "ignore: an unexpected failure is left out", opts: ignore, expected: failThenRetry, called: `[` + orderW1Err + `,` + orderW1Err + `,` + orderW1OK + `]`,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 1]"},
		{name: "penalize: the failure and its retry", opts: penalize, expected: failThenRetry, called: retried,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0]", retried: "[]"},
		{name: "penalize: an unexpected failure is extra", opts: penalize, expected: failThenRetry, called: `[` + orderW1Err + `,` + orderW1Err + `,` + orderW1OK + `]`,
			score: 0.8, precision: 2.0 / 3, recall: 1, missing: "[]", failed: "[0 1]"},
		{name: "exact order: the failure, a failure retried, the retry", opts: exact, expected: failThenRetry,
			called: `[` + orderW1Err + `,` + orderW1Err + `,` + orderW1OK + `]`,
			score:  1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 1]", retried: "[1]"},
		// Found by the property tests: a held call that pairs with
		// nothing takes no place in the order, or the failure after it
		// would miss its place and be left out too.
		{name: "exact order: a retried failure of another tool takes no place", opts: exact,
			expected: `[{"name":"b","status":"error"},{"name":"b"},{"name":"a"}]`,
			called:   `[{"name":"a","status":"error"},{"name":"b","status":"error"},{"name":"b"},{"name":"a"}]`,
			score:    1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 1]", retried: "[0]"},
		{name: "exact order: a retried failure before the expected one in its turn", opts: exact,
			expected: `[{"name":"a","turn":1},{"name":"a","turn":1},{"name":"a","turn":1},{"name":"b","turn":2,"status":"error"}]`,
			called: `[{"name":"a","turn":1},{"name":"a","turn":1},{"name":"a","turn":2,"status":"error"},{"name":"b","turn":2,"status":"error"},` +
				`{"name":"a","turn":3},{"name":"a","turn":3},{"name":"b","turn":3}]`,
			score: 1.0 / 3, precision: 0.5, recall: 0.75, missing: "[2]", unexp: "[4 5 6]", failed: "[2 3]", retried: "[2]", turnScores: "[0 1 0]",
			reason: []string{"a (called #2) failed and was retried: not counted"}, notReason: []string{"did not fail", "b (called #3) failed"}},
		{name: "exact order: of two failures retried, the first takes the place", opts: exact,
			expected: `[{"name":"a","status":"error"},{"name":"a"}]`,
			called:   `[{"name":"a","status":"error"},{"name":"a","status":"error"},{"name":"a"}]`,
			score:    1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[0 1]", retried: "[1]"},
		{name: "exact order: a failure retried is left out where that pairs more", opts: exact,
			expected: `[{"name":"b","status":"error"},{"name":"c"},{"name":"d"}]`,
			called:   `[{"name":"b","status":"error"},{"name":"z"},{"name":"c"},{"name":"d"},{"name":"b"}]`,
			score:    0, precision: 0.5, recall: 2.0 / 3, missing: "[0]", unexp: "[1 4]", failed: "[0]", retried: "[0]"},
		{name: "in order: the retry before the failure", opts: inOrder, expected: failThenRetry, called: `[` + orderW1OK + `,` + orderW1Err + `]`,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", unexp: "[0]", failed: "[1]", retried: "[]",
			reason: []string{"called #0 matches but out of order"}},
		// Found by the property tests: a failure retried later is the one
		// expected, in order among calls that did not fail.
		{name: "in order: the failure among others", opts: inOrder,
			expected: `[{"name":"a"},{"name":"a"},{"name":"a","status":"error"},{"name":"a"}]`,
			called:   `[{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a","status":"error"},{"name":"a"}]`,
			score:    8.0 / 9, precision: 0.8, recall: 1, missing: "[]", unexp: "[2]", failed: "[3]", retried: "[]"},
		{name: "retry: the expected failure among calls that did not fail", opts: retry,
			expected: `[{"name":"a","status":"error"}]`,
			called:   `[{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a","status":"error"},{"name":"a"}]`,
			score:    1.0 / 3, precision: 0.2, recall: 1, missing: "[]", unexp: "[0 1 2 4]", failed: "[3]", retried: "[]"},
		{name: "turns: the failure in its turn", opts: retry,
			expected: `[{"name":"a","turn":1},{"name":"b","turn":2,"status":"error"},{"name":"b","turn":2}]`,
			called:   `[{"name":"a","turn":1},{"name":"b","turn":2,"status":"error"},{"name":"b","turn":2,"status":"ok"}]`, turns: 2,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", failed: "[1]", retried: "[]", turnScores: "[1 1]"},
		{name: "turns: the failure in another turn", opts: retry,
			expected: `[{"name":"b","turn":1,"status":"error"},{"name":"b","turn":2}]`,
			called:   `[{"name":"b","turn":2,"status":"error"},{"name":"b","turn":2,"status":"ok"}]`, turns: 2,
			score: 0.5, precision: 1, recall: 0.5, missing: "[0]", unexp: "[]", failed: "[0]", retried: "[0]", turnScores: "[0 1]"},
	} {
		t.Run(tt.name, tt.run)
	}
}

func TestFailedCallsOptionRejected(t *testing.T) {
	for _, o := range []match.Options{{FailedCalls: "retry-twice"}, {TurnAggregate: "max"}} {
		_, err := match.New(o)
		var oe *toolgrade.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("New(%+v) = %v, want an *OptionError", o, err)
		}
	}
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := m.Options(); o.FailedCalls != match.FailedRetry || o.TurnAggregate != match.TurnMean {
		t.Errorf("defaults: failed_calls %q, turn_aggregate %q", o.FailedCalls, o.TurnAggregate)
	}
}

func TestTurns(t *testing.T) {
	const (
		// Turn 1 right, turn 2 wrong.
		exp2 = `[{"name":"a","turn":1},{"name":"b","args":{"x":1,"y":1},"turn":2}]`
		got2 = `[{"name":"a","turn":1},{"name":"c","turn":2}]`
		// Turn 2 half right under partial arguments.
		half = `[{"name":"a","turn":1},{"name":"b","args":{"x":1,"y":2},"turn":2}]`
	)
	half5 := match.Options{Args: match.ArgsPartial, Threshold: toolgrade.Float(0.5)}
	for _, tt := range []trajectoryTest{
		{name: "mean", expected: exp2, called: got2, turns: 2,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", unexp: "[1]", turnScores: "[1 0]",
			reason: []string{"1 of 2 turns passed (mean of 1, 0)", "missing b("}},
		{name: "mean passes a lower threshold", opts: match.Options{Threshold: toolgrade.Float(0.5)}, expected: exp2, called: got2, turns: 2,
			score: 0.5, precision: 0.5, recall: 0.5, success: true, turnScores: "[1 0]"},
		{name: "min", opts: match.Options{TurnAggregate: match.TurnMin}, expected: exp2, called: got2, turns: 2,
			score: 0, precision: 0.5, recall: 0.5, turnScores: "[1 0]", reason: []string{"(min of 1, 0)"}},
		{name: "all, one turn fails", opts: match.Options{TurnAggregate: match.TurnAll, Threshold: toolgrade.Float(0.5)}, expected: exp2, called: got2, turns: 2,
			score: 0, precision: 0.5, recall: 0.5, turnScores: "[1 0]"},
		{name: "partial: mean", opts: half5, expected: exp2, called: half, turns: 2,
			score: 0.75, precision: 0.75, recall: 0.75, success: true, turnScores: "[1 0.5]", reason: []string{"2 of 2 turns passed"}},
		{name: "partial: min", opts: match.Options{Args: match.ArgsPartial, TurnAggregate: match.TurnMin, Threshold: toolgrade.Float(0.5)}, expected: exp2, called: half, turns: 2,
			score: 0.5, precision: 0.75, recall: 0.75, success: true, turnScores: "[1 0.5]"},
		{name: "partial: all, every turn passes", opts: match.Options{Args: match.ArgsPartial, TurnAggregate: match.TurnAll, Threshold: toolgrade.Float(0.5)}, expected: exp2, called: half, turns: 2,
			score: 1, precision: 0.75, recall: 0.75, success: true, turnScores: "[1 0.5]"},
		{name: "partial: all, threshold not reached", opts: match.Options{Args: match.ArgsPartial, TurnAggregate: match.TurnAll, Threshold: toolgrade.Float(0.6)}, expected: exp2, called: half, turns: 2,
			score: 0, precision: 0.75, recall: 0.75, turnScores: "[1 0.5]", reason: []string{"1 of 2 turns passed (all of 1, 0.5)"}},
		{name: "an empty turn scores 1", expected: `[{"name":"a","turn":1},{"name":"c","turn":3}]`, called: `[{"name":"a","turn":1},{"name":"c","turn":3}]`, turns: 3,
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]", turnScores: "[1 1 1]"},
		{name: "an empty turn scores 1 in the mean", expected: `[{"name":"a","turn":1},{"name":"c","turn":3}]`, called: `[{"name":"a","turn":1},{"name":"d","turn":3}]`, turns: 3,
			score: 2.0 / 3, precision: 0.5, recall: 0.5, turnScores: "[1 1 0]"},
		{name: "turns beyond Case.Turns count", expected: `[{"name":"a","turn":1}]`, called: `[{"name":"a","turn":1},{"name":"a","turn":2}]`, turns: 1,
			score: 0.5, precision: 0.5, recall: 1, unexp: "[1]", turnScores: "[1 0]"},
		{name: "calls pair only within their turn", expected: `[{"name":"a","turn":2}]`, called: `[{"name":"a","turn":1}]`, turns: 2,
			score: 0, precision: 0, recall: 0, missing: "[0]", unexp: "[0]", turnScores: "[0 0]",
			reason: []string{"missing a() (expected #0): called #0 is in turn 1, not 2"}, notReason: []string{"differs"}},
		{name: "turn 0 counts as turn 1", expected: `[{"name":"a","turn":1},{"name":"b","turn":2}]`, called: `[{"name":"a"},{"name":"b","turn":2}]`, turns: 2,
			score: 1, precision: 1, recall: 1, success: true, turnScores: "[1 1]"},
		{name: "an expected call without a turn is in turn 1", expected: `[{"name":"a"},{"name":"b","turn":2}]`, called: `[{"name":"a","turn":1},{"name":"b","turn":2}]`, turns: 2,
			score: 1, precision: 1, recall: 1, success: true, turnScores: "[1 1]"},
		{name: "in-order within turns", opts: match.Options{Order: match.OrderInOrder},
			expected: `[{"name":"a","turn":1},{"name":"b","turn":1},{"name":"c","turn":2}]`,
			called:   `[{"name":"b","turn":1},{"name":"a","turn":1},{"name":"c","turn":2}]`, turns: 2,
			score: 0.75, precision: 2.0 / 3, recall: 2.0 / 3, turnScores: "[0.5 1]", reason: []string{"matches but out of order"}},
		{name: "in-order does not cross turns", opts: match.Options{Order: match.OrderInOrder},
			expected: `[{"name":"a","turn":1},{"name":"b","turn":2}]`,
			called:   `[{"name":"a","turn":1},{"name":"b","turn":2}]`, turns: 2,
			score: 1, precision: 1, recall: 1, success: true, turnScores: "[1 1]"},
		{name: "exact within turns", opts: match.Options{Order: match.OrderExact},
			expected: `[{"name":"a","turn":1},{"name":"b","turn":1},{"name":"c","turn":2}]`,
			called:   `[{"name":"a","turn":1},{"name":"b","turn":1},{"name":"c","turn":2},{"name":"d","turn":2}]`, turns: 2,
			score: 0.5, precision: 0.75, recall: 1, unexp: "[3]", turnScores: "[1 0]", reason: []string{"exact order needs 3 calls, got 4"}},
		{name: "exact, swapped within a turn", opts: match.Options{Order: match.OrderExact},
			expected: `[{"name":"a","turn":1},{"name":"b","turn":1},{"name":"c","turn":2}]`,
			called:   `[{"name":"b","turn":1},{"name":"a","turn":1},{"name":"c","turn":2}]`, turns: 2,
			score: 0.5, precision: 1.0 / 3, recall: 1.0 / 3, turnScores: "[0 1]"},
		{name: "strict turns", opts: match.Options{Strict: true, Threshold: toolgrade.Float(0.5)}, expected: exp2, called: got2, turns: 2,
			score: 0, precision: 0.5, recall: 0.5, turnScores: "[1 0]", reason: []string{"strict: score 0.5 counts as 0"}},
		{name: "recall scoring per turn", opts: match.Options{Scoring: match.ScoringRecall},
			expected: `[{"name":"a","turn":1},{"name":"b","turn":2}]`, called: `[{"name":"a","turn":1},{"name":"x","turn":1},{"name":"b","turn":2}]`, turns: 2,
			score: 1, precision: 2.0 / 3, recall: 1, success: true, turnScores: "[1 1]"},
		{name: "a retried failure in a turn", expected: `[{"name":"a","turn":1},{"name":"b","turn":2}]`,
			called: `[{"name":"a","turn":1},{"name":"b","turn":2,"status":"error"},{"name":"b","turn":2,"status":"ok"}]`, turns: 2,
			score: 1, precision: 1, recall: 1, success: true, unexp: "[]", failed: "[1]", retried: "[1]", turnScores: "[1 1]"},
	} {
		t.Run(tt.name, tt.run)
	}
}

func TestTurnScoreFields(t *testing.T) {
	r := gradeTurns(t, match.Options{}, `[{"name":"a","turn":1},{"name":"b","turn":2}]`,
		`[{"name":"a","turn":1},{"name":"x","turn":1,"status":"error"},{"name":"x","turn":2},{"name":"b","turn":2}]`, 3)
	want := "[{1 1 true [0] [0]} {2 0.6666666666666666 false [1] [2 3]} {3 1 true [] []}]"
	if got := fmt.Sprint(toolgrade.DetailOf[match.Turns](&r)); got != want {
		t.Errorf("turns = %s, want %s", got, want)
	}
	// The retried call is in no turn's list; the turns' lists are never nil,
	// so that results files write [] for them.
	for _, ts := range toolgrade.DetailOf[match.Turns](&r) {
		if ts.Expected == nil || ts.Called == nil {
			t.Errorf("turn %d: nil list: %+v", ts.Turn, ts)
		}
	}
	js := string(r.AppendJSON(nil))
	for _, s := range []string{`"failed":[1]`, `"retried":[1]`, `"turns":[{"turn":1,"score":1,"success":true,"expected":[0],"called":[0]},`, `{"turn":3,"score":1,"success":true,"expected":[],"called":[]}]`} {
		if !strings.Contains(js, s) {
			t.Errorf("JSON %s lacks %s", js, s)
		}
	}
}

// A case with turns in its list but no expected call naming one is
// graded as a flat list.
func TestTurnsWithoutTurnNumbersGradeFlat(t *testing.T) {
	r := gradeTurns(t, match.Options{}, `[{"name":"a"},{"name":"b"}]`, `[{"name":"b","turn":2},{"name":"a","turn":1}]`, 2)
	if r.Score != 1 || toolgrade.DetailOf[match.Turns](&r) != nil {
		t.Errorf("score %v, turns %v: %s", r.Score, toolgrade.DetailOf[match.Turns](&r), r.Reason)
	}
}

const (
	findOrder = `{"name":"find_order","args":{"q":"ana"}}`
	cancelBy  = `{"name":"cancel_order","args":{},"rules":{"order_id":{"from":%q}}}`
)

// cancel is the expected cancel_order whose order_id comes from ref.
func cancel(ref string) string { return fmt.Sprintf(cancelBy, ref) }

// found is a called find_order with the given output (JSON).
func found(output string) string {
	return `{"name":"find_order","args":{"q":"ana"},"output":` + output + `}`
}

func cancelled(id string) string { return `{"name":"cancel_order","args":{"order_id":` + id + `}}` }

func TestFromRules(t *testing.T) {
	exp := func(ref string) string { return `[` + findOrder + `,` + cancel(ref) + `]` }
	got := func(output, id string) string { return `[` + found(output) + `,` + cancelled(id) + `]` }
	ok := func(name, ref, output, id string) trajectoryTest {
		return trajectoryTest{name: name, expected: exp(ref), called: got(output, id),
			score: 1, precision: 1, recall: 1, success: true, missing: "[]", unexp: "[]",
			flows: fmt.Sprintf("[{0 1 order_id %s true}]", ref), reason: []string{"all 2 expected calls matched"}}
	}
	bad := func(name, ref, output, id string, reason ...string) trajectoryTest {
		return trajectoryTest{name: name, expected: exp(ref), called: got(output, id),
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", unexp: "[1]",
			flows: fmt.Sprintf("[{0 1 order_id %s false}]", ref), reason: reason}
	}
	for _, tt := range []trajectoryTest{
		ok("by name", "find_order.output.id", `{"id":"W123"}`, `"W123"`),
		ok("by index", "#0.output.id", `{"id":"W123"}`, `"W123"`),
		ok("nested path", "find_order.output.customer.order.id", `{"customer":{"order":{"id":"W123"}}}`, `"W123"`),
		ok("list index", "find_order.output.orders[1].id", `{"orders":[{"id":"W1"},{"id":"W123"}]}`, `"W123"`),
		ok("dotted list index", "find_order.output.orders.1.id", `{"orders":[{"id":"W1"},{"id":"W123"}]}`, `"W123"`),
		ok("the whole output", "find_order.output", `"W123"`, `"W123"`),
		ok("a number", "find_order.output.id", `{"id":123}`, `123.0`),
		ok("an object", "find_order.output.ref", `{"ref":{"id":"W1","shop":2}}`, `{"shop":2,"id":"W1"}`),
		ok("output as JSON text", "find_order.output.orders[0].id", `"{\"orders\": [{\"id\": \"W123\"}]}"`, `"W123"`),
		ok("MCP structuredContent", "find_order.output.id",
			`{"content":[{"type":"text","text":"Found W123"}],"structuredContent":{"id":"W123"},"isError":false}`, `"W123"`),
		ok("MCP text content", "find_order.output.orders[0].id",
			`{"content":[{"type":"text","text":"{\"orders\":[{\"id\":\"W123\"}]}"}]}`, `"W123"`),
		ok("MCP key at the top wins", "find_order.output.id",
			`{"id":"W123","structuredContent":{"id":"W9"}}`, `"W123"`),
		bad("wrong value", "find_order.output.id", `{"id":"W123"}`, `"W999"`,
			`missing cancel_order({"order_id":<from find_order.output.id>}) (expected #1): called #1 differs: order_id not the value of find_order.output.id (expected "W123", got "W999")`),
		bad("a value of another type", "find_order.output.id", `{"id":123}`, `"123"`, "not the value of find_order.output.id"),
		bad("path missing from the output", "find_order.output.orders[2].id", `{"orders":[{"id":"W1"}]}`, `"W1"`,
			"order_id from find_order.output.orders[2].id: the output of find_order (called #0) has nothing at output.orders.2.id"),
		bad("MCP text of several parts", "find_order.output.id",
			`{"content":[{"type":"text","text":"{\"id\":\"W123\"}"},{"type":"text","text":"more"}]}`, `"W123"`, "has nothing at output.id"),
		bad("text that is not JSON", "find_order.output.id", `"id: W123"`, `"W123"`, "has nothing at output.id"),
		{name: "no recorded output", expected: exp("find_order.output.id"), called: `[{"name":"find_order","args":{"q":"ana"}},` + cancelled(`"W1"`) + `]`,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", flows: "[{0 1 order_id find_order.output.id false}]",
			reason: []string{"its source find_order (called #0) has no recorded output"}},
		{name: "source not called", expected: exp("find_order.output.id"), called: `[` + cancelled(`"W123"`) + `]`,
			score: 0, precision: 0, recall: 0, missing: "[0 1]", unexp: "[0]", flows: "[{-1 0 order_id find_order.output.id false}]",
			reason: []string{"its source find_order (expected #0) was not called"}},
		{name: "source called after", expected: exp("find_order.output.id"), called: `[` + cancelled(`"W123"`) + `,` + found(`{"id":"W123"}`) + `]`,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", unexp: "[0]", flows: "[{1 0 order_id find_order.output.id false}]",
			reason: []string{"its source find_order (called #1) comes after it"}},
		{name: "source retried", expected: exp("find_order.output.id"),
			called: `[{"name":"find_order","args":{"q":"ana"},"status":"error"},` + found(`{"id":"W123"}`) + `,` + cancelled(`"W123"`) + `]`,
			score:  1, precision: 1, recall: 1, success: true, failed: "[0]", retried: "[0]", flows: "[{1 2 order_id find_order.output.id true}]"},
		{name: "a value from the failed try", expected: exp("find_order.output.id"),
			called: `[{"name":"find_order","args":{"q":"ana"},"status":"error","output":{"id":"W0"}},` + found(`{"id":"W123"}`) + `,` + cancelled(`"W0"`) + `]`,
			score:  0.5, precision: 0.5, recall: 0.5, missing: "[1]", unexp: "[2]", flows: "[{1 2 order_id find_order.output.id false}]",
			reason: []string{`expected "W123", got "W0"`}},
		{name: "from and type: both hold", expected: `[` + findOrder + `,{"name":"cancel_order","args":{},"rules":{"order_id":{"from":"find_order.output.id","type":"integer"}}}]`,
			called: got(`{"id":7}`, `7`), score: 1, precision: 1, recall: 1, success: true},
		{name: "from and type: the type fails", expected: `[` + findOrder + `,{"name":"cancel_order","args":{},"rules":{"order_id":{"from":"find_order.output.id","type":"string"}}}]`,
			called: got(`{"id":7}`, `7`), score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", reason: []string{"order_id not of type string"}},
		{name: "an argument missing", expected: exp("find_order.output.id"), called: `[` + found(`{"id":"W1"}`) + `,{"name":"cancel_order","args":{}}]`,
			score: 0.5, precision: 0.5, recall: 0.5, missing: "[1]", reason: []string{`order_id missing (expected "W1")`}},
		{name: "the nearest earlier call by name",
			expected: `[` + findOrder + `,{"name":"find_order","args":{"q":"bob"}},` + cancel("find_order.output.id") + `]`,
			called:   `[` + found(`{"id":"W1"}`) + `,{"name":"find_order","args":{"q":"bob"},"output":{"id":"W2"}},` + cancelled(`"W2"`) + `]`,
			score:    1, precision: 1, recall: 1, success: true, flows: "[{1 2 order_id find_order.output.id true}]"},
		{name: "not the farther one",
			expected: `[` + findOrder + `,{"name":"find_order","args":{"q":"bob"}},` + cancel("find_order.output.id") + `]`,
			called:   `[` + found(`{"id":"W1"}`) + `,{"name":"find_order","args":{"q":"bob"},"output":{"id":"W2"}},` + cancelled(`"W1"`) + `]`,
			score:    2.0 / 3, precision: 2.0 / 3, recall: 2.0 / 3, missing: "[2]", flows: "[{1 2 order_id find_order.output.id false}]",
			reason: []string{`expected "W2", got "W1"`}},
		{name: "the farther one by index",
			expected: `[` + findOrder + `,{"name":"find_order","args":{"q":"bob"}},` + cancel("#0.output.id") + `]`,
			called:   `[` + found(`{"id":"W1"}`) + `,{"name":"find_order","args":{"q":"bob"},"output":{"id":"W2"}},` + cancelled(`"W1"`) + `]`,
			score:    1, precision: 1, recall: 1, success: true, flows: "[{0 2 order_id #0.output.id true}]"},
		{name: "called in another order than expected",
			expected: `[` + findOrder + `,{"name":"get_user","args":{"id":1}},` + cancel("find_order.output.id") + `]`,
			called:   `[{"name":"get_user","args":{"id":1}},` + found(`{"id":"W1"}`) + `,` + cancelled(`"W1"`) + `]`,
			score:    1, precision: 1, recall: 1, success: true, flows: "[{1 2 order_id find_order.output.id true}]"},
		{name: "a chain", expected: `[` + findOrder + `,{"name":"get_order","args":{},"rules":{"id":{"from":"find_order.output.id"}}},` +
			`{"name":"refund","args":{},"rules":{"payment":{"from":"get_order.output.payment_id"}}}]`,
			called: `[` + found(`{"id":"W1"}`) + `,{"name":"get_order","args":{"id":"W1"},"output":{"payment_id":"P9"}},{"name":"refund","args":{"payment":"P9"}}]`,
			score:  1, precision: 1, recall: 1, success: true,
			flows: "[{0 1 id find_order.output.id true} {1 2 payment get_order.output.payment_id true}]"},
		{name: "a nested argument", expected: `[` + findOrder + `,{"name":"cancel_order","args":{"order":{}},"rules":{"order.id":{"from":"find_order.output.id"}}}]`,
			called: `[` + found(`{"id":"W1"}`) + `,{"name":"cancel_order","args":{"order":{"id":"W1"}}}]`,
			score:  1, precision: 1, recall: 1, success: true, flows: "[{0 1 order.id find_order.output.id true}]"},
		{name: "the right one of two calls of the same tool",
			expected: `[` + findOrder + `,` + cancel("find_order.output.id") + `]`,
			called:   `[` + found(`{"id":"W1"}`) + `,` + cancelled(`"W2"`) + `,` + cancelled(`"W1"`) + `]`,
			score:    0.8, precision: 2.0 / 3, recall: 1, unexp: "[1]", flows: "[{0 2 order_id find_order.output.id true}]"},
		{name: "in turns", expected: `[{"name":"find_order","args":{"q":"ana"},"turn":1},{"name":"cancel_order","args":{},"turn":2,"rules":{"order_id":{"from":"find_order.output.id"}}}]`,
			called: `[{"name":"find_order","args":{"q":"ana"},"output":{"id":"W1"},"turn":1},{"name":"cancel_order","args":{"order_id":"W1"},"turn":2}]`, turns: 2,
			score: 1, precision: 1, recall: 1, success: true, turnScores: "[1 1]", flows: "[{0 1 order_id find_order.output.id true}]"},
		{name: "partial credit", opts: match.Options{Args: match.ArgsPartial},
			expected: `[` + findOrder + `,{"name":"cancel_order","args":{"reason":"late"},"rules":{"order_id":{"from":"find_order.output.id"}}}]`,
			called:   `[` + found(`{"id":"W1"}`) + `,{"name":"cancel_order","args":{"reason":"late","order_id":"W2"}}]`,
			score:    0.75, precision: 0.75, recall: 0.75, missing: "[]", flows: "[{0 1 order_id find_order.output.id false}]",
			reason: []string{"cancel_order (expected #1, called #1) scored 0.5: order_id not the value of find_order.output.id"}},
	} {
		t.Run(tt.name, tt.run)
	}
}

func TestFromRuleErrors(t *testing.T) {
	for _, tt := range []struct {
		name, expected, field, msg string
	}{
		{"no call of that name", `[{"name":"get_user"},` + cancel("find_order.output.id") + `]`,
			"expected_tools[1].rules.order_id.from", "names no expected call before this one (#1)"},
		{"the named call comes after", `[` + cancel("find_order.output.id") + `,` + findOrder + `]`,
			"expected_tools[0].rules.order_id.from", "names no expected call before this one (#0)"},
		{"itself by name", `[{"name":"cancel_order","args":{},"rules":{"order_id":{"from":"cancel_order.output.id"}}}]`,
			"expected_tools[0].rules.order_id.from", "names no expected call before this one"},
		{"an index not before", `[` + findOrder + `,` + cancel("#1.output.id") + `]`,
			"expected_tools[1].rules.order_id.from", "names expected call #1, which is not before this one (#1)"},
		{"an index after the end", `[` + findOrder + `,` + cancel("#5.output.id") + `]`,
			"expected_tools[1].rules.order_id.from", "#5.output.id names expected call #5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := gradeTurns(t, match.Options{}, tt.expected, `[`+found(`{"id":"W1"}`)+`,`+cancelled(`"W1"`)+`]`, 0)
			var fe *toolgrade.FieldError
			if !errors.As(r.Err, &fe) {
				t.Fatalf("err = %v, want a *FieldError", r.Err)
			}
			if fe.Path != tt.field || !strings.Contains(r.Error, tt.msg) {
				t.Errorf("error %q (field %q), want field %q and %q", r.Error, fe.Path, tt.field, tt.msg)
			}
			if r.Success || r.Verdict() {
				t.Errorf("an error result passes")
			}
		})
	}
	// The case's place is named when it is known.
	m, _ := match.New(match.Options{})
	c := &toolgrade.Case{Source: "cases.jsonl", Line: 3, Expected: calls(t, `[`+cancel("find_order.output.id")+`]`)}
	if r := m.Grade(context.Background(), c); !strings.HasPrefix(r.Error, "cases.jsonl:3: field expected_tools[0]") {
		t.Errorf("error %q does not name the case's line", r.Error)
	}
}

// A from-rule needs the calls around it: PairScore, which sees one pair,
// fails it.
func TestPairScoreFailsFromRules(t *testing.T) {
	m, _ := match.New(match.Options{})
	e := calls(t, `[`+cancel("find_order.output.id")+`]`)[0]
	c := calls(t, `[`+cancelled(`"W1"`)+`]`)[0]
	if s := m.PairScore(&e, &c); s != 0 {
		t.Errorf("PairScore = %v, want 0", s)
	}
	if s := (match.Comparer{}).Score(e.Args, c.Args, e.Rules); s != 0 {
		t.Errorf("Comparer without From scores %v, want 0", s)
	}
	d := (match.Comparer{}).Diff(e.Args, c.Args, e.Rules)
	if len(d) != 1 || !strings.Contains(d[0].Note, "no earlier call output") {
		t.Errorf("diffs %+v", d)
	}
}

func ExampleToolCorrectness_Grade_from() {
	metric, _ := match.New(match.Options{})
	from, _ := toolgrade.ParseRef("find_order.output.orders[0].id")
	c := &toolgrade.Case{
		Expected: []toolgrade.Call{
			{Name: "find_order", Args: jsonvalue.MustFrom(map[string]any{"email": "ana@example.com"})},
			{Name: "cancel_order", Rules: map[string]toolgrade.Rule{"order_id": {From: from}}},
		},
		Called: []toolgrade.Call{
			{Name: "find_order", Args: jsonvalue.MustFrom(map[string]any{"email": "ana@example.com"}),
				Output: `{"orders": [{"id": "W123", "status": "paid"}]}`},
			{Name: "cancel_order", Args: jsonvalue.MustFrom(map[string]any{"order_id": "W999"})},
		},
	}
	r := metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f\n", r.Score)
	fmt.Println(r.Reason)
	flows := toolgrade.DetailOf[match.Flows](&r)
	for _, f := range flows {
		fmt.Printf("called #%d %s from called #%d: ok %v\n", f.To, f.Arg, f.From, f.OK)
	}

	c.Called[1].Args = jsonvalue.MustFrom(map[string]any{"order_id": "W123"})
	r = metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f\n", r.Score)
	// Output:
	// score 0.50
	// missing cancel_order({"order_id":<from find_order.output.orders[0].id>}) (expected #1): called #1 differs: order_id not the value of find_order.output.orders[0].id (expected "W123", got "W999")
	// called #1 order_id from called #0: ok false
	// score 1.00
}

// --- properties ---

// genTrajectory draws a small case: expected and called calls over a few
// tools and argument values, called calls with a random status and
// outputs, and, when turns, random turn numbers 1..3 (nondecreasing along
// the called calls, as in a conversation). With from, expected calls may
// take an argument from an earlier expected call's output.
func genTrajectory(turns, from bool) *rapid.Generator[*toolgrade.Case] {
	return rapid.Custom(func(t *rapid.T) *toolgrade.Case {
		c := &toolgrade.Case{}
		draw := func(label string) toolgrade.Call {
			call := toolgrade.Call{Name: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, label+" name")}
			args := jsonvalue.Object{}
			if rapid.Bool().Draw(t, label+" has x") {
				args = append(args, jsonvalue.Member{Key: "x", Value: jsonvalue.MustFrom(rapid.IntRange(0, 2).Draw(t, label+" x"))})
			}
			call.Args = args
			return call
		}
		n := rapid.IntRange(0, 5).Draw(t, "expected")
		for i := range n {
			e := draw("expected")
			if from && i > 0 && rapid.Bool().Draw(t, "from") {
				ref := fmt.Sprintf("#%d.output.v", rapid.IntRange(0, i-1).Draw(t, "source"))
				if rapid.Bool().Draw(t, "by name") {
					ref = rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "source name") + ".output.v"
					if !slices.ContainsFunc(c.Expected, func(p toolgrade.Call) bool { return p.Name+".output.v" == ref }) {
						ref = c.Expected[i-1].Name + ".output.v"
					}
				}
				r, err := toolgrade.ParseRef(ref)
				if err != nil {
					t.Fatal(err)
				}
				e.Rules = map[string]toolgrade.Rule{"y": {From: r}}
			}
			if turns {
				e.Turn = rapid.IntRange(1, 3).Draw(t, "expected turn")
			}
			e.Status = rapid.SampledFrom([]toolgrade.Status{toolgrade.StatusUnknown, toolgrade.StatusUnknown, toolgrade.StatusOK, toolgrade.StatusError}).Draw(t, "expected status")
			c.Expected = append(c.Expected, e)
		}
		k := rapid.IntRange(0, 7).Draw(t, "called")
		turn := 1
		for range k {
			call := draw("called")
			if from && rapid.Bool().Draw(t, "has y") {
				call.Args = append(call.Args.(jsonvalue.Object), jsonvalue.Member{Key: "y", Value: jsonvalue.MustFrom(rapid.IntRange(0, 2).Draw(t, "y"))})
			}
			if from && rapid.Bool().Draw(t, "has output") {
				call.Output = jsonvalue.MustFrom(map[string]any{"v": rapid.IntRange(0, 2).Draw(t, "v")})
			}
			call.Status = rapid.SampledFrom([]toolgrade.Status{toolgrade.StatusUnknown, toolgrade.StatusOK, toolgrade.StatusError}).Draw(t, "status")
			if turns {
				turn = rapid.IntRange(turn, 3).Draw(t, "called turn")
				call.Turn = turn
			}
			c.Called = append(c.Called, call)
		}
		if turns {
			c.Turns = make([]toolgrade.Turn, rapid.IntRange(0, 3).Draw(t, "turns"))
		}
		return c
	})
}

var failedModes = []match.FailedCalls{match.FailedRetry, match.FailedCount, match.FailedIgnore, match.FailedPenalize}

func withFailed(o match.Options, f match.FailedCalls) match.Options {
	o.FailedCalls = f
	return o
}

func same(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// A case of one turn, every call in it, scores as the same calls without
// turns.
func TestOneTurnGradesAsNoTurns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		flat := genTrajectory(false, rapid.Bool().Draw(t, "from")).Draw(t, "case")
		one := &toolgrade.Case{Turns: []toolgrade.Turn{{}},
			Expected: slices.Clone(flat.Expected), Called: slices.Clone(flat.Called)}
		for i := range one.Expected {
			one.Expected[i].Turn = 1
		}
		for i := range one.Called {
			one.Called[i].Turn = 1
		}
		for _, base := range allOptions {
			for _, f := range failedModes {
				o := withFailed(base, f)
				m, err := match.New(o)
				if err != nil {
					t.Fatal(err)
				}
				a, b := m.Grade(context.Background(), flat), m.Grade(context.Background(), one)
				if a.Error != "" || b.Error != "" {
					t.Fatalf("errors %q, %q", a.Error, b.Error)
				}
				if !same(a.Score, b.Score) || !same(*a.Precision, *b.Precision) || !same(*a.Recall, *b.Recall) ||
					!same(*a.F1, *b.F1) || a.Success != b.Success {
					t.Fatalf("options %+v: without turns %v/%v/%v/%v, with one turn %v/%v/%v/%v\n%s\n%s", o,
						a.Score, *a.Precision, *a.Recall, a.Success, b.Score, *b.Precision, *b.Recall, b.Success, a.Reason, b.Reason)
				}
				for _, l := range [][2][]int{{a.Missing, b.Missing}, {a.Unexpected, b.Unexpected}, {toolgrade.DetailOf[match.Failed](&a), toolgrade.DetailOf[match.Failed](&b)}, {toolgrade.DetailOf[match.Retried](&a), toolgrade.DetailOf[match.Retried](&b)}} {
					if !slices.Equal(l[0], l[1]) {
						t.Fatalf("options %+v: lists differ: %v vs %v\n%s\n%s", o, l[0], l[1], a.Reason, b.Reason)
					}
				}
				if len(one.Expected) > 0 && (len(toolgrade.DetailOf[match.Turns](&b)) != 1 || !same(toolgrade.DetailOf[match.Turns](&b)[0].Score, b.Score) && !o.Strict) {
					t.Fatalf("options %+v: turns %v, score %v", o, toolgrade.DetailOf[match.Turns](&b), b.Score)
				}
			}
		}
	})
}

// Under order any, the order of the calls within a turn changes nothing
// (failed calls counted in ways that do not depend on what comes later).
func TestPermutingWithinTurns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genTrajectory(true, false).Draw(t, "case")
		f := rapid.SampledFrom(failedModes).Draw(t, "failed_calls")
		if f == match.FailedRetry { // retries depend on what comes later
			for i := range c.Called {
				c.Called[i].Status = toolgrade.StatusOK
			}
		}
		p := &toolgrade.Case{Turns: c.Turns, Expected: c.Expected}
		for turn := 1; turn <= 3; turn++ {
			var group []toolgrade.Call
			for _, call := range c.Called {
				if call.Turn == turn {
					group = append(group, call)
				}
			}
			p.Called = append(p.Called, permute(t, fmt.Sprint("turn ", turn), group)...)
		}
		for _, o := range []match.Options{{}, {Args: match.ArgsPartial}, {Args: match.ArgsContains}, {Scoring: match.ScoringRecall},
			{TurnAggregate: match.TurnMin}, {TurnAggregate: match.TurnAll, Threshold: toolgrade.Float(0.5)}} {
			o.FailedCalls = f
			m, err := match.New(o)
			if err != nil {
				t.Fatal(err)
			}
			a, b := m.Grade(context.Background(), c), m.Grade(context.Background(), p)
			if !same(a.Score, b.Score) || a.Success != b.Success {
				t.Fatalf("options %+v: score %v (%v) became %v (%v)\n%s\n%s", o, a.Score, a.Success, b.Score, b.Success, a.Reason, b.Reason)
			}
		}
	})
}

// Under failed_calls: retry, a failed call that a later call of the same
// tool retried counts for nothing, unless an expected failure takes it:
// taking it out changes nothing.
func TestRemovingRetriedCalls(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genTrajectory(rapid.Bool().Draw(t, "turns"), rapid.Bool().Draw(t, "from")).Draw(t, "case")
		var retried []int
		for j, call := range c.Called {
			if call.Failed() && slices.ContainsFunc(c.Called[j+1:], func(l toolgrade.Call) bool { return !l.Failed() && l.Name == call.Name }) {
				retried = append(retried, j)
			}
		}
		if len(retried) == 0 {
			t.Skip("no retried call")
		}
		j := rapid.SampledFrom(retried).Draw(t, "removed")
		d := &toolgrade.Case{Turns: c.Turns, Expected: c.Expected, Called: slices.Delete(slices.Clone(c.Called), j, j+1)}
		for _, o := range allOptions {
			m, err := match.New(o)
			if err != nil {
				t.Fatal(err)
			}
			a, b := m.Grade(context.Background(), c), m.Grade(context.Background(), d)
			if !slices.Contains(toolgrade.DetailOf[match.Retried](&a), j) {
				if slices.ContainsFunc(a.Matches, func(p toolgrade.Match) bool { return p.Called == j && c.Expected[p.Expected].Failed() }) {
					continue // expected
				}
				t.Fatalf("retried %v lacks %d", toolgrade.DetailOf[match.Retried](&a), j)
			}
			if a.Error != b.Error || !same(a.Score, b.Score) || a.Success != b.Success {
				t.Fatalf("options %+v: removing retried call #%d changed %v (%v) to %v (%v)\n%s\n%s", o, j, a.Score, a.Success, b.Score, b.Success, a.Reason, b.Reason)
			}
		}
	})
}

// Every score is in [0, 1], and every call is accounted for once.
func TestTrajectoryScoresInRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genTrajectory(rapid.Bool().Draw(t, "turns"), rapid.Bool().Draw(t, "from")).Draw(t, "case")
		for _, base := range allOptions {
			for _, f := range failedModes {
				for _, agg := range []match.TurnAggregate{match.TurnMean, match.TurnMin, match.TurnAll} {
					o := base
					o.FailedCalls, o.TurnAggregate = f, agg
					m, err := match.New(o)
					if err != nil {
						t.Fatal(err)
					}
					r := m.Grade(context.Background(), c)
					if r.Error != "" {
						t.Fatalf("error: %s", r.Error)
					}
					in := func(s float64) bool { return s >= 0 && s <= 1 && !math.IsNaN(s) }
					for _, s := range []float64{r.Score, *r.Precision, *r.Recall, *r.F1} {
						if !in(s) {
							t.Fatalf("options %+v: score %v out of [0, 1]", o, s)
						}
					}
					for _, ts := range toolgrade.DetailOf[match.Turns](&r) {
						if !in(ts.Score) {
							t.Fatalf("options %+v: turn %d score %v out of [0, 1]", o, ts.Turn, ts.Score)
						}
					}
					if r.Success != (r.Score >= *r.Threshold) {
						t.Fatalf("options %+v: success %v with score %v", o, r.Success, r.Score)
					}
					out := 0
					paired := map[int]bool{}
					for _, p := range r.Matches {
						paired[p.Called] = true
						if e, got := &c.Expected[p.Expected], &c.Called[p.Called]; e.Failed() && !got.Failed() || !e.Failed() && got.Failed() && f != match.FailedCount {
							t.Fatalf("options %+v: expected #%d (status %s) paired with called #%d (status %s)", o, p.Expected, e.Status, p.Called, got.Status)
						}
					}
					switch f {
					case match.FailedRetry:
						out = len(toolgrade.DetailOf[match.Retried](&r))
					case match.FailedIgnore:
						for _, j := range toolgrade.DetailOf[match.Failed](&r) {
							if !paired[j] {
								out++
							}
						}
					}
					if len(r.Matches)+len(r.Missing) != len(c.Expected) || len(r.Matches)+len(r.Unexpected)+out != len(c.Called) {
						t.Fatalf("options %+v: calls not accounted for: %d expected, %d called, %+v", o, len(c.Expected), len(c.Called), r)
					}
					checkFlows(t, o, c, &r)
				}
			}
		}
	})
}

// checkFlows checks that each flow links a pair (or near miss) with the
// called call paired with its rule's source: the pairing the flows report
// is the one that was scored.
func checkFlows(t *rapid.T, o match.Options, c *toolgrade.Case, r *toolgrade.MetricResult) {
	partner := make([]int, len(c.Expected))
	for i := range partner {
		partner[i] = -1
	}
	expectedOf := map[int]int{}
	for _, p := range r.Matches {
		partner[p.Expected] = p.Called
		expectedOf[p.Called] = p.Expected
	}
	for _, p := range toolgrade.DetailOf[match.NearMisses](r) {
		expectedOf[p.Called] = p.Expected
	}
	for _, fl := range toolgrade.DetailOf[match.Flows](r) {
		i, ok := expectedOf[fl.To]
		if !ok {
			t.Fatalf("options %+v: flow %+v to a call neither paired nor a near miss", o, fl)
		}
		ref := c.Expected[i].Rules[fl.Arg].From
		if ref == nil || ref.Text != fl.Ref {
			t.Fatalf("options %+v: flow %+v names no rule of expected #%d", o, fl, i)
		}
		s := ref.Index
		if s < 0 {
			for k := i - 1; k >= 0; k-- {
				if c.Expected[k].Name == ref.Call {
					s = k
					break
				}
			}
		}
		if fl.From != partner[s] {
			t.Fatalf("options %+v: flow %+v comes from called #%d, but expected #%d is paired with %d\n%s", o, fl, fl.From, s, partner[s], r.Reason)
		}
	}
}

// TestFromRuleSourceAmongEqualCalls: of two identical lookups answered
// differently, the one whose answer the later call carries is the source,
// whichever comes first; a later call that could not satisfy the
// dependent expected call (a failed call retried, a call of another
// turn) is no evidence.
func TestFromRuleSourceAmongEqualCalls(t *testing.T) {
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const (
		find   = `{"name":"find","args":{"q":"x"}}`
		cancel = `{"name":"cancel","args":{},"rules":{"id":{"from":"find.output.id"}}}`
		found1 = `{"name":"find","args":{"q":"x"},"output":{"id":"W1"}}`
		found2 = `{"name":"find","args":{"q":"x"},"output":{"id":"W2"}}`
	)
	for _, tt := range []struct {
		name, expected, called string
		score                  float64
		source                 int
	}{
		{"second lookup used", `[` + find + `,` + cancel + `]`, `[` + found1 + `,` + found2 + `,{"name":"cancel","args":{"id":"W2"}}]`, 0.8, 1},
		{"first lookup used", `[` + find + `,` + cancel + `]`, `[` + found1 + `,` + found2 + `,{"name":"cancel","args":{"id":"W1"}}]`, 0.8, 0},
		// Found by the property tests: the source changed with a call
		// that counts for nothing.
		{"not a failed call retried", `[` + find + `,` + cancel + `]`,
			`[` + found1 + `,` + found2 + `,{"name":"cancel","args":{"id":"W1"},"status":"error"},{"name":"cancel","args":{"id":"W2"}}]`, 0.8, 1},
		{"not a call of another turn",
			`[{"name":"find","args":{"q":"x"},"turn":1},{"name":"cancel","args":{},"rules":{"id":{"from":"find.output.id"}},"turn":2}]`,
			`[{"name":"find","args":{"q":"x"},"output":{"id":"W1"},"turn":1},{"name":"find","args":{"q":"x"},"output":{"id":"W2"},"turn":1},` +
				`{"name":"cancel","args":{"id":"W1"},"turn":1},{"name":"cancel","args":{"id":"W2"},"turn":2}]`, 0.75, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Grade(context.Background(), &toolgrade.Case{Expected: calls(t, tt.expected), Called: calls(t, tt.called)})
			if math.Abs(r.Score-tt.score) > 1e-12 || len(toolgrade.DetailOf[match.Flows](&r)) != 1 || !toolgrade.DetailOf[match.Flows](&r)[0].OK || toolgrade.DetailOf[match.Flows](&r)[0].From != tt.source {
				t.Errorf("score %v, flows %+v; want %v and an ok flow from #%d (%s)", r.Score, toolgrade.DetailOf[match.Flows](&r), tt.score, tt.source, r.Reason)
			}
		})
	}
}

// A result's lists share one allocation: filling each to its capacity
// changes no other (pairs, their differences, the missing and unexpected
// calls, the details, the figures), on plain cases and cases graded
// along their trajectory, in every mode.
func TestResultListsDoNotOverlap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		turns, from := rapid.Bool().Draw(t, "turns"), rapid.Bool().Draw(t, "from")
		c := genTrajectory(turns, from).Draw(t, "case")
		if rapid.Bool().Draw(t, "plain") {
			c = &toolgrade.Case{Expected: genCalls("expected").Draw(t, "expected"), Called: genCalls("called").Draw(t, "called")}
		}
		o := withFailed(rapid.SampledFrom(allOptions).Draw(t, "options"), rapid.SampledFrom(failedModes).Draw(t, "failed"))
		m, err := match.New(o)
		if err != nil {
			t.Fatal(err)
		}
		r := m.Grade(context.Background(), c)
		if r.Error != "" {
			return
		}
		want := fmt.Sprintf("%+v %v %v %v %v", r, *r.Threshold, *r.Precision, *r.Recall, *r.F1)
		fill := func(s []int) {
			for i := len(s); i < cap(s); i++ {
				s[:cap(s)][i] = -7
			}
		}
		fill(r.Missing)
		fill(r.Unexpected)
		for i := len(r.Matches); i < cap(r.Matches); i++ {
			r.Matches[:cap(r.Matches)][i] = toolgrade.Match{Expected: -7, Called: -7, Score: -7, Diffs: []toolgrade.ArgDiff{{Path: "junk"}}}
		}
		for _, p := range r.Matches {
			for i := len(p.Diffs); i < cap(p.Diffs); i++ {
				p.Diffs[:cap(p.Diffs)][i] = toolgrade.ArgDiff{Path: "junk", Note: "junk"}
			}
		}
		for _, p := range toolgrade.DetailOf[match.NearMisses](&r) {
			for i := len(p.Diffs); i < cap(p.Diffs); i++ {
				p.Diffs[:cap(p.Diffs)][i] = toolgrade.ArgDiff{Path: "junk", Note: "junk"}
			}
		}
		for i := len(r.Details); i < cap(r.Details); i++ {
			r.Details[:cap(r.Details)][i] = match.Failed{-7}
		}
		if got := fmt.Sprintf("%+v %v %v %v %v", r, *r.Threshold, *r.Precision, *r.Recall, *r.F1); got != want {
			t.Fatalf("options %+v: filling a list's room changed the result:\n%s\nwas\n%s", o, got, want)
		}
	})
}
