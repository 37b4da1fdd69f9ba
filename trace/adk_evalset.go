package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "adk_evalset",
		keys: []string{"eval_cases", "evalCases", "eval_case_results", "evalCaseResults", "eval_id", "evalId", "expected_tool_use", "data"},
		read: readADKEvalSet,
		trace: func(o jsonvalue.Object) level {
			return when(hasAny(o, "eval_cases", "evalCases", "eval_case_results", "evalCaseResults") ||
				hasAny(o, "eval_id", "evalId") && hasAny(o, adkCaseKeys...), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(isADKLegacyRow(o) || o.Has("name") && isADKLegacyRow(asObject(first0(list(o, "data")))), decisive)
		}),
	})
}

// adkCaseKeys are the keys of an eval case, or of an eval case's result,
// beside its id.
var adkCaseKeys = []string{"conversation", "conversation_scenario", "conversationScenario",
	"eval_metric_result_per_invocation", "evalMetricResultPerInvocation"}

// isADKLegacyRow reports a row of ADK's old eval data: {"query",
// "expected_tool_use", "reference"}.
func isADKLegacyRow(o jsonvalue.Object) bool { return o.Has("query") && o.Has("expected_tool_use") }

func first0(l []any) any {
	if len(l) == 0 {
		return nil
	}
	return l[0]
}

// readADKEvalSet reads Google ADK eval data (google/adk-python,
// evaluation/eval_set.py, eval_case.py, eval_result.py), its keys
// snake_case or camelCase:
//
//   - an EvalSet {"eval_set_id", "eval_cases": [EvalCase]}
//     (*.evalset.json, *.test.json), each eval case a record with its
//     eval_id: its conversation's invocations are its user turns (the
//     user_content), and the tool uses recorded in each (intermediate_data
//     tool_uses, with tool_responses as their results by id, or the
//     function calls and responses of its invocation_events) its calls,
//     the calls the eval set expects; a case with a conversation_scenario
//     (a user simulator's plan) has none;
//   - an EvalSetResult {"eval_set_result_id", "eval_case_results"}
//     (.adk/eval_history/*.evalset_result.json, which ADK writes as a
//     JSON string holding the document), each case's result a record:
//     its calls are the actual invocations' (eval_metric_result_per_
//     invocation[].actual_invocation); the expected invocations are
//     declared no calls (they are the eval set's), and session_details
//     shows the actual calls again;
//   - one EvalCase or EvalCaseResult, read as the trace;
//   - ADK's old format: a list of rows {"query", "expected_tool_use":
//     [{"tool_name", "tool_input"}], "reference"}, each row a turn (a
//     *.test.json is one eval case), or a list of named ones {"name",
//     "data": [rows], "initial_session"}, each a record.
//
// Every Content's parts are read as Gemini parts (function_call,
// function_response), the null fields ADK writes for a part's other
// kinds left out. Session state (session_input, initial_session,
// final_session_state) is no call.
func readADKEvalSet(b *builder, v any) error {
	if l, ok := v.([]any); ok {
		if !has(first0(l), "data") {
			adkLegacyRows(b, l, "")
			return nil
		}
		for i, e := range l {
			p := index("", i)
			if !has(e, "data") {
				b.skip(e, p, "entry that is no named eval case {\"name\", \"data\"}")
				continue
			}
			b.record(get(e, "name"), p)
			b.notCall(get(e, "initial_session"), "the session's initial state")
			adkLegacyRows(b, list(e, "data"), join(p, "data"))
		}
		return nil
	}
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return wantError(`an ADK EvalSet {"eval_cases"}, EvalSetResult {"eval_case_results"} or eval case`, v)
	}
	for _, k := range []string{"eval_cases", "evalCases", "eval_case_results", "evalCaseResults"} {
		cases, ok := o.Get(k)
		if !ok {
			continue
		}
		b.saw()
		for i, c := range asList(cases) {
			p := index(k, i)
			co, ok := c.(jsonvalue.Object)
			if !ok {
				b.skip(c, p, "eval case that is %s", jsonvalue.Kind(c))
				continue
			}
			id, _ := first(co, "eval_id", "evalId")
			b.record(id, p)
			adkEvalCase(b, co, p)
		}
		return nil
	}
	if !hasAny(o, "eval_id", "evalId") {
		return wantError(`an ADK EvalSet {"eval_cases"}, EvalSetResult {"eval_case_results"} or eval case`, v)
	}
	adkEvalCase(b, o, "")
	return nil
}

// adkEvalCase reads an eval case, or an eval case's result, at path.
func adkEvalCase(b *builder, c jsonvalue.Object, path string) {
	b.saw()
	for _, k := range []string{"session_input", "sessionInput", "final_session_state", "finalSessionState"} {
		b.notCall(get(c, k), "session state")
	}
	if s, ok := first(c, "conversation_scenario", "conversationScenario"); ok {
		b.notCall(s, "a user simulator's scenario")
	}
	for _, k := range []string{"conversation", "eval_metric_result_per_invocation", "evalMetricResultPerInvocation"} {
		for i, inv := range list(c, k) {
			p := index(join(path, k), i)
			if k == "conversation" {
				adkInvocation(b, inv, p)
				continue
			}
			actual, _ := first(inv, "actual_invocation", "actualInvocation")
			adkInvocation(b, actual, join(p, "actual_invocation"))
			expected, _ := first(inv, "expected_invocation", "expectedInvocation")
			b.notCall(expected, "the expected invocation, the eval set's")
		}
	}
	if s, ok := first(c, "session_details", "sessionDetails"); ok {
		b.read(s) // the session the actual invocations were taken from
	}
}

// adkInvocation reads one invocation, a user turn, at path.
func adkInvocation(b *builder, inv any, path string) {
	if inv == nil {
		return
	}
	b.saw()
	user, _ := first(inv, "user_content", "userContent")
	parts := adkParts(b, list(user, "parts"))
	b.userTurn(slices.DeleteFunc(slices.Clone(parts), func(p any) bool { return p == nil }))
	adkContent(b, parts, join(path, "user_content.parts"))
	data, _ := first(inv, "intermediate_data", "intermediateData")
	uses, _ := first(data, "tool_uses", "toolUses")
	for _, fc := range asList(uses) {
		c := toolgrade.Call{Name: str(fc, "name"), ID: id(get(fc, "id"))}
		args(&c, fc, "args")
		b.add(fc, c)
	}
	responses, _ := first(data, "tool_responses", "toolResponses")
	for i, fr := range asList(responses) {
		resp := get(fr, "response")
		b.link(index(join(path, "intermediate_data.tool_responses"), i), id(get(fr, "id")), str(fr, "name"), resp, get(resp, "error") != nil)
	}
	steps, _ := first(data, "intermediate_responses", "intermediateResponses")
	for i, s := range asList(steps) {
		// (author, parts)
		if pair := asList(s); len(pair) == 2 {
			adkContent(b, adkParts(b, asList(pair[1])), index(join(path, "intermediate_data.intermediate_responses"), i)+"[1]")
		}
	}
	events, _ := first(data, "invocation_events", "invocationEvents")
	for i, e := range asList(events) {
		adkContent(b, adkParts(b, list(get(e, "content"), "parts")), join(index(join(path, "intermediate_data.invocation_events"), i), "content.parts"))
	}
	final, _ := first(inv, "final_response", "finalResponse")
	adkContent(b, adkParts(b, list(final, "parts")), join(path, "final_response.parts"))
}

// adkParts returns a content's parts without the null fields ADK writes
// for a part's other kinds, each copy standing for its part; a part all
// of whose fields are null holds nothing, and is nil.
func adkParts(b *builder, parts []any) []any {
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		o, ok := p.(jsonvalue.Object)
		if !ok {
			out = append(out, p)
			continue
		}
		var kept jsonvalue.Object
		for _, m := range o {
			if m.Value != nil {
				kept = append(kept, m)
			}
		}
		switch {
		case len(kept) == 0 && len(o) > 0:
			out = append(out, nil)
			continue
		case len(kept) < len(o):
			b.copied(kept, o)
		}
		out = append(out, kept)
	}
	return out
}

// adkContent reads parts as Gemini parts.
func adkContent(b *builder, parts []any, path string) {
	if len(parts) == 0 {
		return
	}
	gs := &geminiStream{open: -1}
	if err := geminiParts(b, gs, parts, path); err != nil {
		b.skip(parts, path, "content that is no Gemini content (%v)", err)
	}
	gs.close(b)
}

// adkLegacyRows reads rows of ADK's old eval data, each a user turn.
func adkLegacyRows(b *builder, rows []any, path string) {
	for i, r := range rows {
		p := index(path, i)
		if !isADKLegacyRow(asObject(r)) {
			b.skip(r, p, "row that is no {\"query\", \"expected_tool_use\"}")
			continue
		}
		b.saw()
		b.userTurn(get(r, "query"))
		for _, tu := range list(r, "expected_tool_use") {
			c := toolgrade.Call{Name: str(tu, "tool_name")}
			args(&c, tu, "tool_input")
			k := b.add(tu, c)
			if out, ok := first(tu, "mock_tool_output"); ok {
				b.set(k, out)
			}
		}
	}
}
