package process_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/process"
)

// FuzzParseRules reads arbitrary JSON as a rule list: it must never
// panic; an error on an item names the item; each rule read writes as
// YAML that reads back as the same rule, and is checked against a
// trajectory without panicking, within its bounds.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{
		`[{"before": ["confirm", ["cancel_*", "modify_*"]]}, {"once_before": ["login", "*"]}, {"after": ["book", "send"]}]`,
		`[{"never": ["delete_*", "[ab]?"]}, {"never_after": {"transfer_to_human_agents": "*", "x": ["y"]}}]`,
		`[{"at_most": {"exchange_*": 1}}, "no_repeat", {"no_repeat": true}, {"max_calls": 1e1}]`,
		`[{"befor": [1]}, {"at_most": {"x": -1.5}}, {"never": "a\\"}, {}, [], null, "never", {"a": 1, "b": 2}]`,
		`{"never": "x"}`,
		`[{"never": ["\u0000", "\u2028", "a\tb", " a", "#x", "\ufeff", "é", "\ud800", "\u0085", "\u007f", "a\u00a0"]}]`,
		`[{"max_calls": 1e400}, {"at_most": {"[": 1}}]`,
	} {
		f.Add(s)
	}
	calls := []toolgrade.Call{
		{Name: "confirm"}, {Name: "cancel_order", Status: toolgrade.StatusError}, {Name: "cancel_order"},
		{Name: "x", Invalid: true, ArgsRaw: "{"}, {Name: "x", Invalid: true, ArgsRaw: "{"}, {Name: "a/b"},
	}
	f.Fuzz(func(t *testing.T, data string) {
		v, err := jsonvalue.ParseString(data)
		if err != nil {
			return
		}
		rules, err := process.ParseRules(v)
		if err != nil {
			var fe *toolgrade.FieldError
			if _, isList := v.([]any); isList && (!errors.As(err, &fe) || !strings.HasPrefix(fe.Path, "[")) {
				t.Fatalf("error %v does not name the item", err)
			}
			return
		}
		for _, r := range rules {
			if r.String() == "" {
				t.Fatalf("%#v writes as nothing", r)
			}
			var y any
			if err := yaml.Unmarshal([]byte("["+r.String()+"]"), &y); err != nil {
				if !validText(v) {
					continue // a lone surrogate, which YAML cannot write
				}
				t.Fatalf("%s is not YAML: %v", r, err)
			}
			back, err := process.ParseRules(y)
			if err != nil || len(back) != 1 || !equalRules(back[0], r) {
				t.Fatalf("%s reads back as %v, %v", r, back, err)
			}
			rc := r.Check(calls)
			for _, j := range rc.Breaches {
				if j < 0 || j >= len(calls) {
					t.Fatalf("%s: breach %d of %d calls", r, j, len(calls))
				}
			}
		}
	})
}

// validText reports whether every string in v is UTF-8: none holds a lone
// surrogate from a JSON escape.
func validText(v any) bool {
	switch v := v.(type) {
	case string:
		return utf8.ValidString(v)
	case []any:
		for _, e := range v {
			if !validText(e) {
				return false
			}
		}
	case jsonvalue.Object:
		for _, m := range v {
			if !utf8.ValidString(m.Key) || !validText(m.Value) {
				return false
			}
		}
	}
	return true
}
