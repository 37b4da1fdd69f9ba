package runner

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/trace"
)

// prompt gives what a case sends first: the chat messages and the tools,
// from the Prompt option when it takes the case, else from the case's
// input and tools.
func (r *Runner) prompt(c *toolgrade.Case) ([]any, []toolgrade.Tool, error) {
	if r.opts.Prompt != nil {
		if msgs, tools, ok, err := r.opts.Prompt(c, r.opts.Tools); ok || err != nil {
			return msgs, tools, err
		}
	}
	msgs, err := inputMessages(c)
	if err != nil {
		return nil, nil, err
	}
	tools, err := caseTools(c, r.opts.Tools)
	if err != nil {
		return nil, nil, err
	}
	return msgs, tools, nil
}

// inputMessages turns what a case asks into the chat messages sent first:
// its input as text (one user message), content parts (one user message
// with those parts: text, image_url, input_audio, file), or chat messages
// (sent as given); a case without input may give "messages".
func inputMessages(c *toolgrade.Case) ([]any, error) {
	in, field := c.Input, "input"
	if in == nil {
		if m, ok := c.Raw.Get("messages"); ok {
			in, field = m, "messages"
		}
	}
	bad := func(format string, args ...any) error {
		return &toolgrade.FieldError{Path: field, Err: fmt.Errorf(format, args...)}
	}
	switch in := in.(type) {
	case nil:
		return nil, errors.New(`the case has no input to send: add "input", the user's request (text, content parts or messages); toolgrade eval grades cases that hold their calls`)
	case string:
		return []any{userMessage(in)}, nil
	case []any:
		if len(in) == 0 {
			return nil, bad("empty list")
		}
		if allMessages(in) {
			return in, nil
		}
		parts := make([]any, len(in))
		for i, p := range in {
			switch p := p.(type) {
			case string:
				parts[i] = jsonvalue.Object{{Key: "type", Value: "text"}, {Key: "text", Value: p}}
			case jsonvalue.Object:
				if !p.Has("type") {
					return nil, bad("element %d: want a chat message (with a role) or a content part (with a type)", i)
				}
				parts[i] = p
			default:
				return nil, bad("element %d: want a chat message or a content part, got %s", i, jsonvalue.Kind(p))
			}
		}
		return []any{userMessage(parts)}, nil
	case jsonvalue.Object:
		switch {
		case in.Has("messages"):
			m, _ := in.Get("messages")
			if msgs, ok := m.([]any); ok && len(msgs) > 0 && allMessages(msgs) {
				return msgs, nil
			}
			return nil, bad("messages: want a list of chat messages")
		case in.Has("role"):
			return []any{in}, nil
		case in.Has("type"):
			return []any{userMessage([]any{in})}, nil
		}
		return nil, bad("want text, content parts or chat messages, got an object with keys %s", strings.Join(in.Keys(), ", "))
	}
	return nil, bad("want text, content parts or chat messages, got %s", jsonvalue.Kind(in))
}

func userMessage(content any) jsonvalue.Object {
	return jsonvalue.Object{{Key: "role", Value: "user"}, {Key: "content", Value: content}}
}

func allMessages(l []any) bool {
	for _, e := range l {
		if o, ok := e.(jsonvalue.Object); !ok || !o.Has("role") {
			return false
		}
	}
	return true
}

// caseTools reads the tools a case offers: its available_tools, else the
// run's tools.
func caseTools(c *toolgrade.Case, fallback []toolgrade.Tool) ([]toolgrade.Tool, error) {
	defs := schema.Definitions(c)
	if defs == nil {
		return fallback, nil
	}
	tools, err := schema.Parse(defs)
	if err != nil {
		return nil, toolgrade.InField("available_tools", err)
	}
	return tools, nil
}

// maxNameLen is the longest tool name OpenAI accepts.
const maxNameLen = 64

// apiNames gives each tool a name OpenAI's tools accept (letters, digits,
// "_" and "-", at most 64 bytes): other characters become "_" (BFCL's
// "math.factorial" is sent as "math_factorial"), long names are cut, and a
// name already taken gets "_2", "_3", ... The map leads back from the sent
// names to the tools' own.
func apiNames(tools []toolgrade.Tool) ([]string, map[string]string) {
	sent := make([]string, len(tools))
	back := make(map[string]string, len(tools))
	for i, t := range tools {
		base := schema.SanitizeName(t.Name)
		name := base
		for n := 2; ; n++ {
			if own, taken := back[name]; !taken || own == t.Name {
				break
			}
			suffix := "_" + strconv.Itoa(n)
			name = base[:min(len(base), maxNameLen-len(suffix))] + suffix
		}
		sent[i] = name
		back[name] = t.Name
	}
	return sent, back
}

// functionTools writes tools in the Chat Completions form, {"type":
// "function", "function": {"name", "description", "parameters"}}, under
// the given names.
func functionTools(tools []toolgrade.Tool, names []string) []any {
	out := make([]any, len(tools))
	for i, t := range tools {
		fn := jsonvalue.Object{{Key: "name", Value: names[i]}}
		if t.Description != "" {
			fn = append(fn, jsonvalue.Member{Key: "description", Value: t.Description})
		}
		params := t.Parameters
		if params == nil {
			params = jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "properties", Value: jsonvalue.Object{}}}
		}
		fn = append(fn, jsonvalue.Member{Key: "parameters", Value: params})
		out[i] = jsonvalue.Object{{Key: "type", Value: "function"}, {Key: "function", Value: fn}}
	}
	return out
}

// toolPrompt is the system prompt that offers the tools to a model without
// native tool calling, and tells it how to call them in the protocol the
// run parses.
func toolPrompt(tools []toolgrade.Tool, protocol trace.Protocol) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	var defs []byte
	for i, t := range functionTools(tools, names) {
		if i > 0 {
			defs = append(defs, '\n')
		}
		defs = jsonvalue.Append(defs, t)
	}
	var sb strings.Builder
	sb.WriteString("You may call functions to help with the user's request. These functions are available, each described by a JSON Schema of its arguments:\n")
	switch protocol {
	case trace.ProtocolHermes:
		sb.WriteString("<tools>\n")
		sb.Write(defs)
		sb.WriteString("\n</tools>\n\nTo call a function, write a JSON object with its name and arguments inside <tool_call></tool_call> tags, one pair of tags per call:\n<tool_call>\n{\"name\": \"<function name>\", \"arguments\": {\"<argument>\": <value>}}\n</tool_call>")
	case trace.ProtocolJSON:
		sb.Write(defs)
		sb.WriteString("\n\nTo call functions, reply with nothing but a JSON list of the calls:\n[{\"name\": \"<function name>\", \"arguments\": {\"<argument>\": <value>}}]")
	case trace.ProtocolPythonic:
		sb.Write(defs)
		sb.WriteString("\n\nTo call functions, reply with nothing but a Python list of the calls, with keyword arguments:\n[function_name(argument=value, other_argument=value)]")
	}
	sb.WriteString("\nIf no function fits the request, answer in plain text instead.")
	return sb.String()
}

// withSystem puts a system prompt before the messages, joined to a system
// message that already opens them (chat templates often allow one).
func withSystem(msgs []any, prompt string) []any {
	if len(msgs) > 0 {
		if m, ok := msgs[0].(jsonvalue.Object); ok {
			role, _ := m.Get("role")
			content, _ := m.Get("content")
			if text, isText := content.(string); (role == "system" || role == "developer") && isText {
				joined := append(jsonvalue.Object(nil), m...)
				joined.Set("content", prompt+"\n\n"+text)
				return append([]any{joined}, msgs[1:]...)
			}
		}
	}
	sys := jsonvalue.Object{{Key: "role", Value: "system"}, {Key: "content", Value: prompt}}
	return append([]any{sys}, msgs...)
}
