package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// Google ADK's eval files are case files too (docs/cases.md, "ADK eval
// sets"): an EvalSet (*.evalset.json, *.test.json) gives one case per eval
// case, its invocations the case's ADK invocations, each with the tool
// uses it expects; an EvalSetResult (.adk/eval_history/*.evalset_result
// .json, as `adk eval` saves it) gives one case per eval case result, each
// invocation with the calls the agent made (the actual invocation) and
// those expected. The calls are read by package trace's adk_evalset
// reader, invocation by invocation.

// adkKeys are the keys of an EvalSet's or EvalSetResult's list of cases.
var adkKeys = []string{"eval_cases", "evalCases", "eval_case_results", "evalCaseResults"}

// mayBeADK reports whether a record's text holds `"eval`, as the key of
// an ADK file's eval cases does; only such a record is parsed to find out
// (adkFile). It is strings.Contains(data, `"eval`), which the reader asks
// of every record, looking for the rare 'v' instead of the first byte,
// '"', which JSON is full of and on which strings.Index stops every few
// bytes: a sixth of the instructions on a small case's line.
func mayBeADK(data string) bool {
	for i := 2; i < len(data)-2; {
		j := strings.IndexByte(data[i:len(data)-2], 'v')
		if j < 0 {
			return false
		}
		i += j
		if data[i-2:i+3] == `"eval` {
			return true
		}
		i++
	}
	return false
}

// adkFile yields r, a record that holds "eval, as its eval cases, one
// record each, if it is an ADK EvalSet or EvalSetResult, and as itself
// otherwise; it reports whether to go on.
func adkFile(r *record, yield func(toolgrade.Record, error) bool) bool {
	v, perr := jsonvalue.ParseString(r.data)
	o, _ := v.(jsonvalue.Object)
	for _, k := range adkKeys {
		cases, found := o.Get(k)
		if perr != nil || !found {
			continue
		}
		list, ok := cases.([]any)
		if !ok {
			return yield(r, nil) // decoding says what is wrong with it
		}
		// The eval cases' ids are not qualified by the file's name, which
		// only the records of a file were given.
		from := *r.file
		from.qualified = false
		file := *r
		file.file = &from
		for i, c := range list {
			ac := &adkCase{obj: c, result: strings.Contains(k, "esult"), where: fmt.Sprintf("%s[%d]", k, i), record: &file}
			if !yield(ac, nil) {
				return false
			}
		}
		return true
	}
	return yield(r, nil)
}

// adkCase is one eval case of an ADK EvalSet, or one eval case's result
// of an EvalSetResult.
type adkCase struct {
	obj    any
	result bool
	where  string  // "eval_cases[2]"
	record *record // the file's record
}

func (r *adkCase) Decode() (*toolgrade.Case, error) {
	id, _ := first(r.obj, "eval_id", "evalId").(string)
	stub := &toolgrade.Case{ID: id, Source: r.record.file.source, Line: r.record.line}
	if id == "" {
		stub.ID = r.record.lineID() + ":" + r.where
	}
	fail := func(err error) (*toolgrade.Case, error) {
		return stub, fmt.Errorf("%s:%d: %s: %w", r.record.file.source, r.record.line, r.where, err)
	}
	o, ok := r.obj.(jsonvalue.Object)
	if !ok {
		return fail(fmt.Errorf("want an eval case object, got %s", jsonvalue.Kind(r.obj)))
	}
	obj, warnings, err := adkCaseObject(o, r.result)
	if err != nil {
		return fail(err)
	}
	var keys caseKeys
	c, err := decodeCaseFor(obj, nil, &keys, nil)
	if err != nil {
		return fail(err)
	}
	c.ID, c.Source, c.Line = stub.ID, stub.Source, stub.Line
	c.Warnings = append(c.Warnings, warnings...)
	return c, r.record.file.checks.check(c, keys)
}

// adkCaseObject writes an eval case, or its result, as a case:
// {"id", "input", "invocations": [{"input", "expected_tools",
// "tools_called", "expected_output", "actual_output"}]}.
func adkCaseObject(o jsonvalue.Object, result bool) (jsonvalue.Object, []string, error) {
	var expected, actual []any // invocations
	if result {
		for _, e := range asList(first(o, "eval_metric_result_per_invocation", "evalMetricResultPerInvocation")) {
			actual = append(actual, first(e, "actual_invocation", "actualInvocation"))
			expected = append(expected, first(e, "expected_invocation", "expectedInvocation"))
		}
	} else {
		expected = asList(first(o, "conversation"))
	}
	var warnings []string
	switch {
	case !result && first(o, "conversation_scenario", "conversationScenario") != nil:
		warnings = append(warnings, "a user simulator's scenario, not a conversation: it has no expected calls")
	case !result:
		warnings = append(warnings, "an eval set's case holds only the calls it expects: grade the agent's run (the eval results adk eval writes under .adk/eval_history), or run a model through it")
	}
	invs := make([]any, max(len(expected), len(actual)))
	for _, side := range []struct {
		invs          []any
		calls, output string
	}{{expected, "expected_tools", "expected_output"}, {actual, "tools_called", "actual_output"}} {
		if side.invs == nil {
			continue
		}
		calls, err := adkCalls(side.invs)
		if err != nil {
			return nil, nil, err
		}
		for i, inv := range side.invs {
			t, _ := invs[i].(jsonvalue.Object)
			if t == nil {
				t = jsonvalue.Object{{Key: "input", Value: adkText(first(inv, "user_content", "userContent"))}}
			}
			if inv == nil {
				warnings = append(warnings, fmt.Sprintf("invocation %d has no %s", i+1, strings.TrimSuffix(side.calls, "_tools")+" invocation"))
			} else {
				t.Set(side.calls, calls[i])
				if out := adkText(first(inv, "final_response", "finalResponse")); out != nil {
					t.Set(side.output, out)
				}
			}
			invs[i] = t
		}
	}
	c := jsonvalue.Object{}
	if len(invs) > 0 {
		c.Set("input", get(invs[0], "input"))
	}
	c.Set("invocations", invs)
	return c, warnings, nil
}

// adkCalls reads the calls of invocations, as package trace reads them,
// and writes each invocation's in the case format.
func adkCalls(invs []any) ([][]any, error) {
	var conv []any
	for _, inv := range invs {
		if inv != nil {
			conv = append(conv, inv)
		}
	}
	tr, err := trace.Extract(jsonvalue.Object{{Key: "eval_id", Value: ""}, {Key: "conversation", Value: conv}}, "adk_evalset")
	if err != nil {
		return nil, err
	}
	out := make([][]any, len(invs))
	k := 0 // the invocation of the conversation read
	turns := make([]int, len(invs))
	for i, inv := range invs {
		if inv != nil {
			k++
			turns[i] = k
		}
		out[i] = []any{}
	}
	for _, call := range tr.Calls {
		for i, t := range turns {
			if t == call.Turn {
				out[i] = append(out[i], caseCall(call))
			}
		}
	}
	return out, nil
}

// caseCall writes a call in the case format.
func caseCall(c toolgrade.Call) jsonvalue.Object {
	o := jsonvalue.Object{{Key: "name", Value: c.Name}}
	switch {
	case c.Invalid:
		o.Set("args", c.ArgsRaw) // text that does not parse reads back as an invalid call
	default:
		o.Set("args", c.Args)
	}
	if c.ID != "" {
		o.Set("id", c.ID)
	}
	if c.Output != nil {
		o.Set("output", c.Output)
	}
	if c.Failed() {
		o.Set("status", "error")
	}
	return o
}

// adkText is a Content's text, when all its parts are text; its parts
// without their null fields otherwise; nil for no content.
func adkText(content any) any {
	parts := asList(get(content, "parts"))
	var text strings.Builder
	var kept []any
	allText := true
	for _, p := range parts {
		o, _ := p.(jsonvalue.Object)
		var k jsonvalue.Object
		for _, m := range o {
			if m.Value != nil {
				k = append(k, m)
			}
		}
		if len(k) == 0 {
			continue
		}
		kept = append(kept, k)
		if s, ok := k[0].Value.(string); ok && len(k) == 1 && k[0].Key == "text" {
			text.WriteString(s)
		} else {
			allText = false
		}
	}
	switch {
	case len(kept) == 0:
		return nil
	case allText:
		return text.String()
	}
	return kept
}

// readQuoted reads a JSON file that is one JSON string holding the
// document, as ADK writes its eval results, as the document. The string
// is one record, read within the record budget, and so is each record of
// the document it holds.
func (sp *splitter) readQuoted(br *bufio.Reader, yield func(toolgrade.Record, error) bool) error {
	name := sp.file.source
	data, err := budget.ReadAll(br, &budget.Error{Name: name, Line: 1, What: "record starting here", Limit: int64(sp.max), Flag: budget.LineFlag})
	var tooLarge *budget.Error
	if errors.As(err, &tooLarge) {
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	v, err := jsonvalue.Parse(data)
	s, ok := v.(string)
	if err != nil || !ok {
		return fmt.Errorf("%s:1: want a JSON array or object, or a JSON string holding one, got %s", name, describeJSON(v, err))
	}
	if !(Source{MaxRecord: int64(sp.max), Metrics: sp.file.metrics, checks: sp.file.checks}).reader(name, strings.NewReader(s), JSON, sp.file.qualified, yield) {
		return errStop
	}
	return nil
}

func describeJSON(v any, err error) string {
	if err != nil {
		return "invalid JSON: " + err.Error()
	}
	return jsonvalue.Kind(v)
}

func first(v any, keys ...string) any {
	o, _ := v.(jsonvalue.Object)
	for _, k := range keys {
		if x, ok := o.Get(k); ok {
			return x
		}
	}
	return nil
}

func get(v any, key string) any { return first(v, key) }

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
