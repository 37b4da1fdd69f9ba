package trace

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// readCodexRollout reads an OpenAI Codex CLI rollout
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one record per line,
// {"timestamp", "type", "payload"}. response_item payloads are Responses
// API items (function_call, custom_tool_call, local_shell_call,
// web_search_call and their outputs, read as the openai_responses format
// reads them); session_meta, turn_context, event_msg and compacted records
// repeat or describe the session and hold no calls of their own. Rollouts
// of early versions, a session header {"id", "timestamp", "instructions"}
// followed by bare items and {"record_type": "state"} lines, are read too.
func readCodexRollout(b *builder, v any) error {
	lines, ok := v.([]any)
	if !ok {
		if o, ok := v.(jsonvalue.Object); ok && o.Has("payload") {
			lines = []any{o}
		} else {
			return wantError("a Codex rollout (JSON Lines of {\"type\", \"payload\"})", v)
		}
	}
	for i, l := range lines {
		o, ok := l.(jsonvalue.Object)
		p := index("", i)
		if !ok {
			return fieldError(p, "want a record object, got %s", jsonvalue.Kind(l))
		}
		t := str(o, "type")
		switch {
		case o.Has("payload") && t == "response_item":
			item, ok := get(o, "payload").(jsonvalue.Object)
			if !ok {
				return fieldError(join(p, "payload"), "want an item object, got %s", jsonvalue.Kind(get(o, "payload")))
			}
			if err := codexItem(b, item, join(p, "payload")); err != nil {
				return err
			}
		case o.Has("payload") && codexPlainRecords[t]:
			b.saw()
		case o.Has("payload"):
			b.skip(p, "record of type %q", t)
		case o.Has("record_type") || (i == 0 && o.Has("instructions")):
			b.saw() // early rollouts: state lines and the session header
		case o.Has("type"):
			if err := codexItem(b, o, p); err != nil {
				return err
			}
		default:
			b.skip(p, "record with keys %s", quoteKeys(o))
		}
	}
	return nil
}

// codexPlainRecords are the rollout record types that hold no calls.
var codexPlainRecords = map[string]bool{"session_meta": true, "turn_context": true,
	"event_msg": true, "compacted": true}

// codexItem reads one Responses item of a rollout; ghost_snapshot items
// (Codex's undo points) hold no calls.
func codexItem(b *builder, item jsonvalue.Object, path string) error {
	switch str(item, "type") {
	case "ghost_snapshot", "compaction_summary", "compaction":
		b.saw()
		return nil
	}
	return responsesItem(b, item, path)
}
