// Package trace extracts tool calls from agent traces in the common
// formats, detecting the format by content.
package trace

import (
	"fmt"

	"github.com/toolgrade/toolgrade"
)

// A Trace is the result of reading a trace: its format and the calls in it,
// in call order, with outputs linked.
type Trace struct {
	Format string
	Calls  []toolgrade.Call
}

// Extract reads the calls from a trace already decoded into the value
// model. format forces a reader by name; "" detects it.
func Extract(v any, format string) (Trace, error) {
	if format == "" || format == "openai_chat" {
		if msgs, ok := v.([]any); ok {
			calls, err := openAIChat(msgs)
			if err != nil {
				return Trace{}, err
			}
			return Trace{Format: "openai_chat", Calls: calls}, nil
		}
	}
	return Trace{}, fmt.Errorf("unrecognized trace: a %s", toolgrade.Kind(v))
}

// openAIChat reads OpenAI chat messages: assistant tool_calls, answered by
// role "tool" messages with the same tool_call_id.
func openAIChat(msgs []any) ([]toolgrade.Call, error) {
	var calls []toolgrade.Call
	for i, m := range msgs {
		msg, ok := m.(toolgrade.Object)
		if !ok {
			return nil, fmt.Errorf("message %d: want an object, got %s", i, toolgrade.Kind(m))
		}
		role, _ := msg.Get("role")
		switch role {
		case "assistant":
			tcs, _ := msg.Get("tool_calls")
			list, _ := tcs.([]any)
			for j, tc := range list {
				c, err := toolgrade.DecodeCall(tc)
				if err != nil {
					return nil, toolgrade.InField(fmt.Sprintf("[%d].tool_calls[%d]", i, j), err)
				}
				c.Type = ""
				calls = append(calls, c)
			}
		case "tool":
			id, _ := msg.Get("tool_call_id")
			content, _ := msg.Get("content")
			linkOutput(calls, id, content)
		}
	}
	return calls, nil
}

// linkOutput gives a result to the most recent unanswered call with its id,
// or, without an id, to the earliest unanswered call.
func linkOutput(calls []toolgrade.Call, id any, output any) {
	answered := func(c *toolgrade.Call) bool { return c.Output != nil }
	if s, ok := id.(string); ok && s != "" {
		for k := len(calls) - 1; k >= 0; k-- {
			if calls[k].ID == s && !answered(&calls[k]) {
				calls[k].Output = output
				return
			}
		}
		return
	}
	for k := range calls {
		if !answered(&calls[k]) {
			calls[k].Output = output
			return
		}
	}
}
