package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

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
func readOpenAIAgents(b *builder, v any) error {
	b.unique = true // session items repeat generated items
	switch o := v.(type) {
	case []any:
		return agentItems(b, o, "")
	case jsonvalue.Object:
		if isRunState(o) {
			b.saw()
			if in, ok := get(o, "original_input").([]any); ok {
				if err := responsesItems(b, in, "original_input"); err != nil {
					return err
				}
			}
			for _, key := range []string{"generated_items", "session_items"} {
				items, _ := get(o, key).([]any)
				if err := agentItems(b, items, key); err != nil {
					return err
				}
			}
			return nil
		}
		if isRunItem(o) {
			return agentItems(b, []any{o}, "")
		}
	}
	return wantError("an Agents SDK RunState or a list of run items", v)
}

// isRunState reports a serialized RunState.
func isRunState(o jsonvalue.Object) bool {
	return o.Has("$schemaVersion") || (o.Has("generated_items") && o.Has("current_agent"))
}

// isRunItem reports a serialized run item.
func isRunItem(o jsonvalue.Object) bool {
	return o.Has("raw_item") && strings.HasSuffix(str(o, "type"), "_item")
}

func agentItems(b *builder, items []any, path string) error {
	for i, it := range items {
		o, ok := it.(jsonvalue.Object)
		p := index(path, i)
		if !ok {
			return fieldError(p, "want a run item object, got %s", jsonvalue.Kind(it))
		}
		if !o.Has("raw_item") {
			if o.Has("type") || o.Has("role") {
				// A plain Responses item among the run items.
				if err := responsesItem(b, o, p); err != nil {
					return err
				}
				continue
			}
			b.skip(p, "run item with keys %s", quoteKeys(o))
			continue
		}
		raw, ok := get(o, "raw_item").(jsonvalue.Object)
		if !ok {
			return fieldError(join(p, "raw_item"), "want an item object, got %s", jsonvalue.Kind(get(o, "raw_item")))
		}
		if !raw.Has("type") && raw.Has("call_id") && raw.Has("output") {
			// A tool output given as a bare {"call_id", "output"}.
			b.result(p, id(get(raw, "call_id")), "", get(raw, "output"))
			continue
		}
		if !raw.Has("type") && !raw.Has("role") {
			b.skip(join(p, "raw_item"), "%s with keys %s", str(o, "type"), quoteKeys(raw))
			continue
		}
		if err := responsesItem(b, raw, join(p, "raw_item")); err != nil {
			return err
		}
	}
	return nil
}
