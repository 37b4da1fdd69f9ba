package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "openai_agents_runstate",
		keys:  []string{"$schemaVersion", "generated_items", "generatedItems", "raw_item", "rawItem"},
		read:  readOpenAIAgents,
		trace: func(o jsonvalue.Object) level { return when(isRunState(o), decisive) },
		item:  itemObject(func(o jsonvalue.Object) level { return when(isRunItem(o), decisive) }),
	})
}

// readOpenAIAgents reads the OpenAI Agents SDK: a serialized RunState
// (RunState.to_json / to_string: {"$schemaVersion", "original_input",
// "generated_items", "session_items", "model_responses", ...}) or a list
// of run items ({"type": "tool_call_item", "raw_item": {...}}, as
// RunResult.new_items serialize). Each run item's raw_item is a Responses
// API item, read as the openai_responses format reads it: function and
// custom tool calls, handoffs (function calls named transfer_to_*), MCP
// calls and approval requests, built-in tools, and their outputs. A
// RunState's original_input (when a list of items), generated_items and
// session_items are read in that order, each call once; model_responses
// and last_processed_response repeat the same items and are not read
// again.
//
// The JavaScript SDK (@openai/agents, RunState.toJSON / toString) writes
// the same state in camelCase: originalInput, generatedItems and
// rawItem, whose items spell call ids callId and name a tool's output
// function_call_result; these are read as their Python counterparts.
//
// A run interrupted for approval lists the calls it waits on in
// current_step (currentStep) {"type": "next_step_interruption", "data":
// {"interruptions": [tool_approval_item, ...]}}: calls without a result.
// An agent used as a tool whose run is pending keeps that run as a whole
// RunState, read after the run that called it: as JSON text in
// pendingAgentToolRuns["<tool name>:<call id>"] (JavaScript), or as the
// agent_run_state of the call's entry in last_processed_response.functions
// (Python). Approval records (context.approvalInvocations,
// functionApprovals) and completedToolInvocations bind call ids to
// fingerprints of the calls (tool and arguments): no calls.
func readOpenAIAgents(b *builder, v any) error {
	b.unique = true // session items repeat generated items
	switch o := v.(type) {
	case []any:
		return agentItems(b, o, "")
	case jsonvalue.Object:
		if isRunState(o) {
			return runState(b, o, "", 0)
		}
		if isRunItem(o) {
			return agentItems(b, []any{o}, "")
		}
	}
	return wantError("an Agents SDK RunState or a list of run items", v)
}

// maxNestedRuns bounds how deep runs of agents used as tools, each held
// as JSON text in the run that called it, are read.
const maxNestedRuns = 8

// runState reads a RunState at path; depth counts the runs of agents
// used as tools it is nested in. A nested run's input is the arguments
// of the call that started it, read already.
func runState(b *builder, o jsonvalue.Object, path string, depth int) error {
	b.saw()
	input, keys, step, nested := "original_input", []string{"generated_items", "session_items"}, "current_step", ""
	if isJSRunState(o) || o.Has("currentStep") {
		input, keys, step, nested = "originalInput", []string{"generatedItems"}, "currentStep", "pendingAgentToolRuns"
	}
	if in, ok := get(o, input).([]any); ok && depth == 0 {
		items := make([]any, len(in))
		for i, it := range in {
			items[i] = jsItem(b, it)
		}
		if err := responsesItems(b, items, join(path, input)); err != nil {
			return err
		}
	} else if depth > 0 {
		b.read(get(o, input))
	}
	for _, key := range keys {
		items, _ := get(o, key).([]any)
		if err := agentItems(b, items, join(path, key)); err != nil {
			return err
		}
	}
	// A run waiting for approval: the calls it waits on, those of runs
	// nested in it among them.
	if cur := obj(o, step); str(cur, "type") == "next_step_interruption" {
		items, _ := get(obj(cur, "data"), "interruptions").([]any)
		if err := agentItems(b, items, join(path, step+".data.interruptions")); err != nil {
			return err
		}
	}
	// Approval records bind a call id to a fingerprint of the call (its
	// tool and arguments), to refuse the id's reuse; completed invocations
	// keep the same fingerprints. The calls are read where they are.
	ctx := obj(o, "context")
	for _, key := range []string{"approvalInvocations", "functionApprovals"} {
		if v, ok := ctx.Get(key); ok {
			b.notCall(v, "approval records of calls (call ids and fingerprints), not calls")
		}
	}
	if v, ok := o.Get("completedToolInvocations"); ok {
		b.notCall(v, "fingerprints of completed calls, not calls")
	}
	// Agents used as tools whose runs are pending: the JavaScript SDK
	// keeps each run as a RunState in JSON text, under "<tool name>:<call
	// id>" of the call that started it; the Python SDK as an object, the
	// agent_run_state of that call's entry in the processed response.
	for _, m := range obj(o, nested) {
		p := join(join(path, nested), m.Key)
		text, isText := m.Value.(string)
		if !isText {
			b.skip(m.Value, p, "pending agent tool run that is %s, not JSON text", jsonvalue.Kind(m.Value))
			continue
		}
		v, err := b.parse(text)
		if err != nil {
			return fieldError(p, "%v", err)
		}
		if err := nestedRun(b, v, p, depth); err != nil {
			return err
		}
	}
	for i, f := range list(obj(o, "last_processed_response"), "functions") {
		if v, ok := first(f, "agent_run_state"); ok {
			p := join(index(join(path, "last_processed_response.functions"), i), "agent_run_state")
			if err := nestedRun(b, v, p, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// nestedRun reads the run of an agent used as a tool, in the run at
// depth.
func nestedRun(b *builder, v any, path string, depth int) error {
	run, isRun := v.(jsonvalue.Object)
	switch {
	case !isRun || !isRunState(run):
		b.skip(v, path, "pending agent tool run that is %s, not a RunState", describe(v))
	case depth >= maxNestedRuns:
		b.skip(v, path, "agent tool run nested more than %d deep", maxNestedRuns)
	default:
		return runState(b, run, path, depth+1)
	}
	return nil
}

// isRunState reports a serialized RunState.
func isRunState(o jsonvalue.Object) bool {
	return o.Has("$schemaVersion") || (o.Has("generated_items") && o.Has("current_agent")) ||
		isJSRunState(o)
}

// isJSRunState reports a RunState the JavaScript SDK serialized.
func isJSRunState(o jsonvalue.Object) bool {
	return o.Has("generatedItems") && (o.Has("currentAgent") || o.Has("originalInput"))
}

// isRunItem reports a serialized run item.
func isRunItem(o jsonvalue.Object) bool {
	return (o.Has("raw_item") || o.Has("rawItem")) && strings.HasSuffix(str(o, "type"), "_item")
}

// jsItem gives an item of the JavaScript SDK's protocol the Responses API
// spelling the Python SDK writes: callId becomes call_id, and a
// function_call_result a function_call_output. Other values are returned
// as they are.
func jsItem(b *builder, v any) any {
	o, ok := v.(jsonvalue.Object)
	if !ok || !o.Has("callId") || o.Has("call_id") {
		return v
	}
	out := make(jsonvalue.Object, 0, len(o))
	for _, m := range o {
		switch {
		case m.Key == "callId":
			m.Key = "call_id"
		case m.Key == "type" && m.Value == "function_call_result":
			m.Value = "function_call_output"
		}
		out = append(out, m)
	}
	b.copied(out, o)
	return out
}

func agentItems(b *builder, items []any, path string) error {
	for i, it := range items {
		o, ok := it.(jsonvalue.Object)
		p := index(path, i)
		if !ok {
			return fieldError(p, "want a run item object, got %s", jsonvalue.Kind(it))
		}
		rawKey := "raw_item"
		if !o.Has(rawKey) && o.Has("rawItem") {
			rawKey = "rawItem"
		}
		if !o.Has(rawKey) {
			if !o.Has("type") && (o.Has("tool_calls") || str(o, "role") == "tool") {
				// A Chat Completions style message: no Responses item.
				b.skip(o, p, "chat message with role %q", str(o, "role"))
				continue
			}
			if o.Has("type") || o.Has("role") {
				// A plain Responses item among the run items.
				if err := responsesItem(b, o, p); err != nil {
					return err
				}
				continue
			}
			b.skip(o, p, "run item with keys %s", quoteKeys(o))
			continue
		}
		raw, ok := jsItem(b, get(o, rawKey)).(jsonvalue.Object)
		if !ok {
			return fieldError(join(p, rawKey), "want an item object, got %s", jsonvalue.Kind(get(o, rawKey)))
		}
		if !raw.Has("type") && raw.Has("call_id") && raw.Has("output") {
			// A tool output given as a bare {"call_id", "output"}.
			b.result(p, id(get(raw, "call_id")), "", get(raw, "output"))
			continue
		}
		if !raw.Has("type") && !raw.Has("role") {
			b.skip(raw, join(p, rawKey), "%s with keys %s", str(o, "type"), quoteKeys(raw))
			continue
		}
		if err := responsesItem(b, raw, join(p, rawKey)); err != nil {
			return err
		}
	}
	return nil
}
