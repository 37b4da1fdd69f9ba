package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "claude_code",
		keys:  []string{"loglines", "message"},
		read:  readClaudeCode,
		trace: func(o jsonvalue.Object) level { return when(has(o, "loglines"), decisive) },
		item: itemObject(func(o jsonvalue.Object) level {
			if !isClaudeRecord(o) {
				return no
			}
			switch claudeFormat(o) {
			case "claude_code":
				return decisive
			case "":
				return guess // a record of either Claude format: a later one may tell which
			}
			return no
		}),
	})
	register(format{
		name: "claude_code_stream_json",
		keys: []string{"message"},
		read: readClaudeStream,
		item: itemObject(func(o jsonvalue.Object) level {
			return when(isClaudeRecord(o) && claudeFormat(o) == "claude_code_stream_json", decisive)
		}),
	})
}

// readClaudeCode reads a Claude Code session transcript
// (~/.claude/projects/<project>/<session>.jsonl): one record per line,
// {"type": "user"|"assistant", "message": {Anthropic message}, "uuid",
// "parentUuid", ...}, among lines of other types (summary, system, file
// history snapshots, queue operations) that hold no calls. One assistant
// message may be split over several lines sharing message.id, a content
// block per line; the blocks are read line by line, so calls keep their
// order. Tool results come as tool_result blocks in user lines; a user
// line with the user's own prompt opens a turn (see claudeUserTurn). The
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
			// A line that is no record (a bare string, say) is an item
			// of the transcript not understood, not its end.
			b.skip(l, p, "a JSON %s, not a record", jsonvalue.Kind(l))
			continue
		}
		if err := claudeRecord(b, o, p); err != nil {
			return err
		}
	}
	return nil
}

// claudeRecord reads one record of a transcript or stream at path p.
func claudeRecord(b *builder, o jsonvalue.Object, p string) error {
	t := str(o, "type")
	switch {
	case t == "user" || t == "assistant":
		msg, ok := get(o, "message").(jsonvalue.Object)
		if !ok {
			b.skip(o, p, "%s record without a message", t)
			return nil
		}
		b.saw()
		if t == "user" && claudeUserTurn(o, get(msg, "content")) {
			b.userTurn(get(msg, "content"))
		}
		return anthropicBlocks(b, get(msg, "content"), join(p, "message.content"))
	case t == "progress":
		b.saw()
		return claudeProgress(b, o, p)
	case t == "control_request":
		b.saw()
		claudeControl(b, o)
	case claudePlainRecords[t]:
		b.saw()
	case t == "":
		b.skip(o, p, "record with keys %s", quoteKeys(o))
	default:
		b.skip(o, p, "record of type %q", t)
	}
	return nil
}

// claudeProgress reads a progress record: an agent_progress record holds
// a message of a sub-agent (Task) run, {"data": {"type":
// "agent_progress", "message": {"type", "message": {"content"}}}}, whose
// tool_use blocks are calls (a sub-agent's calls are calls, as sidechain
// lines are) and tool_result blocks their results; it opens no turn.
// Other progress (hooks, commands, searches) holds no call.
func claudeProgress(b *builder, o jsonvalue.Object, p string) error {
	data := obj(o, "data")
	if str(data, "type") != "agent_progress" {
		return nil
	}
	msg, ok := get(obj(data, "message"), "message").(jsonvalue.Object)
	if !ok {
		return nil // progress without a message: the run's prompt or state
	}
	return anthropicBlocks(b, get(msg, "content"), join(p, "data.message.message.content"))
}

// claudeControl reads a control request of the Claude Agent SDK's
// protocol. A permission request (can_use_tool) or hook callback about a
// call shows it again, with its tool_use_id; the agent definitions an
// initialize request gives are not calls. An mcp_message request carries
// the JSON-RPC tools/call by which the CLI runs a tool of an MCP server
// inside the SDK: the run of the mcp__<server>__<tool> call the model
// made, or, when that call is not in the recording, the call itself.
func claudeControl(b *builder, o jsonvalue.Object) {
	req := obj(o, "request")
	switch str(req, "subtype") {
	case "initialize":
		b.notCall(get(req, "agents"), "agent definitions")
	case "mcp_message":
		m := obj(req, "message")
		if str(m, "method") != "tools/call" {
			return
		}
		params := obj(m, "params")
		c := toolgrade.Call{Name: "mcp__" + str(req, "server_name") + "__" + str(params, "name")}
		for k := len(b.calls) - 1; k >= 0; k-- {
			if b.calls[k].Name == c.Name {
				b.read(m)
				return
			}
		}
		args(&c, params, "arguments")
		b.add(m, c)
	}
}

// claudeUserTurn reports whether a user record is a prompt of the human
// user, which opens a turn: not tool results, not what Claude Code adds
// itself (isMeta lines, a compaction summary, slash-command lines and
// their output, interruption notes), and not a subagent's prompt
// (isSidechain, or parent_tool_use_id in a stream).
func claudeUserTurn(o jsonvalue.Object, content any) bool {
	if get(o, "isMeta") == true || get(o, "isSidechain") == true || get(o, "isCompactSummary") == true ||
		get(o, "parent_tool_use_id") != nil || !ownContent(content, anthropicResult) {
		return false
	}
	text, _ := content.(string)
	if blocks, ok := content.([]any); ok && len(blocks) == 1 {
		text = str(blocks[0], "text")
	}
	text = strings.TrimSpace(text)
	for _, prefix := range claudeInjected {
		if strings.HasPrefix(text, prefix) {
			return false
		}
	}
	return true
}

// claudeInjected are the starts of user lines that Claude Code writes
// itself: slash commands and their output, and interruption notes.
var claudeInjected = []string{"<command-name>", "<command-message>", "<command-args>",
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"Caveat: The messages below were generated by the user while running local commands",
	"[Request interrupted by user"}

// claudePlainRecords are the record types of transcripts and streams that
// hold no calls (last-prompt, from Claude Code 2.1, repeats the session's
// last prompt).
var claudePlainRecords = map[string]bool{
	"summary": true, "system": true, "file-history-snapshot": true, "queue-operation": true,
	"last-prompt": true, "custom-title": true, "tag": true, "result": true, "stream_event": true,
	"rate_limit_event": true, "auth_status": true, "tool_progress": true, "keep_alive": true,
	"control_response": true, "control_cancel_request": true,
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
// tool_use_result, and only transcripts have parentUuid, sessionId and
// toolUseResult. Both may carry uuid (the stream of recent versions does),
// so uuid counts for a transcript only when neither kind of key is there.
// A record with none of these is "" (either format).
func claudeFormat(o jsonvalue.Object) string {
	switch {
	case hasAny(o, "parentUuid", "sessionId", "isSidechain", "toolUseResult"):
		return "claude_code"
	case hasAny(o, "session_id", "parent_tool_use_id", "tool_use_result"):
		return "claude_code_stream_json"
	case o.Has("uuid"):
		return "claude_code"
	}
	return ""
}
