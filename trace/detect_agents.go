package trace

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Detection of agent CLI session logs and agent framework dumps.

// detectAgentLog names the format of a whole-trace object of an agent CLI
// or framework, or "".
func detectAgentLog(o jsonvalue.Object) string {
	switch {
	case has(o, "loglines"):
		return "claude_code"
	case isRunState(o):
		return "openai_agents_runstate"
	case o.Has("projectHash") && o.Has("messages"):
		return "gemini_cli"
	case o.Has("eval") && o.Has("samples"):
		return "inspect_ai"
	}
	if events, ok := get(o, "events").([]any); ok {
		if hasAny(o, "appName", "app_name", "userId", "user_id") || firstIsADKEvent(events) {
			return "adk_events"
		}
	}
	if t, ok := get(o, "trajectory").([]any); ok && len(t) > 0 {
		if isSWEStep(t[0]) {
			return "swe_agent"
		}
		if e, ok := t[0].(jsonvalue.Object); ok && isOpenHandsEvent(e) {
			return "openhands_trajectory"
		}
	}
	if h, ok := get(o, "history").([]any); ok && len(h) > 0 {
		if sweHasActions(h) {
			return "swe_agent"
		}
		if e, ok := h[0].(jsonvalue.Object); ok && isOpenHandsEvent(e) {
			return "openhands_trajectory"
		}
	}
	return ""
}

// classifyAgentLog names the format one record or message belongs to when
// only an agent CLI or framework writes it, or "".
func classifyAgentLog(o jsonvalue.Object) string {
	t := str(o, "type")
	switch {
	case isClaudeRecord(o):
		if f := claudeFormat(o); f != "" {
			return f
		}
		return "claude_code"
	case o.Has("payload") && (t == "response_item" || codexPlainRecords[t]):
		return "codex_rollout"
	case o.Has("toolCalls") || (t == "gemini" && o.Has("content")) ||
		(isGeminiCLIMessage(o) && o.Has("id") && o.Has("timestamp")):
		return "gemini_cli"
	case isADKEvent(o):
		return "adk_events"
	case isRunItem(o):
		return "openai_agents_runstate"
	case isOpenHandsEvent(o):
		return "openhands_trajectory"
	case isSWEStep(o):
		return "swe_agent"
	case o.Has("kind") && o.Has("parts") && hasPartKind(list(o, "parts")):
		return "pydantic_ai"
	case str(o, "role") == "tool" && o.Has("tool_call_id"):
		if _, ok := get(o, "function").(string); ok {
			return "inspect_ai"
		}
	}
	return ""
}

func hasPartKind(parts []any) bool {
	for _, p := range parts {
		if has(p, "part_kind") {
			return true
		}
	}
	return false
}

func firstIsADKEvent(events []any) bool {
	if len(events) == 0 {
		return false
	}
	e, ok := events[0].(jsonvalue.Object)
	return ok && isADKEvent(e)
}
