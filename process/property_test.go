package process_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/process"
)

// names are the tools of random trajectories; patterns name them in
// random rules.
var (
	names    = []string{"a", "b", "c", "ab", "ba"}
	patterns = []string{"a", "b", "c", "ab", "a*", "*a", "[ab]", "?", "*", "x"}
)

func toolsValue(t *rapid.T, label string) any {
	if rapid.Bool().Draw(t, label+" is a list") {
		list := rapid.SliceOfN(rapid.SampledFrom(patterns), 1, 3).Draw(t, label)
		out := make([]any, len(list))
		for i, p := range list {
			out[i] = p
		}
		return out
	}
	return rapid.SampledFrom(patterns).Draw(t, label)
}

// ruleValue draws one well-formed rule item, as a case file gives it.
func ruleValue(t *rapid.T) any {
	count := func() any { return json.Number(strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "n"))) }
	one := func(key string, v any) any { return jsonvalue.Object{{Key: key, Value: v}} }
	switch kind := rapid.SampledFrom([]string{"before", "once_before", "after", "never", "never_after", "at_most", "no_repeat", "max_calls"}).Draw(t, "kind"); kind {
	case "before", "once_before", "after":
		return one(kind, []any{toolsValue(t, "A"), toolsValue(t, "B")})
	case "never":
		return one(kind, toolsValue(t, "X"))
	case "never_after":
		return one(kind, jsonvalue.Object{{Key: rapid.SampledFrom(patterns).Draw(t, "X"), Value: toolsValue(t, "Y")}})
	case "at_most":
		return one(kind, jsonvalue.Object{{Key: rapid.SampledFrom(patterns).Draw(t, "X"), Value: count()}})
	case "no_repeat":
		if rapid.Bool().Draw(t, "bare") {
			return kind
		}
		return one(kind, true)
	default:
		return one(kind, count())
	}
}

func randomCalls(t *rapid.T) []toolgrade.Call {
	args := []any{nil, jsonvalue.Object{{Key: "x", Value: json.Number("1")}}, jsonvalue.Object{{Key: "x", Value: json.Number("1.0")}}, jsonvalue.Object{{Key: "x", Value: json.Number("2")}}}
	var calls []toolgrade.Call
	for range rapid.IntRange(0, 8).Draw(t, "calls") {
		c := toolgrade.Call{Name: rapid.SampledFrom(names).Draw(t, "name"), Args: rapid.SampledFrom(args).Draw(t, "args")}
		if rapid.IntRange(0, 3).Draw(t, "failed") == 0 {
			c.Status = toolgrade.StatusError
		}
		calls = append(calls, c)
	}
	return calls
}

// isLiteral reports whether a pattern is a plain name, with no glob
// characters.
func isLiteral(p string) bool { return !strings.ContainsAny(p, `*?[\`) }

func TestProperties(t *testing.T) {
	m, err := process.New(process.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		items := rapid.SliceOfN(rapid.Custom(ruleValue), 0, 5).Draw(t, "rules")
		c := &toolgrade.Case{Called: randomCalls(t), Raw: withProcess(items)}
		rules, err := process.ParseRules(items)
		if err != nil {
			t.Fatalf("well-formed rules: %v", err)
		}

		// The score is the share of rules kept, and each verdict agrees
		// with its breaches.
		r := m.Grade(context.Background(), c)
		if r.Error != "" {
			t.Fatal(r.Error)
		}
		if r.Score < 0 || r.Score > 1 || r.Success != (r.Score >= 1) || len(toolgrade.DetailOf[process.RuleChecks](&r)) != len(rules) {
			t.Fatalf("score %v success %v, %d verdicts for %d rules", r.Score, r.Success, len(toolgrade.DetailOf[process.RuleChecks](&r)), len(rules))
		}
		kept := 0
		for _, rc := range toolgrade.DetailOf[process.RuleChecks](&r) {
			if rc.Kept {
				kept++
			}
			if rc.Kept != (len(rc.Breaches) == 0) || rc.Kept != (rc.Reason == "") {
				t.Fatalf("%s: kept %v with breaches %v and reason %q", rc.Rule, rc.Kept, rc.Breaches, rc.Reason)
			}
			for i, j := range rc.Breaches {
				if j < 0 || j >= len(c.Called) || i > 0 && j <= rc.Breaches[i-1] {
					t.Fatalf("%s: breaches %v for %d calls", rc.Rule, rc.Breaches, len(c.Called))
				}
			}
		}
		if len(rules) > 0 && r.Score != float64(kept)/float64(len(rules)) {
			t.Fatalf("score %v for %d of %d kept", r.Score, kept, len(rules))
		}

		for _, rule := range rules {
			whole := rule.Check(c.Called)

			// With no calls, every rule is kept: after obliges only once
			// its A is called.
			if rc := rule.Check(nil); !rc.Kept {
				t.Fatalf("%s broken with no calls: %s", rule, rc.Reason)
			}

			// Every rule but after judges each call by the calls before it:
			// a prefix breaks it exactly where the whole trajectory does.
			if rule.Kind != process.After {
				k := rapid.IntRange(0, len(c.Called)).Draw(t, "prefix")
				var want []int
				for _, j := range whole.Breaches {
					if j < k {
						want = append(want, j)
					}
				}
				if got := rule.Check(c.Called[:k]).Breaches; !slices.Equal(got, want) {
					t.Fatalf("%s: prefix of %d breaks at %v, whole at %v", rule, k, got, whole.Breaches)
				}
			}

			// An after rule is kept once a B is called and done at the end.
			if rule.Kind == process.After && isLiteral(rule.B[0]) {
				more := append(slices.Clip(c.Called), toolgrade.Call{Name: rule.B[0]})
				if rc := rule.Check(more); !rc.Kept {
					t.Fatalf("%s broken after a final %s: %s", rule, rule.B[0], rc.Reason)
				}
			}

			// The compact form reads back as the same rule.
			var v any
			if err := yaml.Unmarshal([]byte("["+rule.String()+"]"), &v); err != nil {
				t.Fatalf("%s is not YAML: %v", rule, err)
			}
			back, err := process.ParseRules(v)
			if err != nil || len(back) != 1 || !equalRules(back[0], rule) {
				t.Fatalf("%s reads back as %v, %v", rule, back, err)
			}
		}
	})
}
