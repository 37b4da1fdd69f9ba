package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "langchain",
		keys: []string{"lc", "type", "role"},
		read: readLangChain,
		item: itemObject(func(o jsonvalue.Object) level {
			switch {
			case o.Has("lc") && o.Has("kwargs"):
				return decisive // dumpd's constructor form
			case has(o, "type") && langChainKinds[langChainKind(str(o, "type"))] && (o.Has("content") || o.Has("data")):
				return decisive
			case o.Has("role"):
				tc, ok := firstEntry(o, "tool_calls")
				return when(ok && has(tc, "args") && !has(tc, "requestor") && !isInspectCall(tc) && !has(tc, "function") && !has(tc, "custom"), decisive)
			}
			return no
		}),
	})
}

// readLangChain reads LangChain / LangGraph messages in every serialized
// dict form: {"type": "ai", ...} (message.model_dump()), {"role":
// "assistant", ...}, {"type": "ai", "data": {...}} (messages_to_dict), and
// {"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs":
// {...}} (dumpd); a list of them, or a LangGraph state {"messages"}.
//
// AI messages carry tool_calls [{"id", "name", "args"}] and
// invalid_tool_calls (args kept as raw text, the call marked invalid). The
// same call may also appear in additional_kwargs (OpenAI form) or as a
// content block (tool_use, tool_call, function_call): such views are
// dropped by id. Tool messages link by tool_call_id; status "error" wraps
// the content. Each human message opens a turn.
func readLangChain(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return langChainMessages(b, v, "")
	case jsonvalue.Object:
		if msgs, ok := get(v, "messages").([]any); ok {
			return langChainMessages(b, msgs, "messages")
		}
		if kind, _ := langChainMessage(v); kind != "" {
			return langChainMessages(b, []any{v}, "")
		}
	}
	return wantError("a list of LangChain messages or a LangGraph state", v)
}

// langChainKinds are the message kinds, as langChainKind spells them.
var langChainKinds = map[string]bool{"ai": true, "human": true, "tool": true, "system": true,
	"function": true, "chat": true, "developer": true, "remove": true}

// langChainKind turns a type or class name ("AIMessageChunk",
// "ToolMessage", "ai") into a kind ("ai", "tool").
func langChainKind(t string) string {
	t = strings.TrimSuffix(t, "Chunk")
	t = strings.TrimSuffix(t, "Message")
	return strings.ToLower(t)
}

// roleKinds maps chat roles to kinds.
var roleKinds = map[string]string{"assistant": "ai", "user": "human", "tool": "tool",
	"system": "system", "function": "function", "developer": "system"}

// langChainMessage returns a message's kind and the object holding its
// fields, whatever the serialized form.
func langChainMessage(o jsonvalue.Object) (string, jsonvalue.Object) {
	switch {
	case o.Has("lc") && o.Has("kwargs"):
		ids := list(o, "id")
		cls := ""
		if len(ids) > 0 {
			cls, _ = ids[len(ids)-1].(string)
		}
		return kindOf(langChainKind(cls), obj(o, "kwargs")), obj(o, "kwargs")
	case o.Has("data") && o.Has("type"):
		return kindOf(langChainKind(str(o, "type")), obj(o, "data")), obj(o, "data")
	case o.Has("type"):
		return kindOf(langChainKind(str(o, "type")), o), o
	case o.Has("role"):
		return roleKinds[str(o, "role")], o
	}
	return "", o
}

// kindOf resolves a ChatMessage's kind from its role.
func kindOf(kind string, fields jsonvalue.Object) string {
	if kind == "chat" || kind == "generic" {
		return roleKinds[str(fields, "role")]
	}
	return kind
}

func langChainMessages(b *builder, msgs []any, path string) error {
	for i, m := range msgs {
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a message object, got %s", jsonvalue.Kind(m))
		}
		p := index(path, i)
		kind, f := langChainMessage(o)
		if kind == "" && !o.Has("role") && !langChainKinds[langChainKind(str(o, "type"))] {
			return wantError("a LangChain message at "+p, o)
		}
		switch kind {
		case "ai":
			if err := langChainCalls(b, f, p); err != nil {
				return err
			}
		case "tool":
			out := get(f, "content")
			if str(f, "status") == "error" {
				out = failed(out)
			}
			b.result(p, id(get(f, "tool_call_id")), str(f, "name"), out)
		case "function":
			b.result(p, "", str(f, "name"), get(f, "content"))
		case "human":
			b.saw()
			b.userTurn(get(f, "content"))
		case "system", "developer", "chat", "remove":
			b.saw()
		case "":
			b.skip(o, p, "message with role %q", str(f, "role"))
		default:
			b.skip(o, p, "message of kind %q", kind)
		}
	}
	return nil
}

// langChainCalls reads the calls of one AI message, dropping repeated
// views of a call by id.
func langChainCalls(b *builder, f jsonvalue.Object, path string) error {
	var seen []string
	n := 0
	// add adds a call unless it repeats one by id; a view without an id
	// is added only when the message has no other calls.
	add := func(src any, c toolgrade.Call, view bool) {
		if c.ID != "" {
			for _, s := range seen {
				if s == c.ID {
					b.read(src) // a view of a call read before
					return
				}
			}
			seen = append(seen, c.ID)
		} else if view && n > 0 {
			b.read(src)
			return
		}
		b.add(src, c)
		n++
	}
	for j, tc := range list(f, "tool_calls") {
		p := index(join(path, "tool_calls"), j)
		c, err := chatToolCall(tc, p)
		if err != nil {
			return err
		}
		add(tc, c, false)
	}
	for _, tc := range list(f, "invalid_tool_calls") {
		raw, _ := get(tc, "args").(string)
		add(tc, toolgrade.Call{Name: str(tc, "name"), ID: id(get(tc, "id")), ArgsRaw: raw, Invalid: true}, false)
	}
	// Views of the same calls, kept only when they add a call.
	for j, bl := range list(f, "content") {
		p := index(join(path, "content"), j)
		var c toolgrade.Call
		switch str(bl, "type") {
		case "tool_use":
			c.ID = id(get(bl, "id"))
			args(&c, bl, "input")
		case "tool_call":
			c.ID = id(get(bl, "id"))
			args(&c, bl, "args")
		case "function_call":
			c.ID = id(get(bl, "call_id"))
			args(&c, bl, "arguments")
		case "":
			// LangChain's content blocks are strings or typed objects; an
			// object without a type (a Bedrock toolUse block, say) is of
			// no form it writes.
			if o, ok := bl.(jsonvalue.Object); ok {
				b.skip(o, p, "content block with keys %s", quoteKeys(o))
			}
			continue
		default:
			continue
		}
		var err error
		if c.Name, err = name(bl, "name", p); err != nil {
			return err
		}
		add(bl, c, true)
	}
	kw := obj(f, "additional_kwargs")
	for j, tc := range list(kw, "tool_calls") {
		c, err := chatToolCall(tc, index(join(path, "additional_kwargs.tool_calls"), j))
		if err != nil {
			return err
		}
		add(tc, c, true)
	}
	if fc, ok := kw.Get("function_call"); ok && fc != nil {
		nm, err := name(fc, "name", join(path, "additional_kwargs.function_call"))
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: nm}
		args(&c, fc, "arguments")
		add(fc, c, true)
	}
	return nil
}
