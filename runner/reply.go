package runner

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// A reply is what one Chat Completions response says.
type reply struct {
	body    any              // the response, in the value model
	message jsonvalue.Object // choices[0].message; nil when there is none
	text    string           // the message's text content
	refusal string
	calls   []toolgrade.Call // named as the model wrote them
	parsed  bool             // the calls came out of the text, not tool_calls
	// promptTokens and completionTokens are the usage the response
	// reports.
	promptTokens, completionTokens int64
}

// readReply reads a Chat Completions response: the first choice's message,
// its text, refusal and tool calls (tool_calls or a legacy function_call,
// read as package trace reads OpenAI chat messages). When the message has
// no such calls and protocol is set, the calls are parsed out of its text
// (see [trace.ParseToolCalls]). An error means the response is not a chat
// completion, or its tool calls are malformed beyond reading.
func readReply(data []byte, protocol trace.Protocol) (reply, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return reply{}, fmt.Errorf("the reply is not JSON: %w", err)
	}
	r := reply{body: v}
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return r, fmt.Errorf("the reply is %s, not a chat completion object", jsonvalue.Kind(v))
	}
	if u, ok := obj.Get("usage"); ok {
		r.promptTokens = count(u, "prompt_tokens")
		r.completionTokens = count(u, "completion_tokens")
	}
	choices, _ := obj.Get("choices")
	list, ok := choices.([]any)
	if !ok {
		return r, fmt.Errorf(`the reply has no "choices" list`)
	}
	if len(list) == 0 {
		return r, nil
	}
	first, _ := list[0].(jsonvalue.Object)
	m, _ := first.Get("message")
	if r.message, ok = m.(jsonvalue.Object); !ok {
		return r, nil
	}
	content, _ := r.message.Get("content")
	r.text = contentText(content)
	if s, ok := get(r.message, "refusal").(string); ok {
		r.refusal = s
	}
	if hasCalls(r.message) {
		tr, err := trace.Extract(r.message, "openai_chat")
		if err != nil {
			return r, fmt.Errorf("the reply's tool calls are malformed: %w", err)
		}
		r.calls = tr.Calls
		return r, nil
	}
	if protocol != "" && r.text != "" {
		if r.calls, err = trace.ParseToolCalls(r.text, protocol); err != nil {
			return r, err
		}
		r.parsed = true
	}
	return r, nil
}

func hasCalls(msg jsonvalue.Object) bool {
	tcs, _ := msg.Get("tool_calls")
	fc, _ := msg.Get("function_call")
	l, isList := tcs.([]any)
	return isList && len(l) > 0 || !isList && tcs != nil || fc != nil
}

// contentText is a message's text: its content string, or the text of its
// text parts.
func contentText(content any) string {
	switch c := content.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			if t, ok := get(p, "text").(string); ok {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func get(v any, key string) any {
	if o, ok := v.(jsonvalue.Object); ok {
		x, _ := o.Get(key)
		return x
	}
	return nil
}

// count reads a token count; anything but a number is 0.
func count(v any, key string) int64 {
	n, ok := get(v, key).(json.Number)
	if !ok {
		return 0
	}
	return int64(jsonvalue.NumberFloat(n))
}

// argsText writes a call's arguments as the JSON text a tool_calls entry
// carries: the raw text of arguments that did not parse.
func argsText(c toolgrade.Call) string {
	switch {
	case c.Invalid:
		return c.ArgsRaw
	case c.Args == nil:
		return "{}"
	}
	return string(jsonvalue.Append(nil, c.Args))
}
