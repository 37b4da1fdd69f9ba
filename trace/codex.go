package trace

import (
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "codex_rollout",
		keys: []string{"payload"},
		read: readCodexRollout,
		item: itemObject(func(o jsonvalue.Object) level {
			t := str(o, "type")
			return when(o.Has("payload") && (t == "response_item" || codexPlainRecords[t]), decisive)
		}),
	})
}

// readCodexRollout reads an OpenAI Codex CLI rollout
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one record per line,
// {"timestamp", "type", "payload"}. response_item payloads are Responses
// API items (function_call, custom_tool_call, local_shell_call,
// web_search_call and their outputs, read as the openai_responses format
// reads them); session_meta, turn_context, event_msg and compacted records
// repeat or describe the session and hold no calls of their own. Rollouts
// of early versions, a session header {"id", "timestamp", "instructions"}
// followed by bare items and {"record_type": "state"} lines, are read too.
//
// A tool output that reports a command's exit code other than 0 (see
// codexExitCode) is a failed result. A user message opens a turn, except
// the context Codex sends as user messages (<environment_context>,
// <user_instructions>, AGENTS.md instructions, <user_shell_command>,
// <turn_aborted>, <subagent_notification>).
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
			b.skip(l, p, "a JSON %s, not a record", jsonvalue.Kind(l))
			continue
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
		case o.Has("payload") && t == "event_msg":
			b.saw()
			b.read(o) // an event that repeats what the response items give
		case o.Has("payload") && codexPlainRecords[t]:
			b.saw()
		case o.Has("payload"):
			b.skip(o, p, "record of type %q", t)
		case o.Has("record_type") || (i == 0 && o.Has("instructions")):
			b.saw() // early rollouts: state lines and the session header
		case o.Has("type"):
			if err := codexItem(b, o, p); err != nil {
				return err
			}
		default:
			b.skip(o, p, "record with keys %s", quoteKeys(o))
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
	switch t := str(item, "type"); {
	case t == "ghost_snapshot" || t == "compaction_summary" || t == "compaction":
		b.saw()
		return nil
	case str(item, "role") == "user" && codexContext(get(item, "content")):
		b.saw() // context Codex sends as a user message: not a turn
		return nil
	case (t == "function_call_output" || t == "custom_tool_call_output") && codexExitCode(get(item, "output")) != 0:
		b.link(path, id(get(item, "call_id")), "", get(item, "output"), true)
		return nil
	}
	return responsesItem(b, item, path)
}

// codexContext reports a user message that Codex writes itself: the
// environment context, the user's instructions (AGENTS.md), a shell
// command the user ran (!cmd), a note that a turn was aborted.
func codexContext(content any) bool {
	text, _ := content.(string)
	if parts, ok := content.([]any); ok && len(parts) > 0 {
		text = str(parts[0], "text")
	}
	text = strings.TrimSpace(text)
	for _, prefix := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions",
		"<user_shell_command>", "<turn_aborted>", "<subagent_notification>"} {
		if strings.HasPrefix(text, prefix) {
			return true
		}
	}
	return false
}

// codexExitCode reads the exit code a command's output reports, in the
// forms Codex writes it: JSON {"output", "metadata": {"exit_code"}}, or
// text starting "Exit code: N" or holding a line "Process exited with
// code N". It is 0 when the output reports none.
func codexExitCode(output any) int {
	text, ok := output.(string)
	if !ok {
		return 0
	}
	if strings.HasPrefix(text, "{") {
		if v, err := jsonvalue.ParseString(text); err == nil {
			n, _ := strconv.Atoi(id(get(obj(v, "metadata"), "exit_code")))
			return n
		}
	}
	for i, line := range strings.SplitN(text, "\n", 8) {
		if rest, ok := strings.CutPrefix(line, "Exit code: "); ok && i == 0 {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			return n
		}
		if rest, ok := strings.CutPrefix(line, "Process exited with code "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			return n
		}
	}
	return 0
}
