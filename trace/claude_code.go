package trace

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// readClaudeCode reads a Claude Code session transcript
// (~/.claude/projects/<project>/<session>.jsonl): one record per line,
// {"type": "user"|"assistant", "message": {Anthropic message}, "uuid",
// "parentUuid", ...}, among lines of other types (summary, system, file
// history snapshots, queue operations) that hold no calls. One assistant
// message may be split over several lines sharing message.id, a content
// block per line; the blocks are read line by line, so calls keep their
// order. Tool results come as tool_result blocks in user lines. The
// {"loglines": [...]} export wraps the same records.
//
// readClaudeStream reads the --output-format stream-json output of Claude
// Code and the Claude Agent SDK: the same user and assistant records with
// session_id and parent_tool_use_id (subagent calls are calls too), among
// system, result and stream_event records; the partial stream_event
// messages repeat what the assistant records give whole.
func readClaudeCode(b *builder, v any) error {
	return readClaudeLines(b, v, "a Claude Code transcript (JSON Lines of {\"type\", \"message\"}) or {\"loglines\"}")
}

func readClaudeStream(b *builder, v any) error {
	return readClaudeLines(b, v, "Claude Code stream-json output (JSON Lines of {\"type\", \"message\"})")
}

func readClaudeLines(b *builder, v any, want string) error {
	b.unique = true // a message split over lines may repeat a block
	path := ""
	switch o := v.(type) {
	case jsonvalue.Object:
		if l, ok := get(o, "loglines").([]any); ok {
			v, path = l, "loglines"
		} else if isClaudeRecord(o) {
			v = []any{o}
		}
	}
	lines, ok := v.([]any)
	if !ok {
		return wantError(want, v)
	}
	for i, l := range lines {
		o, ok := l.(jsonvalue.Object)
		p := index(path, i)
		if !ok {
			return fieldError(p, "want a record object, got %s", jsonvalue.Kind(l))
		}
		t := str(o, "type")
		switch {
		case t == "user" || t == "assistant":
			msg, ok := get(o, "message").(jsonvalue.Object)
			if !ok {
				b.skip(p, "%s record without a message", t)
				continue
			}
			b.saw()
			if err := anthropicBlocks(b, get(msg, "content"), join(p, "message.content")); err != nil {
				return err
			}
		case claudePlainRecords[t]:
			b.saw()
		case t == "":
			b.skip(p, "record with keys %s", quoteKeys(o))
		default:
			b.skip(p, "record of type %q", t)
		}
	}
	return nil
}

// claudePlainRecords are the record types of transcripts and streams that
// hold no calls (last-prompt, from Claude Code 2.1, repeats the session's
// last prompt).
var claudePlainRecords = map[string]bool{
	"summary": true, "system": true, "file-history-snapshot": true, "queue-operation": true,
	"last-prompt": true, "progress": true, "custom-title": true, "tag": true, "result": true, "stream_event": true,
	"rate_limit_event": true, "auth_status": true, "tool_progress": true, "keep_alive": true,
	"control_request": true, "control_response": true, "control_cancel_request": true,
}

// isClaudeRecord reports a Claude Code transcript or stream record.
func isClaudeRecord(o jsonvalue.Object) bool {
	t := str(o, "type")
	if t != "user" && t != "assistant" {
		return false
	}
	_, ok := get(o, "message").(jsonvalue.Object)
	return ok
}

// claudeFormat tells a stream-json record from a transcript line: only
// the stream has snake_case session_id, parent_tool_use_id and
// tool_use_result, and only transcripts have uuid, parentUuid, sessionId
// and toolUseResult. A record with neither is "" (either format).
func claudeFormat(o jsonvalue.Object) string {
	switch {
	case hasAny(o, "uuid", "parentUuid", "sessionId", "isSidechain", "toolUseResult"):
		return "claude_code"
	case hasAny(o, "session_id", "parent_tool_use_id", "tool_use_result"):
		return "claude_code_stream_json"
	}
	return ""
}
