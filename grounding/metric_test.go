package grounding_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// newCase builds a case from a JSON record with the fields input, turns
// (a list of inputs), tools_called, trajectory and available_tools.
func newCase(t testing.TB, record string) *toolgrade.Case {
	t.Helper()
	v, err := jsonvalue.ParseString(record)
	if err != nil {
		t.Fatalf("case: %v", err)
	}
	obj := v.(jsonvalue.Object)
	c := &toolgrade.Case{Raw: obj}
	c.Input, _ = obj.Get("input")
	if turns, ok := obj.Get("turns"); ok {
		for _, in := range turns.([]any) {
			c.Turns = append(c.Turns, toolgrade.Turn{Input: in})
		}
	}
	if called, ok := obj.Get("tools_called"); ok {
		if c.Called, err = compat.DecodeCalls(called); err != nil {
			t.Fatalf("tools_called: %v", err)
		}
	}
	if tr, ok := obj.Get("trajectory"); ok {
		// As a case file gives it: calls and turns from the trace.
		c.Trajectory = tr
		x, err := trace.Extract(tr, "")
		if err != nil {
			t.Fatalf("trajectory: %v", err)
		}
		c.Called = x.Calls
		for _, in := range x.Inputs {
			c.Turns = append(c.Turns, toolgrade.Turn{Input: in})
		}
	}
	return c
}

func grade(t testing.TB, opts grounding.Options, record string) toolgrade.MetricResult {
	t.Helper()
	m, err := grounding.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m.Grade(context.Background(), newCase(t, record))
}

func diffPaths(r toolgrade.MetricResult) []string {
	paths := []string{}
	for _, d := range toolgrade.DetailOf[toolgrade.Diffs](&r) {
		paths = append(paths, d.Path)
	}
	return paths
}

func TestGrade(t *testing.T) {
	const orderTools = `"available_tools": [{"name": "set_plan", "parameters": {"type": "object", "properties": {
		"plan": {"type": "string", "enum": ["pro_2024", "basic_v2"]},
		"region": {"type": "string", "default": "eu-west-1"},
		"seats": {"type": "integer", "examples": [2500]},
		"coupon": {"const": "WELCOME10"},
		"properties": {"type": "object", "properties": {"enum": {"type": "string", "description": "tag X9Y8"}}}}}}]`
	tests := []struct {
		name   string
		opts   grounding.Options
		record string
		score  float64
		paths  []string // of the ungrounded values
		reason string   // a part of the reason
	}{
		{"id from the input", grounding.Options{},
			`{"input": "Please cancel order #W2378156", "tools_called": [{"name": "cancel_order", "args": {"order_id": "#W2378156"}}]}`,
			1, nil, "the one checked value was found"},
		{"id from an earlier output", grounding.Options{},
			`{"input": "Cancel my last order", "tools_called": [
				{"name": "find_orders", "args": {}, "output": {"orders": [{"id": "W2378156", "status": "pending"}]}},
				{"name": "cancel_order", "args": {"order_id": "W2378156"}}]}`,
			1, nil, ""},
		{"id from a later output", grounding.Options{},
			`{"input": "Cancel my last order", "tools_called": [
				{"name": "cancel_order", "args": {"order_id": "W2378156"}},
				{"name": "find_orders", "args": {}, "output": {"orders": [{"id": "W2378156"}]}}]}`,
			0, []string{"#0 cancel_order.order_id"}, `likely invented: #0 cancel_order.order_id "W2378156"`},
		{"id from its own call's output", grounding.Options{},
			`{"input": "Cancel it", "tools_called": [{"name": "cancel_order", "args": {"order_id": "W2378156"}, "output": "order W2378156 cancelled"}]}`,
			0, []string{"#0 cancel_order.order_id"}, ""},
		{"id in an output serialized as JSON text", grounding.Options{},
			`{"input": "Cancel my last order", "tools_called": [
				{"name": "find_orders", "output": "{\"orders\": [{\"id\": \"ord_8123\", \"note\": \"caf\\u00e9 A1B2-C3\"}]}"},
				{"name": "cancel_order", "args": {"order_id": "ord_8123", "note": "café A1B2-C3"}}]}`,
			1, nil, ""},
		{"id as an object key of an output", grounding.Options{},
			`{"input": "Cancel my order", "tools_called": [
				{"name": "find_orders", "output": {"W2378156": {"status": "pending"}}},
				{"name": "cancel_order", "args": {"order_id": "W2378156"}}]}`,
			1, nil, ""},
		{"invented id and email", grounding.Options{},
			`{"input": "Email Bob that order W100 shipped", "tools_called": [
				{"name": "send_email", "args": {"to": "bob@example.com", "subject": "Order W100 shipped", "order": "W101"}}]}`,
			0, []string{"#0 send_email.to", "#0 send_email.order"}, "0 of 2 checked values grounded"},
		{"emails ignore case", grounding.Options{},
			`{"input": "Email BOB@Example.com", "tools_called": [{"name": "send_email", "args": {"to": "bob@example.com"}}]}`,
			1, nil, ""},
		{"ids are case-sensitive", grounding.Options{},
			`{"input": "Order w2378156", "tools_called": [{"name": "get_order", "args": {"order_id": "W2378156"}}]}`,
			0, []string{"#0 get_order.order_id"}, ""},
		{"number of 4 digits invented", grounding.Options{},
			`{"input": "Send 50 dollars to my savings account", "tools_called": [{"name": "transfer", "args": {"amount": 50, "days": 3, "account": 4821, "urgent": true}}]}`,
			0, []string{"#0 transfer.account"}, ""},
		{"numbers compare by their digits", grounding.Options{},
			`{"input": "Pay invoice 1234 for $1,299.50 and reference INV98765", "tools_called": [{"name": "pay", "args": {"invoice": 1234.0, "amount": 1299.5, "ref": 98765, "invoice_text": "1234", "amount_text": "1,299.50"}}]}`,
			1, nil, "all 5 checked values were found"},
		{"decimal strings are checked", grounding.Options{},
			`{"input": "Pay 1299.50", "tools_called": [{"name": "pay", "args": {"amount": "1299.5", "other": "4321.75"}}]}`,
			0.5, []string{"#0 pay.other"}, ""},
		{"a number is not grounded by a longer one", grounding.Options{},
			`{"input": "Invoice 12345", "tools_called": [{"name": "pay", "args": {"invoice": 1234}}]}`,
			0, []string{"#0 pay.invoice"}, ""},
		{"min_digits", grounding.Options{MinDigits: 5},
			`{"input": "Pay", "tools_called": [{"name": "pay", "args": {"invoice": 1234, "ref": "4321"}}]}`,
			1, nil, "no values to check"},
		{"phone number with separators", grounding.Options{},
			`{"input": "Call me at +1 (555) 123-4567", "tools_called": [{"name": "call", "args": {"to": "5551234567", "alt": 5551234567, "fmt": "555-123-4567"}}]}`,
			1, nil, ""},
		{"enum, default, examples and const from the schema", grounding.Options{},
			`{"input": "Upgrade me", ` + orderTools + `, "tools_called": [{"name": "set_plan", "args": {"plan": "pro_2024", "region": "eu-west-1", "seats": 2500, "coupon": "WELCOME10"}}]}`,
			1, nil, ""},
		{"schema values of another tool do not count", grounding.Options{},
			`{"input": "Upgrade me", ` + orderTools + `, "tools_called": [{"name": "other", "args": {"plan": "pro_2024"}}]}`,
			0, []string{"#0 other.plan"}, ""},
		{"descriptions and property names are no source", grounding.Options{},
			`{"input": "Upgrade me", ` + orderTools + `, "tools_called": [{"name": "set_plan", "args": {"properties": {"enum": "X9Y8"}}}]}`,
			0, []string{"#0 set_plan.properties.enum"}, ""},
		{"run tools when the case has none", grounding.Options{Tools: []toolgrade.Tool{{Name: "set_plan", Parameters: jsonvalue.MustFrom(map[string]any{"enum": []any{"pro_2024"}})}}},
			`{"input": "Upgrade me", "tools_called": [{"name": "set_plan", "args": {"plan": "pro_2024"}}]}`,
			1, nil, ""},
		{"ignore_args by name at any depth", grounding.Options{IgnoreArgs: []string{"session_id"}},
			`{"input": "hi", "tools_called": [{"name": "f", "args": {"session_id": "s3ss10n", "ctx": {"session_id": "abc123"}, "id": "X123"}}]}`,
			0, []string{"#0 f.id"}, ""},
		{"ignore_args by path", grounding.Options{IgnoreArgs: []string{"items[0].sku", "meta.*.trace"}},
			`{"input": "hi", "tools_called": [{"name": "f", "args": {"items": [{"sku": "SKU123"}, {"sku": "SKU456"}], "meta": {"a": {"trace": "T1234"}}}}]}`,
			0, []string{"#0 f.items[1].sku"}, ""},
		{"ignore_tools", grounding.Options{IgnoreTools: []string{"search_*"}},
			`{"input": "hi", "tools_called": [{"name": "search_web", "args": {"q": "X1234"}, "output": "see Y9876"}, {"name": "open", "args": {"id": "Y9876"}}]}`,
			1, nil, "the one checked value"},
		{"turns: a later message does not ground an earlier call", grounding.Options{},
			`{"turns": ["Where is my order?", "It is W2378156"], "tools_called": [
				{"name": "get_order", "args": {"order_id": "W2378156"}, "turn": 1},
				{"name": "get_order", "args": {"order_id": "W2378156"}, "turn": 2}]}`,
			0.5, []string{"#0 get_order.order_id"}, ""},
		{"turns: calls without turn numbers see every turn", grounding.Options{},
			`{"turns": ["Where is my order?", "It is W2378156"], "tools_called": [{"name": "get_order", "args": {"order_id": "W2378156"}}]}`,
			1, nil, ""},
		{"trajectory: user messages", grounding.Options{},
			`{"trajectory": [
				{"role": "user", "content": [{"type": "text", "text": "Where is order W2378156?"}]},
				{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"W2378156\"}"}}]},
				{"role": "tool", "tool_call_id": "c1", "content": "not found"},
				{"role": "assistant", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"W2378157\"}"}}]}]}`,
			0.5, []string{"#1 get_order.order_id"}, ""},
		{"nested values and JSON in strings", grounding.Options{},
			`{"input": "Order SKU-1234X", "tools_called": [{"name": "order", "args": {"items": [{"sku": "SKU-1234X"}, {"sku": "SKU-9999Z"}], "extra": "{\"ref\": \"R2D2C3PO\"}"}}]}`,
			1.0 / 3, []string{"#0 order.items[1].sku", "#0 order.extra.ref"}, ""},
		{"arguments that are a bare value", grounding.Options{},
			`{"input": "hi", "tools_called": [{"name": "lookup", "args": ["ZX81", "hello"]}]}`,
			0, []string{"#0 lookup[0]"}, ""},
		{"plain words, small numbers, dates are not checked", grounding.Options{},
			`{"input": "Book a table", "tools_called": [{"name": "book", "args": {"city": "Paris", "people": 4, "date": "2026-03-06", "time": "19:30", "when": "2026-03-06T19:30:00Z", "slot": "2nd", "at": "10am", "note": null}}]}`,
			1, nil, "no values to check"},
		{"urls", grounding.Options{},
			`{"input": "Summarize https://example.com/post/42", "tools_called": [{"name": "fetch", "args": {"url": "https://example.com/post/42/", "other": "https://example.com/made-up"}}]}`,
			0.5, []string{"#0 fetch.other"}, ""},
		{"min_length checks plain text", grounding.Options{MinLength: 8},
			`{"input": "Ship it to 12 Grimmauld Place, London", "tools_called": [{"name": "ship", "args": {"address": "12 Grimmauld Place", "city": "London", "recipient": "Sirius Black"}}]}`,
			0.5, []string{"#0 ship.recipient"}, ""},
		{"content parts and messages as input", grounding.Options{},
			`{"input": [{"role": "user", "content": [{"type": "text", "text": "Refund order ord_777"}]}], "tools_called": [{"name": "refund", "args": {"order_id": "ord_777"}}]}`,
			1, nil, ""},
		{"invalid arguments are not checked", grounding.Options{},
			`{"input": "hi", "tools_called": [{"name": "f", "arguments": "{oops"}]}`,
			1, nil, "call #0 f not checked: arguments are not valid JSON"},
		{"no calls", grounding.Options{}, `{"input": "hi"}`, 1, nil, "no values to check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, tt.opts, tt.record)
			if r.Error != "" {
				t.Fatalf("error: %s", r.Error)
			}
			if d := r.Score - tt.score; d > 1e-9 || d < -1e-9 {
				t.Errorf("score = %v, want %v (reason: %s)", r.Score, tt.score, r.Reason)
			}
			if got := diffPaths(r); !slices.Equal(got, append([]string{}, tt.paths...)) {
				t.Errorf("diff paths = %q, want %q (reason: %s)", got, tt.paths, r.Reason)
			}
			for _, d := range toolgrade.DetailOf[toolgrade.Diffs](&r) {
				if d.Note != grounding.Note || d.Got == nil {
					t.Errorf("diff %+v: want Got set and the note %q", d, grounding.Note)
				}
			}
			if !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("reason = %q, want it to contain %q", r.Reason, tt.reason)
			}
			if r.Success != (r.Score >= 1) {
				t.Errorf("success = %v with score %v and the default threshold", r.Success, r.Score)
			}
			if r.Name != "grounding" || r.Profile != "default" {
				t.Errorf("name, profile = %q, %q", r.Name, r.Profile)
			}
		})
	}
}

// A trajectory's user messages are sources by turn, as its trace reader
// numbers the calls.
func TestTrajectoryTurns(t *testing.T) {
	c := newCase(t, `{"trajectory": [
		{"role": "user", "content": "Where is my order?"},
		{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"W2378156\"}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "not found"},
		{"role": "user", "content": "Sorry, it is W2378156"},
		{"role": "assistant", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"W2378156\"}"}}]}]}`)
	m, _ := grounding.New(grounding.Options{})
	r := m.Grade(context.Background(), c)
	if got := diffPaths(r); r.Score != 0.5 || !slices.Equal(got, []string{"#0 get_order.order_id"}) {
		t.Errorf("score %v, diffs %q; want 0.5 and the turn-1 call", r.Score, got)
	}
}

func TestGradeDiffValues(t *testing.T) {
	r := grade(t, grounding.Options{}, `{"input": "hi", "tools_called": [{"name": "f"}, {"name": "pay", "args": {"n": 98765.5, "to": "x@y.io"}}]}`)
	want := []toolgrade.ArgDiff{
		{Path: "#1 pay.n", Got: jsonvalue.MustFrom(98765.5), Note: grounding.Note},
		{Path: "#1 pay.to", Got: "x@y.io", Note: grounding.Note},
	}
	if len(toolgrade.DetailOf[toolgrade.Diffs](&r)) != len(want) {
		t.Fatalf("diffs = %+v, want %+v", toolgrade.DetailOf[toolgrade.Diffs](&r), want)
	}
	for i := range want {
		if toolgrade.DetailOf[toolgrade.Diffs](&r)[i].Path != want[i].Path || !jsonvalue.Equal(toolgrade.DetailOf[toolgrade.Diffs](&r)[i].Got, want[i].Got) || toolgrade.DetailOf[toolgrade.Diffs](&r)[i].Note != want[i].Note || toolgrade.DetailOf[toolgrade.Diffs](&r)[i].Expected != nil {
			t.Errorf("diff %d = %+v, want %+v", i, toolgrade.DetailOf[toolgrade.Diffs](&r)[i], want[i])
		}
	}
}

func TestThreshold(t *testing.T) {
	record := `{"input": "W1000", "tools_called": [{"name": "f", "args": {"a": "W1000", "b": "W2000"}}]}`
	if r := grade(t, grounding.Options{Threshold: toolgrade.Float(0.5)}, record); !r.Success || r.Score != 0.5 {
		t.Errorf("threshold 0.5: success %v, score %v", r.Success, r.Score)
	}
	if r := grade(t, grounding.Options{}, record); r.Success {
		t.Errorf("default threshold: success with score %v", r.Score)
	}
}

func TestCodeBuiltValues(t *testing.T) {
	m, _ := grounding.New(grounding.Options{})
	c := &toolgrade.Case{
		Input: map[string]any{"text": "order 4821"},
		Called: []toolgrade.Call{
			{Name: "get_order", Args: map[string]any{"id": 4821}},
			{Name: "get_order", Args: map[string]any{"id": 4822}},
		},
	}
	r := m.Grade(context.Background(), c)
	if r.Score != 0.5 || len(toolgrade.DetailOf[toolgrade.Diffs](&r)) != 1 || toolgrade.DetailOf[toolgrade.Diffs](&r)[0].Path != "#1 get_order.id" {
		t.Errorf("score %v, diffs %+v", r.Score, toolgrade.DetailOf[toolgrade.Diffs](&r))
	}
}

func TestBadAvailableTools(t *testing.T) {
	r := grade(t, grounding.Options{}, `{"input": "hi", "available_tools": 5, "tools_called": [{"name": "f", "args": {"a": "X123"}}]}`)
	if r.Error == "" || !strings.Contains(r.Error, "available_tools") {
		t.Errorf("error = %q, want one naming available_tools", r.Error)
	}
}

func TestNewOptionErrors(t *testing.T) {
	for _, tt := range []struct {
		opts   grounding.Options
		option string
	}{
		{grounding.Options{MinDigits: -1}, "min_digits"},
		{grounding.Options{MinLength: -3}, "min_length"},
		{grounding.Options{IgnoreArgs: []string{"a..b"}}, "ignore_args[0]"},
		{grounding.Options{IgnoreArgs: []string{"ok", ""}}, "ignore_args[1]"},
		{grounding.Options{IgnoreArgs: []string{"$.order_id"}}, "ignore_args[0]"},
		{grounding.Options{IgnoreArgs: []string{"$filter", `items["sku"]`}}, "ignore_args[1]"},
		{grounding.Options{IgnoreTools: []string{"[a-"}}, "ignore_tools[0]"},
	} {
		_, err := grounding.New(tt.opts)
		var oe *toolgrade.OptionError
		if !errors.As(err, &oe) || oe.Option != tt.option {
			t.Errorf("New(%+v) = %v, want an OptionError for %s", tt.opts, err, tt.option)
		}
	}
	m, err := grounding.New(grounding.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := m.Options()
	if o.MinDigits != grounding.DefaultMinDigits || o.MinLength != 0 || o.Threshold == nil || *o.Threshold != grounding.DefaultThreshold {
		t.Errorf("defaults = %+v", o)
	}
}
