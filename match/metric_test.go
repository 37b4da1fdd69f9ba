package match_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"pgregory.net/rapid"
)

func calls(t tb, s string) []toolgrade.Call {
	t.Helper()
	c, err := compat.DecodeCalls(v(t, s))
	if err != nil {
		t.Fatalf("calls %s: %v", s, err)
	}
	return c
}

func grade(t tb, opts match.Options, expected, called string) toolgrade.MetricResult {
	t.Helper()
	m, err := match.New(opts)
	if err != nil {
		t.Fatalf("New(%+v): %v", opts, err)
	}
	return m.Grade(context.Background(), &toolgrade.Case{Expected: calls(t, expected), Called: calls(t, called)})
}

// TestToolCorrectness grades with the default threshold (1): any score
// below 1 fails.
func TestToolCorrectness(t *testing.T) {
	const (
		weather  = `{"name":"get_weather","args":{"city":"Paris"}}`
		weather2 = `{"name":"get_weather","args":{"city":"Rome"}}`
		email    = `{"name":"send_email","args":{"to":"a@b.c"}}`
		cal      = `{"name":"create_event","args":{"title":"standup"}}`
	)
	tests := []struct {
		name            string
		opts            match.Options
		expected        string
		called          string
		score           float64
		precision       float64
		recall          float64
		success         bool
		missing, unexp  string // fmt of the index lists
		reasonSubstring string
	}{
		{"both empty", match.Options{}, `[]`, `[]`, 1, 1, 1, true, "[]", "[]", "no calls expected and none made"},
		{"nothing called", match.Options{}, `[` + weather + `]`, `[]`, 0, 0, 0, false, "[0]", "[]", "missing get_weather"},
		{"nothing expected", match.Options{}, `[]`, `[` + weather + `]`, 0, 0, 0, false, "[]", "[0]", "unexpected get_weather"},
		{"exact match", match.Options{}, `[` + weather + `]`, `[` + weather + `]`, 1, 1, 1, true, "[]", "[]", "all 1 expected calls matched"},
		{"one of two missing", match.Options{}, `[` + weather + `,` + email + `]`, `[` + weather + `]`, 2.0 / 3, 1, 0.5, false, "[1]", "[]", "missing send_email"},
		{"an extra call", match.Options{}, `[` + weather + `]`, `[` + weather + `,` + email + `]`, 2.0 / 3, 0.5, 1, false, "[]", "[1]", "unexpected send_email"},
		{"wrong args name the argument", match.Options{}, `[` + weather + `]`, `[` + weather2 + `]`, 0, 0, 0, false, "[0]", "[0]", `city expected "Paris", got "Rome"`},
		{"partial args", match.Options{Args: match.ArgsPartial}, `[{"name":"f","args":{"a":1,"b":2}}]`, `[{"name":"f","args":{"a":1,"b":3}}]`, 0.5, 0.5, 0.5, false, "[]", "[]", `b expected 2, got 3`},
		{"any order ignores order", match.Options{}, `[` + weather + `,` + email + `]`, `[` + email + `,` + weather + `]`, 1, 1, 1, true, "[]", "[]", ""},
		{"in-order penalizes order", match.Options{Order: "in-order"}, `[` + weather + `,` + email + `]`, `[` + email + `,` + weather + `]`, 0.5, 0.5, 0.5, false, "[1]", "[0]", "out of order"},
		{"in-order allows calls between", match.Options{Order: "in-order"}, `[` + weather + `,` + email + `]`, `[` + weather + `,` + cal + `,` + email + `]`, 0.8, 2.0 / 3, 1, false, "[]", "[1]", "unexpected create_event"},
		{"exact order all right", match.Options{Order: "exact"}, `[` + weather + `,` + email + `]`, `[` + weather + `,` + email + `]`, 1, 1, 1, true, "[]", "[]", ""},
		{"exact order swapped", match.Options{Order: "exact"}, `[` + weather + `,` + email + `]`, `[` + email + `,` + weather + `]`, 0, 0, 0, false, "[0 1]", "[0 1]", "out of order"},
		{"exact order extra", match.Options{Order: "exact"}, `[` + weather + `]`, `[` + weather + `,` + email + `]`, 0, 0.5, 1, false, "[]", "[1]", "exact order needs 1 calls, got 2"},
		{"recall scoring", match.Options{Scoring: "recall"}, `[` + weather + `]`, `[` + weather + `,` + email + `]`, 1, 0.5, 1, true, "[]", "[1]", ""},
		{"precision scoring", match.Options{Scoring: "precision"}, `[` + weather + `]`, `[` + weather + `,` + email + `]`, 0.5, 0.5, 1, false, "[]", "[1]", ""},
		{"strict", match.Options{Strict: true}, `[` + weather + `]`, `[` + weather + `,` + email + `]`, 0, 0.5, 1, false, "[]", "[1]", "strict: score 0.6667 counts as 0"},
		{"threshold", match.Options{Threshold: toolgrade.Float(0.7)}, `[` + weather + `]`, `[` + weather + `,` + email + `]`, 2.0 / 3, 0.5, 1, false, "[]", "[1]", ""},
		{"output ignored by default", match.Options{}, `[{"name":"f","output":1}]`, `[{"name":"f","output":2}]`, 1, 1, 1, true, "[]", "[]", ""},
		{"output exact", match.Options{Output: "exact"}, `[{"name":"f","output":1}]`, `[{"name":"f","output":2}]`, 0, 0, 0, false, "[0]", "[0]", "output expected 1, got 2"},
		{"output exact without expected output", match.Options{Output: "exact"}, `[{"name":"f"}]`, `[{"name":"f","output":2}]`, 1, 1, 1, true, "[]", "[]", ""},
		{"invalid args match nothing", match.Options{Args: match.ArgsIgnore}, `[{"name":"f"}]`, `[{"name":"f","arguments":"{oops"}]`, 0, 0, 0, false, "[0]", "[0]", "not valid JSON"},
		{"names are case-sensitive", match.Options{}, `[{"name":"Search"}]`, `[{"name":"search"}]`, 0, 0, 0, false, "[0]", "[0]", ""},
		{"random suffix kept by default", match.Options{}, `[{"name":"delegate_to_sql_agent"}]`, `[{"name":"delegate_to_sql_agent_xg7c"}]`, 0, 0, 0, false, "[0]", "[0]", ""},
		{"random suffix normalized", match.Options{NormalizeNames: true}, `[{"name":"delegate_to_sql_agent"}]`, `[{"name":"delegate_to_sql_agent_xg7c"}]`, 1, 1, 1, true, "[]", "[]", ""},
		{"call types must agree", match.Options{}, `[{"name":"f","type":"mcp"}]`, `[{"name":"f"}]`, 0, 0, 0, false, "[0]", "[0]", ""},
		{"function type is the default", match.Options{}, `[{"name":"f","type":"function"}]`, `[{"name":"f"}]`, 1, 1, 1, true, "[]", "[]", ""},
		{"no expected type accepts any", match.Options{}, `[{"name":"web_search"}]`, `[{"name":"web_search","type":"web_search"}]`, 1, 1, 1, true, "[]", "[]", ""},
		{"a named type must agree", match.Options{}, `[{"name":"f","type":"function"}]`, `[{"name":"f","type":"mcp"}]`, 0, 0, 0, false, "[0]", "[0]", ""},
		{"per-tool args override", match.Options{ArgsOverrides: map[string]match.Mode{"search": match.ArgsContains}}, `[{"name":"search","args":{"q":"x"}},{"name":"f","args":{"a":1}}]`, `[{"name":"search","args":{"q":"x","limit":5}},{"name":"f","args":{"a":1,"b":2}}]`, 0.5, 0.5, 0.5, false, "[1]", "[1]", "b not expected"},
		// The greedy trap: the first expected call takes the only called call
		// the second one could use. Optimal pairing finds both.
		{"optimal beats the greedy trap", match.Options{Args: match.ArgsContains}, `[{"name":"f","args":{}},{"name":"f","args":{"a":1}}]`, `[{"name":"f","args":{"a":1}},{"name":"f","args":{"b":2}}]`, 1, 1, 1, true, "[]", "[]", ""},
		{"greedy falls in the trap", match.Options{Args: match.ArgsContains, Pairing: "greedy"}, `[{"name":"f","args":{}},{"name":"f","args":{"a":1}}]`, `[{"name":"f","args":{"a":1}},{"name":"f","args":{"b":2}}]`, 0.5, 0.5, 0.5, false, "[1]", "[1]", ""},
		{"duplicates count once each", match.Options{}, `[` + weather + `,` + weather + `]`, `[` + weather + `,` + weather + `]`, 1, 1, 1, true, "[]", "[]", ""},
		{"a duplicate call is extra", match.Options{}, `[` + weather + `]`, `[` + weather + `,` + weather + `]`, 2.0 / 3, 0.5, 1, false, "[]", "[1]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, tt.opts, tt.expected, tt.called)
			if r.Error != "" {
				t.Fatalf("error: %s", r.Error)
			}
			if math.Abs(r.Score-tt.score) > 1e-12 || math.Abs(*r.Precision-tt.precision) > 1e-12 || math.Abs(*r.Recall-tt.recall) > 1e-12 {
				t.Errorf("score/precision/recall = %v/%v/%v, want %v/%v/%v", r.Score, *r.Precision, *r.Recall, tt.score, tt.precision, tt.recall)
			}
			if r.Success != tt.success {
				t.Errorf("success = %v, want %v", r.Success, tt.success)
			}
			if got := fmt.Sprint(r.Missing); got != tt.missing {
				t.Errorf("missing = %s, want %s", got, tt.missing)
			}
			if got := fmt.Sprint(r.Unexpected); got != tt.unexp {
				t.Errorf("unexpected = %s, want %s", got, tt.unexp)
			}
			if !strings.Contains(r.Reason, tt.reasonSubstring) {
				t.Errorf("reason %q does not contain %q", r.Reason, tt.reasonSubstring)
			}
		})
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, o := range []match.Options{
		{Order: "sideways"}, {Args: "loose"}, {Output: "fuzzy"}, {Pairing: "random"}, {Scoring: "accuracy"},
		{Order: "in-order", Pairing: "greedy"}, {FuzzyThreshold: toolgrade.Float(1.5)}, {ArgsOverrides: map[string]match.Mode{"f": "nope"}},
		{FailedCalls: "forgive"}, {TurnAggregate: "max"}, {Threshold: toolgrade.Float(80)}, {Threshold: toolgrade.Float(-0.1)},
		{FuzzyThreshold: toolgrade.Float(math.NaN())},
	} {
		if _, err := match.New(o); err == nil {
			t.Errorf("New(%+v) accepted bad options", o)
		}
	}
}

// A fuzzy threshold is an optional number whose 0 is a setting: nil is
// the default, 0.8, and 0 accepts any similarity.
func TestFuzzyThreshold(t *testing.T) {
	const expected, called = `[{"name": "f", "args": {"city": "Paris"}}]`, `[{"name": "f", "args": {"city": "Tokyo"}}]`
	for _, tt := range []struct {
		threshold *float64
		want      float64
	}{
		{nil, 0},
		{toolgrade.Float(0.8), 0},
		{toolgrade.Float(0), 1},
	} {
		o := match.Options{Args: match.ArgsFuzzy, FuzzyThreshold: tt.threshold}
		if got := grade(t, o, expected, called).Score; got != tt.want {
			t.Errorf("fuzzy threshold %v: score %v, want %v", tt.threshold, got, tt.want)
		}
	}
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Options().FuzzyThreshold; got == nil || *got != match.DefaultFuzzyThreshold {
		t.Errorf("Options().FuzzyThreshold = %v, want the default filled in", got)
	}
}

// genCalls draws a list of calls over a few names and argument values, so
// that duplicates and near misses are common. Up to 12 calls, so that score
// matrices both fit Grade's stack buffer (8 rows, 64 cells) and do not.
func genCalls(label string) *rapid.Generator[[]toolgrade.Call] {
	return rapid.Custom(func(t *rapid.T) []toolgrade.Call {
		n := rapid.IntRange(0, 12).Draw(t, label+" len")
		out := make([]toolgrade.Call, n)
		for i := range out {
			name := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "name")
			args := jsonvalue.Object{}
			for _, k := range []string{"x", "y"} {
				if rapid.Bool().Draw(t, "has "+k) {
					args = append(args, jsonvalue.Member{Key: k, Value: jsonvalue.MustFrom(rapid.IntRange(0, 2).Draw(t, k))})
				}
			}
			out[i] = toolgrade.Call{Name: name, Args: args}
		}
		return out
	})
}

var allOptions = []match.Options{
	{}, {Args: match.ArgsPartial}, {Args: match.ArgsContains}, {Args: match.ArgsWithin}, {Args: match.ArgsFuzzy}, {Args: match.ArgsIgnore},
	{Order: "in-order"}, {Order: "in-order", Args: match.ArgsPartial}, {Order: "exact"}, {Pairing: "greedy"},
	{Scoring: "recall"}, {Scoring: "precision"}, {Strict: true}, {Output: "exact"},
}

func permute(t *rapid.T, label string, cs []toolgrade.Call) []toolgrade.Call {
	perm := rapid.Permutation(func() []int {
		idx := make([]int, len(cs))
		for i := range idx {
			idx[i] = i
		}
		return idx
	}()).Draw(t, label)
	out := make([]toolgrade.Call, len(cs))
	for i, p := range perm {
		out[i] = cs[p]
	}
	return out
}

// TestToolCorrectnessProperties checks, on random lists, that every score
// is in [0, 1]; that with order "any" and optimal pairing the results do not
// depend on the order of either list; and that a list graded against itself
// scores 1 in every mode.
func TestToolCorrectnessProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		exp, got := genCalls("expected").Draw(t, "expected"), genCalls("called").Draw(t, "called")
		for _, o := range allOptions {
			m, err := match.New(o)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
			for _, s := range []float64{r.Score, *r.Precision, *r.Recall, *r.F1} {
				if s < 0 || s > 1 || math.IsNaN(s) {
					t.Fatalf("options %+v: score %v out of [0, 1]", o, s)
				}
			}
			if len(r.Matches)+len(r.Missing) != len(exp) || len(r.Matches)+len(r.Unexpected) != len(got) {
				t.Fatalf("options %+v: matches, missing and unexpected do not account for every call: %+v", o, r)
			}
			self := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: exp})
			if self.Score != 1 {
				t.Fatalf("options %+v: a list against itself scores %v: %s", o, self.Score, self.Reason)
			}
		}
		optimal, _ := match.New(match.Options{Args: match.ArgsPartial})
		base := optimal.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		perm := optimal.Grade(context.Background(), &toolgrade.Case{Expected: permute(t, "pe", exp), Called: permute(t, "pc", got)})
		if math.Abs(base.Score-perm.Score) > 1e-12 || math.Abs(*base.Precision-*perm.Precision) > 1e-12 || math.Abs(*base.Recall-*perm.Recall) > 1e-12 {
			t.Fatalf("order changed the result: %v/%v/%v vs %v/%v/%v", base.Score, *base.Precision, *base.Recall, perm.Score, *perm.Precision, *perm.Recall)
		}
		if len(base.Missing) != len(perm.Missing) || len(base.Unexpected) != len(perm.Unexpected) {
			t.Fatalf("order changed how many calls are missing or unexpected")
		}
	})
}

func TestPairingStrategies(t *testing.T) {
	scores := [][]float64{
		{1, 1, 0},
		{1, 0, 0},
		{0, 0, 0.5},
	}
	tests := []struct {
		name string
		fn   func([][]float64) []toolgrade.Match
		want string
	}{
		{"optimal", match.Optimal, "[{0 1 1 []} {1 0 1 []} {2 2 0.5 []}]"},
		{"greedy", match.Greedy, "[{0 0 1 []} {2 2 0.5 []}]"},
		{"in-order", match.InOrder, "[{0 0 1 []} {2 2 0.5 []}]"},
		{"positional", match.Positional, "[{0 0 1 []} {2 2 0.5 []}]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(tt.fn(scores)); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestInOrderIsBestOrderedPairing compares the weighted LCS with a brute
// force over every order-preserving pairing on small matrices.
func TestInOrderIsBestOrderedPairing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, m := rapid.IntRange(0, 5).Draw(t, "n"), rapid.IntRange(0, 5).Draw(t, "m")
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = make([]float64, m)
			for j := range scores[i] {
				scores[i][j] = rapid.SampledFrom([]float64{0, 0, 0.5, 1}).Draw(t, "s")
			}
		}
		var best func(i, j int) float64
		best = func(i, j int) float64 {
			if i == n || j == m {
				return 0
			}
			b := max(best(i+1, j), best(i, j+1))
			if scores[i][j] > 0 {
				b = max(b, scores[i][j]+best(i+1, j+1))
			}
			return b
		}
		pairs := match.InOrder(scores)
		total, lastE, lastC := 0.0, -1, -1
		for _, p := range pairs {
			if p.Expected <= lastE || p.Called <= lastC {
				t.Fatalf("pairs cross: %v", pairs)
			}
			lastE, lastC = p.Expected, p.Called
			total += p.Score
		}
		if want := best(0, 0); math.Abs(total-want) > 1e-12 {
			t.Fatalf("InOrder total %v, best %v (%v)", total, want, scores)
		}
	})
}

func Example() {
	metric, _ := match.New(match.Options{Args: match.ArgsExact})
	c := &toolgrade.Case{
		ID: "weather-1",
		Expected: []toolgrade.Call{
			{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris"})},
			{Name: "send_email", Args: jsonvalue.MustFrom(map[string]any{"to": "ana@example.com"})},
		},
		Called: []toolgrade.Call{
			{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "paris"})},
		},
	}
	r := metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f, success %v\n", r.Score, r.Success)
	fmt.Println(r.Reason)
	// Output:
	// score 0.00, success false
	// missing get_weather({"city":"Paris"}) (expected #0): called #0 differs: city expected "Paris", got "paris"; missing send_email({"to":"ana@example.com"}) (expected #1)
}

func ExampleComparer() {
	expected := jsonvalue.MustFrom(map[string]any{"city": "Paris", "days": 3, "units": "metric"})
	called := jsonvalue.MustFrom(map[string]any{"city": "Paris", "days": 3.0})
	rules := map[string]toolgrade.Rule{"units": {Optional: true}}
	fmt.Println(match.Comparer{Mode: match.ArgsExact}.Score(expected, called, nil))
	fmt.Println(match.Comparer{Mode: match.ArgsExact}.Score(expected, called, rules))
	fmt.Println(match.Comparer{Mode: match.ArgsPartial}.Score(expected, called, nil))
	// Output:
	// 0
	// 1
	// 0.6666666666666666
}

func TestReasonExplainsEachMissWithItsOwnCall(t *testing.T) {
	r := grade(t, match.Options{},
		`[{"name":"f","args":{"a":1,"b":1}},{"name":"f","args":{"a":2,"b":2}},{"name":"g"}]`,
		`[{"name":"f","args":{"a":2,"b":9}},{"name":"f","args":{"a":1,"b":9}},{"name":"h"}]`)
	for _, want := range []string{
		"(expected #0): called #1 differs: b expected 1, got 9",
		"(expected #1): called #0 differs: b expected 2, got 9",
		"missing g() (expected #2)",
		"unexpected h() (called #2)",
	} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("reason %q lacks %q", r.Reason, want)
		}
	}
	if n := strings.Count(r.Reason, "unexpected "); n != 1 {
		t.Errorf("reason lists %d unexpected calls, want only the unexplained one: %s", n, r.Reason)
	}
}

// Under exact comparison a wrong argument makes the pair score 0, so it is
// no match; the differences still come back as ArgDiffs, not only prose.
func TestNearMissesCarryArgDiffs(t *testing.T) {
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &toolgrade.Case{
		Expected: []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Rome", "days": 2})}},
		Called:   []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Berlin", "days": 2})}},
	}
	r := m.Grade(context.Background(), c)
	want := match.NearMisses{{Expected: 0, Called: 0, Diffs: []toolgrade.ArgDiff{{Path: "city", Expected: "Rome", Got: "Berlin"}}}}
	if diff := cmp.Diff(want, toolgrade.DetailOf[match.NearMisses](&r)); diff != "" {
		t.Errorf("near misses (-want +got):\n%s\nreason: %s", diff, r.Reason)
	}
	if len(r.Matches) != 0 || len(r.Missing) != 1 {
		t.Errorf("matches %v, missing %v: want the call missing, not matched", r.Matches, r.Missing)
	}
}

// A reason says what the options left unchecked: outputs the expected
// calls give are not compared under the default output: ignore.
func TestReasonSaysOutputsNotCompared(t *testing.T) {
	for _, tt := range []struct {
		name   string
		opts   match.Options
		output any
		want   bool
	}{
		{"expected output, ignored", match.Options{}, "sunny", true},
		{"expected output, compared", match.Options{Output: match.OutputExact}, "sunny", false},
		{"no expected output", match.Options{}, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := match.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), &toolgrade.Case{
				Expected: []toolgrade.Call{{Name: "get_weather", Output: tt.output}},
				Called:   []toolgrade.Call{{Name: "get_weather", Output: "rain"}},
			})
			if got := strings.Contains(r.Reason, "outputs not compared (output: ignore)"); got != tt.want {
				t.Errorf("reason %q: says outputs not compared = %v, want %v", r.Reason, got, tt.want)
			}
		})
	}
}

// A case whose score matrix would pass MaxPairCells is paired without
// one: greedily, the reason says so, and the score is the greedy
// pairing's; exact order needs no fallback.
func TestPairingMatrixCap(t *testing.T) {
	n := 1100 // 1100 × 1000 calls: past 2²⁰ cells
	c := &toolgrade.Case{ID: "big"}
	for i := range n {
		c.Expected = append(c.Expected, toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "x", Value: json.Number(strconv.Itoa(i))}}})
		if i < 1000 {
			c.Called = append(c.Called, toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "x", Value: json.Number(strconv.Itoa(i))}}})
		}
	}
	for _, tt := range []struct {
		opts   match.Options
		greedy bool
	}{
		{match.Options{}, true},
		{match.Options{Order: match.OrderInOrder}, true},
		{match.Options{Pairing: match.PairingGreedy}, false},
		{match.Options{Order: match.OrderExact}, false},
	} {
		m, err := match.New(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		r := m.Grade(context.Background(), c)
		if got := strings.HasPrefix(r.Reason, "paired greedily: 1100 expected × 1000 called calls are more than the 1048576 pairs"); got != tt.greedy {
			t.Errorf("%+v: reason %.120q, want the greedy note: %v", tt.opts, r.Reason, tt.greedy)
		}
		if len(r.Matches) != 1000 || r.Recall == nil || *r.Recall != 1000.0/1100 {
			t.Errorf("%+v: %d matches, recall %v; want every call made matched", tt.opts, len(r.Matches), r.Recall)
		}
	}
}
