package trace

import (
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "anthropic_messages",
		keys: []string{"type", "role"},
		read: readAnthropic,
		item: itemObject(func(o jsonvalue.Object) level {
			t := str(o, "type")
			switch {
			case t != "" && anthropicEvents[t]:
				return decisive
			case t == "message":
				return when(anthropicMessage(o), decisive)
			case o.Has("role"):
				// Content blocks decide; the cheap look for them first.
				blocks := list(o, "content")
				if len(blocks) == 0 || langChainKinds[langChainKind(t)] || byCalls(o) {
					return no
				}
				f, l := classifyBlocks(blocks)
				return when(f == "anthropic_messages", l)
			}
			return no
		}),
	})
}

// anthropicMessage reports a Messages API message {"type": "message"}: one
// with Anthropic content blocks, or a response with its stop_reason.
func anthropicMessage(o jsonvalue.Object) bool {
	if f, _ := classifyBlocks(list(o, "content")); f == "anthropic_messages" {
		return true
	}
	return str(o, "role") == "assistant" && has(o, "stop_reason")
}

var anthropicEvents = map[string]bool{"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true, "ping": true}

// readAnthropic reads the Anthropic Messages API: a request body
// {"messages"}, a response (one message), a list of messages, or stream
// events (message_start, content_block_start, content_block_delta, ...).
//
// tool_use blocks are calls and tool_result blocks (linked by tool_use_id)
// their results, the content as given, wrapped when is_error is true; a
// server tool's *_tool_result_error content is a failed result. A user
// message opens a turn unless it holds only tool results.
// server_tool_use blocks are built-in calls answered by *_tool_result
// blocks; mcp_tool_use blocks are calls with Type "mcp", answered by
// mcp_tool_result. In a stream, a tool block opens its call and the
// input_json_delta pieces of its index are joined; none means {}.
func readAnthropic(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return anthropicMessages(b, v, "")
	case jsonvalue.Object:
		switch {
		case v.Has("messages"):
			msgs, ok := get(v, "messages").([]any)
			if !ok {
				return fieldError("messages", "want a list of messages, got %s", jsonvalue.Kind(get(v, "messages")))
			}
			return anthropicMessages(b, msgs, "messages")
		case v.Has("content"):
			return anthropicBlocks(b, get(v, "content"), "content")
		case anthropicEvents[str(v, "type")]:
			return anthropicMessages(b, []any{v}, "")
		}
	}
	return wantError("a Messages API request, response, message list or stream events", v)
}

func anthropicMessages(b *builder, msgs []any, path string) error {
	var s anthropicStream
	users := 0
	for i, m := range msgs {
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a message object, got %s", jsonvalue.Kind(m))
		}
		if anthropicEvents[str(o, "type")] || str(o, "type") == "error" {
			if err := s.event(b, o, index(path, i)); err != nil {
				return err
			}
			continue
		}
		if !o.Has("role") { // every message has its role
			return wantError("a message or stream event at "+index(path, i), o)
		}
		b.saw()
		if str(o, "role") == "user" && ownContent(get(o, "content"), anthropicResult) {
			users++
			b.userMessage(users, get(o, "content"))
		}
		if hasAny(o, "tool_calls", "function_call") {
			b.skip(o, index(path, i), "message with Chat Completions tool_calls")
		}
		if err := anthropicBlocks(b, get(o, "content"), join(index(path, i), "content")); err != nil {
			return err
		}
	}
	return nil
}

// anthropicBlocks reads a message's content; a string content has no
// tool blocks, and content of another kind (another API's message object)
// is reported.
func anthropicBlocks(b *builder, content any, path string) error {
	blocks, ok := content.([]any)
	if !ok {
		if _, isText := content.(string); !isText && content != nil {
			b.skip(content, path, "content that is %s, not text or a list of content blocks", jsonvalue.Kind(content))
		}
		return nil
	}
	for i, bl := range blocks {
		o, ok := bl.(jsonvalue.Object)
		if !ok {
			continue
		}
		if _, err := anthropicBlock(b, o, index(path, i)); err != nil {
			return err
		}
	}
	return nil
}

// anthropicBlock reads one content block; for a tool block it returns the
// call's index, else -1.
func anthropicBlock(b *builder, o jsonvalue.Object, path string) (int, error) {
	t := str(o, "type")
	switch {
	case t == "tool_use" || t == "server_tool_use" || t == "mcp_tool_use":
		n, err := name(o, "name", path)
		if err != nil {
			return -1, err
		}
		c := toolgrade.Call{Name: n, ID: id(get(o, "id"))}
		switch t {
		case "server_tool_use":
			c.Type = n
		case "mcp_tool_use":
			c.Type = "mcp"
		}
		args(&c, o, "input")
		return b.add(o, c), nil
	case anthropicResult(o):
		out := get(o, "content")
		if e, _ := get(o, "is_error").(bool); e {
			out = failed(out)
		}
		// A server tool's failure: {"type": "web_search_tool_result_error", "error_code"}.
		b.link(path, id(get(o, "tool_use_id")), "", out, strings.HasSuffix(str(out, "type"), "_tool_result_error"))
	case !anthropicPlainBlocks[t]:
		b.skip(o, path, "content block of type %q", t)
	}
	return -1, nil
}

// anthropicResult reports a tool_result block, or a server tool's
// *_tool_result block.
func anthropicResult(block any) bool {
	t := str(block, "type")
	return t == "tool_result" || strings.HasSuffix(t, "_tool_result")
}

// anthropicPlainBlocks are the content block types that hold no call or
// result.
var anthropicPlainBlocks = map[string]bool{"text": true, "image": true, "document": true,
	"thinking": true, "redacted_thinking": true, "search_result": true,
	"container_upload": true, "file": true}

// anthropicStream follows the open content blocks of a streamed message.
type anthropicStream struct {
	round int         // message_start events seen
	open  map[int]int // call index by content block index, this message
}

func (s *anthropicStream) event(b *builder, e jsonvalue.Object, path string) error {
	switch str(e, "type") {
	case "message_start":
		s.round++
		s.open = nil
		return anthropicBlocks(b, get(obj(e, "message"), "content"), join(path, "message.content"))
	case "content_block_start":
		block := obj(e, "content_block")
		k, err := anthropicBlock(b, block, join(path, "content_block"))
		if err != nil || k < 0 {
			return err
		}
		// The opening input is a placeholder ({}); pieces follow.
		b.calls[k].Args = nil
		f := b.stream(k)
		f.emptyObject = true
		if in, ok := get(block, "input").(jsonvalue.Object); ok && len(in) > 0 {
			f.given = in
		}
		if s.open == nil {
			s.open = make(map[int]int)
		}
		idx, _ := strconv.Atoi(id(get(e, "index")))
		s.open[idx] = k
	case "content_block_delta":
		d := obj(e, "delta")
		if str(d, "type") != "input_json_delta" {
			return nil
		}
		idx, _ := strconv.Atoi(id(get(e, "index")))
		k, ok := s.open[idx]
		if !ok {
			return nil
		}
		if p, ok := get(d, "partial_json").(string); ok {
			b.stream(k).text = append(b.stream(k).text, p...)
		}
	case "content_block_stop":
		idx, _ := strconv.Atoi(id(get(e, "index")))
		if k, ok := s.open[idx]; ok {
			b.close(k)
			delete(s.open, idx)
		}
	}
	return nil
}
