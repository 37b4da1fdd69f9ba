package match

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestAppendExpected(t *testing.T) {
	ref, err := toolgrade.ParseRef("find_order.output.order.id")
	if err != nil {
		t.Fatal(err)
	}
	obj := func(kv ...any) jsonvalue.Object {
		var o jsonvalue.Object
		for i := 0; i < len(kv); i += 2 {
			o = append(o, jsonvalue.Member{Key: kv[i].(string), Value: kv[i+1]})
		}
		return o
	}
	tests := []struct {
		name string
		call toolgrade.Call
		want string
	}{
		{"no rules", toolgrade.Call{Name: "f", Args: obj("x", 1.0)}, `f({"x":1})`},
		{"a rule alone", toolgrade.Call{Name: "run_sql", Args: obj(), Rules: map[string]toolgrade.Rule{"query": {Regex: regexp.MustCompile("(?i)count")}}}, `run_sql({"query":/(?i)count/})`},
		{"an ignored argument not written asks nothing", toolgrade.Call{Name: "f", Args: obj("x", 1.0), Rules: map[string]toolgrade.Rule{"y": {Ignore: true}}}, `f({"x":1})`},
		{"a tolerance keeps the value", toolgrade.Call{Name: "f", Args: obj("x", 1.0), Rules: map[string]toolgrade.Rule{"x": {Tol: 0.1, HasTol: true}}}, `f({"x":1})`},
		{"a snapshot's value beside its rules shows the rules", toolgrade.Call{Name: "cancel_order",
			Args:  obj("order_id", "W8127731", "reason", "customer request", "requested_at", "2025-03-06T14:30:12Z"),
			Rules: map[string]toolgrade.Rule{"order_id": {From: ref}, "requested_at": {Ignore: true}}},
			`cancel_order({"order_id":<from find_order.output.order.id>,"reason":"customer request","requested_at":<any>})`},
		{"long", toolgrade.Call{Name: "f", Args: obj("a", strings.Repeat("é", 100)), Rules: map[string]toolgrade.Rule{"b": {Type: "string"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(appendExpected(nil, &tt.call))
			if tt.want == "" {
				if len(got) > 170 || !strings.Contains(got, "...") || !strings.HasSuffix(got, `"b":<string>})`) {
					t.Errorf("appendExpected = %q (%d bytes), want the long value cut and the rule shown", got, len(got))
				}
				return
			}
			if got != tt.want {
				t.Errorf("appendExpected = %s, want %s", got, tt.want)
			}
		})
	}
}

// The reasons kept for cases whose calls all matched read as the reason
// written for them, and a case graded so gets that text.
func TestAllMatchedReasons(t *testing.T) {
	for n, reason := range allMatched {
		if want := "all " + strconv.Itoa(n) + " expected calls matched"; reason != want {
			t.Errorf("allMatched[%d] = %q, want %q", n, reason, want)
		}
	}
	m, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls := []toolgrade.Call{{Name: "a"}, {Name: "b", Args: jsonvalue.Object{{Key: "x", Value: "y"}}}}
	c := &toolgrade.Case{Expected: calls, Called: calls}
	if got, want := m.Grade(context.Background(), c).Reason, "all 2 expected calls matched"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
	// Beyond the kept reasons, and with more to say, the text is written.
	var many []toolgrade.Call
	for i := range len(allMatched) {
		many = append(many, toolgrade.Call{Name: "f" + strconv.Itoa(i)})
	}
	if got, want := m.Grade(context.Background(), &toolgrade.Case{Expected: many, Called: many}).Reason, "all 9 expected calls matched"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
	ignore, err := New(Options{Args: ArgsIgnore})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ignore.Grade(context.Background(), c).Reason, "all 2 expected calls matched; arguments not compared (args: ignore)"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
}
