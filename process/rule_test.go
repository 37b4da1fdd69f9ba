package process_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/process"
)

// calls reads a trajectory written as space-separated calls: a name, with
// "!" before it for a failed call and its arguments as JSON in
// parentheses after it: `confirm !cancel_order({"id":1})`.
func calls(t testing.TB, spec string) []toolgrade.Call {
	t.Helper()
	var out []toolgrade.Call
	for _, f := range strings.Fields(spec) {
		var c toolgrade.Call
		if rest, ok := strings.CutPrefix(f, "!"); ok {
			c.Status, f = toolgrade.StatusError, rest
		}
		if i := strings.IndexByte(f, '('); i >= 0 {
			args, err := jsonvalue.ParseString(strings.TrimSuffix(f[i+1:], ")"))
			if err != nil {
				t.Fatalf("args of %s: %v", f, err)
			}
			c.Args, f = args, f[:i]
		}
		c.Name = f
		out = append(out, c)
	}
	return out
}

// parseYAML reads a rule list written in YAML, as a config or case file
// would give it.
func parseYAML(t testing.TB, text string) ([]process.Rule, error) {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("YAML %s: %v", text, err)
	}
	return process.ParseRules(v)
}

// rule reads one rule written in YAML.
func rule(t testing.TB, text string) process.Rule {
	t.Helper()
	rules, err := parseYAML(t, "["+text+"]")
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	if len(rules) != 1 {
		t.Fatalf("%s: %d rules", text, len(rules))
	}
	return rules[0]
}

func TestCheck(t *testing.T) {
	tests := []struct {
		rule, calls string
		breaches    []int // nil: kept
		reason      string
	}{
		// before: one A licenses the next B only.
		{rule: "before: [confirm, cancel_*]", calls: "confirm cancel_order"},
		{rule: "before: [confirm, cancel_*]", calls: "confirm get_order cancel_order"},
		{rule: "before: [confirm, cancel_*]", calls: "get_order"},
		{rule: "before: [confirm, cancel_*]", calls: ""},
		{rule: "before: [confirm, cancel_*]", calls: "confirm cancel_a confirm cancel_b"},
		{rule: "before: [confirm, cancel_*]", calls: "cancel_order confirm",
			breaches: []int{0}, reason: "cancel_order (#0) has no confirm before it"},
		{rule: "before: [confirm, cancel_*]", calls: "confirm cancel_order get_order cancel_order",
			breaches: []int{3}, reason: "cancel_order (#3) has no confirm since cancel_order (#1)"},
		{rule: "before: [confirm, cancel_*]", calls: "!confirm cancel_order",
			breaches: []int{1}, reason: "cancel_order (#1) has no confirm before it (confirm (#0) failed)"},
		{rule: "before: [confirm, cancel_*]", calls: "confirm !cancel_order cancel_order",
			breaches: []int{2}, reason: "cancel_order (#2) has no confirm since cancel_order (#1)"},
		{rule: "before: [[confirm, ask_user], [cancel_*, modify_*]]", calls: "ask_user modify_x confirm cancel_y"},
		{rule: "before: [[confirm, ask_user], [cancel_*, modify_*]]", calls: "confirm cancel_y modify_x",
			breaches: []int{2}, reason: "modify_x (#2) has no confirm or ask_user since cancel_y (#1)"},
		{rule: `before: [login, "*"]`, calls: "login a login b"},
		{rule: `before: [login, "*"]`, calls: "login a b",
			breaches: []int{2}, reason: "b (#2) has no login since a (#1)"},

		// once_before: one A licenses every later B.
		{rule: "once_before: [login, get_*]", calls: "login get_a get_b get_a"},
		{rule: "once_before: [login, get_*]", calls: "get_a login get_b",
			breaches: []int{0}, reason: "get_a (#0) has no login before it"},
		{rule: "once_before: [login, get_*]", calls: "!login get_a get_b",
			breaches: []int{1, 2}, reason: "get_a (#1) has no login before it (login (#0) failed), get_b (#2) has no login before it (login (#0) failed)"},

		// after: every A done is followed by a B done.
		{rule: "after: [book, send_confirmation]", calls: "book send_confirmation"},
		{rule: "after: [book, send_confirmation]", calls: "book get book send_confirmation"},
		{rule: "after: [book, send_confirmation]", calls: ""},
		{rule: "after: [book, send_confirmation]", calls: "send_confirmation"},
		{rule: "after: [book, send_confirmation]", calls: "!book"},
		{rule: "after: [book, send_confirmation]", calls: "book",
			breaches: []int{0}, reason: "book (#0) is not followed by send_confirmation"},
		{rule: "after: [book, send_confirmation]", calls: "book send_confirmation book get",
			breaches: []int{2}, reason: "book (#2) is not followed by send_confirmation"},
		{rule: "after: [book, send_confirmation]", calls: "book !send_confirmation",
			breaches: []int{0}, reason: "book (#0) is not followed by send_confirmation (send_confirmation (#1) failed)"},
		{rule: `after: ["*", log]`, calls: "a b log"},
		{rule: `after: ["*", log]`, calls: "a log b",
			breaches: []int{2}, reason: "b (#2) is not followed by log"},

		// never
		{rule: "never: delete_*", calls: "get_user update_user"},
		{rule: "never: delete_*", calls: "get_user delete_user !delete_order",
			breaches: []int{1, 2}, reason: "delete_user (#1) called, delete_order (#2) called"},
		{rule: "never: [a, b]", calls: "a c b",
			breaches: []int{0, 2}, reason: "a (#0) called, b (#2) called"},

		// never_after
		{rule: `never_after: {transfer_to_human_agents: "*"}`, calls: "get_user transfer_to_human_agents"},
		{rule: `never_after: {transfer_to_human_agents: "*"}`, calls: "!transfer_to_human_agents get_user"},
		{rule: `never_after: {transfer_to_human_agents: "*"}`, calls: "transfer_to_human_agents get_user transfer_to_human_agents",
			breaches: []int{1, 2}, reason: "get_user (#1) called after transfer_to_human_agents (#0), transfer_to_human_agents (#2) called after transfer_to_human_agents (#0)"},
		{rule: "never_after: {submit: [edit_*, delete]}", calls: "edit_a submit get edit_b delete",
			breaches: []int{3, 4}, reason: "edit_b (#3) called after submit (#1), delete (#4) called after submit (#1)"},

		// at_most
		{rule: "at_most: {exchange_*: 1}", calls: "get exchange_a get"},
		{rule: "at_most: {exchange_*: 1}", calls: "exchange_a get exchange_b !exchange_a",
			breaches: []int{2, 3}, reason: "3 calls to exchange_* (#0, #2, #3), at most 1"},
		{rule: "at_most: {x: 0}", calls: "y x",
			breaches: []int{1}, reason: "1 call to x (#1), none allowed"},

		// no_repeat
		{rule: "no_repeat: true", calls: `get({"id":1}) get({"id":2}) get({"id":1})`},
		{rule: "no_repeat: true", calls: `get({"id":1}) get({"id":1}) get({"id":2}) get({"id":2}) !get({"id":2})`,
			breaches: []int{1, 3, 4}, reason: "get (#1) repeats #0 with the same arguments, get (#3) repeats #2 with the same arguments, get (#4) repeats #3 with the same arguments"},
		{rule: "no_repeat: true", calls: `get({"n":1,"m":[true]}) get({"m":[true],"n":1.0})`,
			breaches: []int{1}, reason: "get (#1) repeats #0 with the same arguments"},
		{rule: "no_repeat: true", calls: `a b a`},
		{rule: "no_repeat: true", calls: `a a`, breaches: []int{1}, reason: "a (#1) repeats #0 with the same arguments"},
		{rule: "no_repeat", calls: `a({}) a`},

		// max_calls
		{rule: "max_calls: 2", calls: "a b"},
		{rule: "max_calls: 0", calls: ""},
		{rule: "max_calls: 2", calls: "a !b c d",
			breaches: []int{2, 3}, reason: "4 calls, at most 2"},
		{rule: "max_calls: 0", calls: "a", breaches: []int{0}, reason: "1 call, none allowed"},

		// globs
		{rule: `never: "get_?"`, calls: "get_ab get_", breaches: nil},
		{rule: `never: "get_?"`, calls: "get_a", breaches: []int{0}, reason: "get_a (#0) called"},
		{rule: `never: "[ab]x"`, calls: "ax cx bx", breaches: []int{0, 2}, reason: "ax (#0) called, bx (#2) called"},
		{rule: `never: "a\\*"`, calls: "ab a*", breaches: []int{1}, reason: "a* (#1) called"},
		{rule: `never: "*"`, calls: "srv/tool", breaches: []int{0}, reason: "srv/tool (#0) called"},
		{rule: `never: "srv/*"`, calls: "srv/tool other/tool", breaches: []int{0}, reason: "srv/tool (#0) called"},
		{rule: `never: "*_tool"`, calls: "srv/x_tool"}, // * does not match /
		{rule: "never: Cancel", calls: "cancel"},       // names are case-sensitive
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+tt.calls, func(t *testing.T) {
			got := rule(t, tt.rule).Check(calls(t, tt.calls))
			if got.Kept != (tt.breaches == nil) || !slices.Equal(got.Breaches, tt.breaches) || got.Reason != tt.reason {
				t.Errorf("got kept %v, breaches %v, reason %q\nwant breaches %v, reason %q", got.Kept, got.Breaches, got.Reason, tt.breaches, tt.reason)
			}
		})
	}
}

func TestCheckInvalidArgs(t *testing.T) {
	r := rule(t, "no_repeat")
	bad := func(raw string) toolgrade.Call { return toolgrade.Call{Name: "f", Invalid: true, ArgsRaw: raw} }
	got := r.Check([]toolgrade.Call{bad("{x"), bad("{x"), bad("{y"), {Name: "f"}})
	if !slices.Equal(got.Breaches, []int{1}) {
		t.Errorf("breaches %v, want [1]", got.Breaches)
	}
}

func TestCheckDescribesTenBreaches(t *testing.T) {
	got := rule(t, "never: x").Check(calls(t, strings.Repeat("x ", 13)))
	if len(got.Breaches) != 13 {
		t.Errorf("%d breaches, want 13", len(got.Breaches))
	}
	if !strings.HasSuffix(got.Reason, "x (#9) called, and 3 more") {
		t.Errorf("reason %q", got.Reason)
	}
	got = rule(t, "at_most: {x: 1}").Check(calls(t, strings.Repeat("x ", 12)))
	if want := "12 calls to x (#0, #1, #2, #3, #4, #5, #6, #7, #8, #9, ...), at most 1"; got.Reason != want {
		t.Errorf("reason %q, want %q", got.Reason, want)
	}
}

func TestString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"before: [confirm, cancel_*]", "before: [confirm, cancel_*]"},
		{"before: [[confirm, ask], [cancel_*, modify_*]]", "before: [[confirm, ask], [cancel_*, modify_*]]"},
		{"once_before: [login, '*']", `once_before: [login, "*"]`},
		{"after: [book, send_confirmation]", "after: [book, send_confirmation]"},
		{"never: delete_*", "never: delete_*"},
		{"never: [a, b]", "never: [a, b]"},
		{"never: ['null', '3d', '[ab]x', 'a b', 'a:b', '-x', 'a?', y]", `never: ["null", "3d", "[ab]x", "a b", "a:b", "-x", "a?", y]`},
		{"never_after: {transfer_to_human_agents: '*'}", `never_after: {transfer_to_human_agents: "*"}`},
		{"never_after: {submit: [edit, delete]}", "never_after: {submit: [edit, delete]}"},
		{"at_most: {exchange_*: 1}", "at_most: {exchange_*: 1}"},
		{"no_repeat", "no_repeat: true"},
		{"no_repeat: true", "no_repeat: true"},
		{"max_calls: 1.0e1", "max_calls: 10"},
	} {
		r := rule(t, tt.in)
		if got := r.String(); got != tt.want {
			t.Errorf("%s: String() = %s, want %s", tt.in, got, tt.want)
		}
		if back := rule(t, r.String()); !equalRules(back, r) {
			t.Errorf("%s reads back as %#v, want %#v", r, back, r)
		}
	}
}

func equalRules(a, b process.Rule) bool {
	return a.Kind == b.Kind && slices.Equal(a.A, b.A) && slices.Equal(a.B, b.B) && a.N == b.N
}

func TestParseRulesSplitsMappings(t *testing.T) {
	v, err := jsonvalue.ParseString(`[{"at_most": {"b": 1, "a": 2}}, {"never_after": {"x": "*", "y": ["z"]}}, "no_repeat"]`)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := process.ParseRules(v)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		got = append(got, r.String())
	}
	want := []string{"at_most: {b: 1}", "at_most: {a: 2}", `never_after: {x: "*"}`, "never_after: {y: z}", "no_repeat: true"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestParseRulesGoValues(t *testing.T) {
	rules, err := process.ParseRules([]map[string]any{
		{"before": []string{"confirm", "cancel_*"}},
		{"at_most": map[string]int{"x": 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].String() != "before: [confirm, cancel_*]" || rules[1].N != 2 {
		t.Errorf("got %v", rules)
	}
	if rules, err := process.ParseRules(nil); rules != nil || err != nil {
		t.Errorf("nil: got %v, %v", rules, err)
	}
}

func TestParseRulesErrors(t *testing.T) {
	tests := []struct{ in, path, msg string }{
		{`[{befor: [a, b]}]`, "[0].befor", `unknown rule "befor"; did you mean "before"?`},
		{`[{nevr_after: {a: b}}]`, "[0].nevr_after", `did you mean "never_after"?`},
		{`[{frobnicate: 1}]`, "[0].frobnicate", "unknown rule \"frobnicate\" (want before, once_before, after, never, never_after, at_most, no_repeat, max_calls)"},
		{`[no_repeats]`, "[0]", `did you mean "no_repeat"?`},
		{`[never]`, "[0]", "rule never needs a value"},
		{`[3]`, "[0]", "want a rule such as {before: [A, B]}, or no_repeat, got integer"},
		{`[{}]`, "[0]", "got an empty mapping"},
		{`[max_calls: 3, {before: [a, b], after: [c, d]}]`, "[1]", "want one rule per item, got after, before"},
		{`[{before: [a]}]`, "[0].before", `want [tool, tool], got ["a"]`},
		{`[{after: a}]`, "[0].after", `want [tool, tool], got "a"`},
		{`[{before: [a, "[x"]}]`, "[0].before[1]", `bad glob "[x": syntax error in pattern`},
		{`[{before: [[a, 1], b]}]`, "[0].before[0][1]", "want a tool name or glob, got integer"},
		{`[{never: ""}]`, "[0].never", "got an empty string"},
		{`[{never: []}]`, "[0].never", "got an empty list"},
		{`[{never: {a: 1}}]`, "[0].never", "want a tool name or glob, or a list of them, got object"},
		{`[{never_after: {}}]`, "[0].never_after", "want {tool: tools}, got {}"},
		{`[{never_after: [a, b]}]`, "[0].never_after", `want {tool: tools}, got ["a","b"]`},
		{`[{never_after: {"[": b}}]`, `[0].never_after["["]`, "bad glob"},
		{`[{never_after: {a: 1}}]`, "[0].never_after.a", "got integer"},
		{`[{at_most: {x: -1}}]`, "[0].at_most.x", "want a whole number from 0, got -1"},
		{`[{at_most: {x: 1.5}}]`, "[0].at_most.x", "want a whole number from 0, got 1.5"},
		{`[{at_most: {x: "2"}}]`, "[0].at_most.x", "want a whole number from 0, got string"},
		{`[{at_most: 2}]`, "[0].at_most", "want {tool: number}, got 2"},
		{`[{no_repeat: false}]`, "[0].no_repeat", "want true"},
		{`[{max_calls: -3}]`, "[0].max_calls", "want a whole number from 0, got -3"},
		{`[{max_calls: 1e12}]`, "[0].max_calls", "want at most 1000000000"},
		{`[{max_calls: null}]`, "[0].max_calls", "got null"},
	}
	for _, tt := range tests {
		_, err := parseYAML(t, tt.in)
		var fe *toolgrade.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a field error", tt.in, err)
			continue
		}
		if fe.Path != tt.path || !strings.Contains(fe.Err.Error(), tt.msg) {
			t.Errorf("%s: got %s: %v\nwant %s: ...%s...", tt.in, fe.Path, fe.Err, tt.path, tt.msg)
		}
	}
	if _, err := parseYAML(t, `{never: x}`); err == nil || err.Error() != "want a list of rules, got object" {
		t.Errorf("a mapping: got %v", err)
	}
}
