package process_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/process"
)

// decodeOptions decodes a config entry's options as the config layer
// does.
func decodeOptions(t *testing.T, text string) (process.Options, error) {
	t.Helper()
	var o process.Options
	err := toolgrade.DecodeOptions([]byte(text), &o)
	return o, err
}

// runTools are the run's tools (--tools) the metrics of these tests know:
// every tool their rules name.
var runTools = func() []toolgrade.Tool {
	var tools []toolgrade.Tool
	for _, n := range strings.Fields("get_order confirm cancel_order modify_order transfer_to_human_agents a b x") {
		tools = append(tools, toolgrade.Tool{Name: n})
	}
	return tools
}()

func newMetric(t *testing.T, text string) *process.Metric {
	t.Helper()
	o, err := decodeOptions(t, text)
	if err != nil {
		t.Fatal(err)
	}
	o.Tools = runTools
	m, err := process.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// withProcess is the record of a case whose process field is v.
func withProcess(v any) jsonvalue.Object {
	return jsonvalue.Object{{Key: "process", Value: v}}
}

func value(t *testing.T, text string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOptionsDecode(t *testing.T) {
	o, err := decodeOptions(t, `{"rules": [{"at_most": {"b": 1, "a": 2}}, "no_repeat"], "threshold": 0.5}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.Rules[0].(jsonvalue.Object); !ok {
		t.Errorf("rules hold %T, want values of the JSON value model", o.Rules[0])
	}
	m, err := process.New(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	r := m.Grade(context.Background(), &toolgrade.Case{})
	for _, rc := range toolgrade.DetailOf[process.RuleChecks](&r) {
		got = append(got, rc.Rule)
	}
	if want := []string{"at_most: {b: 1}", "at_most: {a: 2}", "no_repeat: true"}; !slices.Equal(got, want) {
		t.Errorf("rules %q, want %q (in the order written)", got, want)
	}
	if th := m.Options().Threshold; th == nil || *th != 0.5 {
		t.Errorf("threshold %v", th)
	}
	if o, err := decodeOptions(t, `{"rules": null}`); err != nil || o.Rules != nil {
		t.Errorf("null: got %v, %v", o.Rules, err)
	}
	if _, err := decodeOptions(t, `{"rules": {"never": "x"}}`); err == nil || !strings.Contains(err.Error(), "rules: want a list of rules, got object") {
		t.Errorf("a mapping: got %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct{ rules, option, value, msg string }{
		{`[{"never": "x"}, "no_repeat", {"before": ["a"]}]`, "rules[2].before", `{"before":["a"]}`, `rules[2].before: want [tool, tool], got ["a"]`},
		{`[{"befor": ["a", "b"]}]`, "rules[0].befor", `{"befor":["a","b"]}`, `rules[0].befor: unknown rule "befor"; did you mean "before"?`},
		{`[{"at_most": {"x": -1}}]`, "rules[0].at_most.x", `{"at_most":{"x":-1}}`, "rules[0].at_most.x: want a whole number from 0, got -1"},
		{`[{"never": "a["}]`, "rules[0].never", `{"never":"a["}`, `rules[0].never: bad glob "a[": syntax error in pattern`},
		{`[{"never": "a", "max_calls": 2}]`, "rules[0]", `{"never":"a","max_calls":2}`, "rules[0]: want one rule per item, got never, max_calls: write each as an item of its own"},
	}
	for _, tt := range tests {
		o, err := decodeOptions(t, `{"rules": `+tt.rules+`}`)
		if err != nil {
			t.Fatal(err)
		}
		_, err = process.New(o)
		var oe *toolgrade.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s: got %v, want an option error", tt.rules, err)
			continue
		}
		if oe.Option != tt.option || oe.Value != tt.value || err.Error() != tt.msg {
			t.Errorf("%s: got option %s, value %s, %q\nwant option %s, value %s, %q", tt.rules, oe.Option, oe.Value, err, tt.option, tt.value, tt.msg)
		}
	}
}

func TestGrade(t *testing.T) {
	m := newMetric(t, `{"rules": [
		{"before": ["confirm", ["cancel_*", "modify_*"]]},
		{"never_after": {"transfer_to_human_agents": "*"}}
	]}`)
	c := &toolgrade.Case{
		Called: calls(t, "get_order confirm cancel_order modify_order transfer_to_human_agents get_order"),
		Raw:    withProcess(value(t, `[{"at_most": {"modify_*": 1}}, "no_repeat"]`)),
	}
	r := m.Grade(context.Background(), c)
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	want := []process.RuleCheck{
		{Rule: "before: [confirm, [cancel_*, modify_*]]", Breaches: []int{3}, Reason: "modify_order (#3) has no confirm since cancel_order (#2)"},
		{Rule: `never_after: {transfer_to_human_agents: "*"}`, Breaches: []int{5}, Reason: "get_order (#5) called after transfer_to_human_agents (#4)"},
		{Rule: "at_most: {modify_*: 1}", Kept: true},
		{Rule: "no_repeat: true", Kept: true},
	}
	if len(toolgrade.DetailOf[process.RuleChecks](&r)) != len(want) {
		t.Fatalf("rules %+v", toolgrade.DetailOf[process.RuleChecks](&r))
	}
	for i := range want {
		g, w := toolgrade.DetailOf[process.RuleChecks](&r)[i], want[i]
		if g.Rule != w.Rule || g.Kept != w.Kept || !slices.Equal(g.Breaches, w.Breaches) || g.Reason != w.Reason {
			t.Errorf("rule %d: got %+v, want %+v", i, g, w)
		}
	}
	if r.Name != "tool_process" || r.Profile != "default" || r.Score != 0.5 || r.Success || *r.Threshold != 1 {
		t.Errorf("got %s/%s score %v success %v threshold %v", r.Name, r.Profile, r.Score, r.Success, *r.Threshold)
	}
	wantReason := "2 of 4 process rules broken; before: [confirm, [cancel_*, modify_*]] (modify_order (#3) has no confirm since cancel_order (#2)); " +
		`never_after: {transfer_to_human_agents: "*"} (get_order (#5) called after transfer_to_human_agents (#4))`
	if r.Reason != wantReason {
		t.Errorf("reason %q\nwant   %q", r.Reason, wantReason)
	}

	// The case's rules do not stay with the metric.
	r = m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "confirm cancel_order")})
	if len(toolgrade.DetailOf[process.RuleChecks](&r)) != 2 || r.Score != 1 || !r.Success || r.Reason != "all 2 process rules kept" {
		t.Errorf("second case: %+v", r)
	}
}

func TestGradeThreshold(t *testing.T) {
	m := newMetric(t, `{"rules": ["no_repeat", {"max_calls": 1}, {"never": "x"}], "threshold": 0.6}`)
	r := m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "a b")})
	if r.Score != 2.0/3 || !r.Success {
		t.Errorf("score %v success %v, want 2/3 passing 0.6", r.Score, r.Success)
	}
	if r.Reason != "1 of 3 process rules broken; max_calls: 1 (2 calls, at most 1)" {
		t.Errorf("reason %q", r.Reason)
	}
}

func TestGradeNoRules(t *testing.T) {
	m := newMetric(t, `{}`)
	for _, own := range []any{nil, []any{}} {
		r := m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "a a"), Raw: withProcess(own)})
		if checks := toolgrade.DetailOf[process.RuleChecks](&r); r.Error != "" || r.Score != 1 || !r.Success || r.Reason != "no process rules" || checks == nil || len(checks) != 0 {
			t.Errorf("process %#v: %+v", own, r)
		}
	}
	r := m.Grade(context.Background(), &toolgrade.Case{Raw: withProcess(value(t, `[{"never": "x"}]`))})
	if r.Score != 1 || r.Reason != "1 process rule kept" {
		t.Errorf("one rule kept: %+v", r)
	}
	r = m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "x"), Raw: withProcess(value(t, `[{"never": "x"}]`))})
	if r.Score != 0 || r.Reason != "1 process rule broken; never: x (x (#0) called)" {
		t.Errorf("one rule broken: %+v", r)
	}
}

func TestGradeCaseErrors(t *testing.T) {
	m := newMetric(t, `{"rules": ["no_repeat"]}`)
	tests := []struct{ process, path, msg string }{
		{`[{"never": "x"}, {"at_most": {"x": -2}}]`, "process[1].at_most.x", "field process[1].at_most.x: want a whole number from 0, got -2"},
		{`[{"at_most": []}]`, "process[0].at_most", "field process[0].at_most: want {tool: number}, got []"},
		{`[{"nevr": "x"}]`, "process[0].nevr", `field process[0].nevr: unknown rule "nevr"; did you mean "never"?`},
		{`["no_repeat", {"never": "[", "after": ["a", "b"]}]`, "process[1]", "field process[1]: want one rule per item, got never, after: write each as an item of its own"},
		{`{"never": "x"}`, "process", "field process: want a list of rules, got object"},
	}
	for _, tt := range tests {
		r := m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "x"), Raw: withProcess(value(t, tt.process))})
		var fe *toolgrade.FieldError
		if !errors.As(r.Err, &fe) || fe.Path != tt.path || r.Error != tt.msg || r.Success {
			t.Errorf("%s: got %v (%q)\nwant %s: %q", tt.process, r.Err, r.Error, tt.path, tt.msg)
		}
	}
}

// TestGradeUnknownTools: a rule naming a tool no known tool list has would
// be kept whatever the agent does; it is an error naming the rule and the
// nearest tool, whichever list knows the tools. Without any list, the
// reason says the names could not be checked.
func TestGradeUnknownTools(t *testing.T) {
	tools := `[{"name": "confirm"}, {"name": "cancel_order"}, {"name": "get_order"}]`
	withTools := func(process string) jsonvalue.Object {
		return jsonvalue.Object{{Key: "process", Value: value(t, process)}, {Key: "available_tools", Value: value(t, tools)}}
	}
	run := []toolgrade.Tool{{Name: "confirm"}, {Name: "cancel_order"}}
	tests := []struct {
		name     string
		rules    string // the metric's
		runTools []toolgrade.Tool
		c        *toolgrade.Case
		err      string // "" for none
		reason   string
	}{
		{name: "a case rule, available_tools", c: &toolgrade.Case{Raw: withTools(`[{"before": ["confirm", "cancl_order"]}]`)},
			err: `field process: rule before: [confirm, cancl_order] names a tool the case does not know: no tool is named "cancl_order" (the tools are those of available_tools, --tools and the expected calls: "confirm", "cancel_order", "get_order"); did you mean "cancel_order"?`},
		{name: "a metric rule, --tools", rules: `[{"before": ["confrim", "cancel_order"]}]`, runTools: run, c: &toolgrade.Case{},
			err: `field rules: rule before: [confrim, cancel_order] names a tool the case does not know: no tool is named "confrim" (the tools are those of available_tools, --tools and the expected calls: "confirm", "cancel_order"); did you mean "confirm"?`},
		{name: "the expected calls", c: &toolgrade.Case{Expected: []toolgrade.Call{{Name: "cancel_order"}}, Raw: withProcess(value(t, `[{"never": "cancel_ordr"}]`))},
			err: `field process: rule never: cancel_ordr names a tool the case does not know: no tool is named "cancel_ordr" (the tools are those of available_tools, --tools and the expected calls: "cancel_order"); did you mean "cancel_order"?`},
		{name: "a glob matching nothing", runTools: run, c: &toolgrade.Case{Raw: withProcess(value(t, `[{"at_most": {"modify_*": 1}}]`))},
			err: `field process: rule at_most: {modify_*: 1} names a tool the case does not know: "modify_*" matches no tool`},
		{name: "never_after's second tool", runTools: run, c: &toolgrade.Case{Raw: withProcess(value(t, `[{"never_after": {"confirm": ["cancel_order", "refund"]}}]`))},
			err: `no tool is named "refund"`},
		{name: "known names", rules: `[{"before": ["confirm", "cancel_*"]}, {"never": "*"}]`, runTools: run, c: &toolgrade.Case{Called: calls(t, "confirm cancel_order")},
			reason: "1 of 2 process rules broken; never: \"*\" (confirm (#0) called, cancel_order (#1) called)"},
		{name: "names in another list", rules: `[{"never": "get_order"}]`, runTools: run, c: &toolgrade.Case{Raw: withTools(`[]`)}, reason: "1 process rule kept"},
		{name: "no list at all", c: &toolgrade.Case{Called: calls(t, "a"), Raw: withProcess(value(t, `[{"never": "cancl_order"}]`))},
			reason: "1 process rule kept (the tools the rules name could not be checked: the case has no available_tools or expected calls and the run no --tools)"},
		{name: "rules naming no tool need no list", c: &toolgrade.Case{Called: calls(t, "a"), Raw: withProcess(value(t, `["no_repeat", {"max_calls": 3}]`))},
			reason: "all 2 process rules kept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := decodeOptions(t, `{"rules": `+cmpOr(tt.rules, "[]")+`}`)
			if err != nil {
				t.Fatal(err)
			}
			o.Tools = tt.runTools
			m, err := process.New(o)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), tt.c)
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) || r.Success {
					t.Fatalf("error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || r.Reason != tt.reason {
				t.Fatalf("error %q, reason %q; want reason %q", r.Error, r.Reason, tt.reason)
			}
		})
	}
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// The result's rules are written to and read back from results files.
func TestResultJSON(t *testing.T) {
	m := newMetric(t, `{"rules": [{"never": "x"}, {"max_calls": 5}]}`)
	res := toolgrade.Result{ID: "c1", Metrics: []toolgrade.MetricResult{m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "a x")})}}
	data := res.AppendJSON(nil)
	if !bytes.Contains(data, []byte(`"rules":[{"rule":"never: x","kept":false,"breaches":[1],"reason":"x (#1) called"},{"rule":"max_calls: 5","kept":true,"breaches":[]}]`)) {
		t.Errorf("written as %s", data)
	}
	var back toolgrade.Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := toolgrade.DetailOf[process.RuleChecks](&back.Metrics[0]); len(got) != 2 || got[0].Rule != "never: x" || !slices.Equal(got[0].Breaches, []int{1}) || !got[1].Kept {
		t.Errorf("read back as %+v", got)
	}
}

func TestNewGoValues(t *testing.T) {
	m, err := process.New(process.Options{Rules: process.RuleList{
		map[string]any{"before": []string{"confirm_with_user", "cancel_*"}},
		"no_repeat",
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Grade(context.Background(), &toolgrade.Case{Called: calls(t, "cancel_order cancel_order")})
	if r.Score != 0 || len(toolgrade.DetailOf[process.RuleChecks](&r)) != 2 || !slices.Equal(toolgrade.DetailOf[process.RuleChecks](&r)[0].Breaches, []int{0, 1}) {
		t.Errorf("got %+v", r)
	}
	_, err = process.New(process.Options{Rules: process.RuleList{map[string]any{"never": 3}}})
	var oe *toolgrade.OptionError
	if !errors.As(err, &oe) || oe.Option != "rules[0].never" || oe.Value != `{"never":3}` {
		t.Errorf("got %v", err)
	}
}
