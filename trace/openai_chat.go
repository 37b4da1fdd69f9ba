package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "openai_chat",
		keys: []string{"choices", "message", "role"},
		read: readOpenAIChat,
		trace: func(o jsonvalue.Object) level {
			switch {
			case o.Has("choices"):
				return decisive
			case obj(o, "message").Has("role"):
				return guess // an Ollama /api/chat response; other APIs answer so too
			}
			return no
		},
		item: itemObject(chatItem),
	})
}

// chatItem recognizes a Chat Completions message or chunk: choices, a
// tool_calls entry with its function, a legacy function call; any other
// message with a role may be one.
func chatItem(o jsonvalue.Object) level {
	// One pass over the keys: every message of a transcript is asked
	// until one decides.
	var role string
	var calls any
	hasRole, hasCalls, functionCall := false, false, false
	for i := range o {
		switch m := &o[i]; m.Key {
		case "choices":
			return decisive
		case "role":
			if !hasRole {
				hasRole = true
				role, _ = m.Value.(string)
			}
		case "tool_calls":
			if !hasCalls {
				hasCalls = true
				calls = m.Value
			}
		case "function_call":
			functionCall = true
		}
	}
	if !hasRole {
		return no
	}
	if l, _ := calls.([]any); len(l) > 0 && chatCallEntry(l[0]) {
		return decisive
	}
	if functionCall || role == "function" {
		return decisive
	}
	return fallback
}

// chatCallEntry reports a tool_calls entry only Chat Completions writes:
// with a function object (not an Inspect function name) or custom, and no
// requestor (τ²-bench's).
func chatCallEntry(tc any) bool {
	o, _ := tc.(jsonvalue.Object)
	var fn any
	hasFunction, custom := false, false
	for i := range o {
		switch m := &o[i]; m.Key {
		case "requestor":
			return false
		case "function":
			if !hasFunction {
				hasFunction = true
				fn = m.Value
			}
		case "custom":
			custom = true
		}
	}
	if _, inspect := fn.(string); inspect {
		return false
	}
	return hasFunction || custom
}

// firstEntry returns the first element of the list under key.
func firstEntry(o jsonvalue.Object, key string) (any, bool) {
	l := list(o, key)
	if len(l) == 0 {
		return nil, false
	}
	return l[0], true
}

// readOpenAIChat reads the OpenAI Chat Completions family: a list of
// messages, a request body {"messages"}, a response body {"choices"}, an
// Ollama response {"message"}, one message, or stream chunks
// (chat.completion.chunk objects, as an SSE body gives them).
//
// Assistant messages carry tool_calls (function calls {"id", "function":
// {"name", "arguments"}}, custom tool calls {"custom": {"name", "input"}})
// or a legacy function_call; role "tool" messages answer by tool_call_id,
// legacy role "function" messages by name. Each user message opens a
// turn. Entries in the flat form {"id", "name", "arguments"} (some
// providers, LangChain dicts) are read too.
func readOpenAIChat(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return chatMessages(b, v, "")
	case jsonvalue.Object:
		msgs, isList := get(v, "messages").([]any)
		switch {
		// A message's "messages" member that is no list is one of its
		// fields, as LangChain's evaluators read it.
		case v.Has("messages") && (isList || !v.Has("role")):
			if !isList {
				return fieldError("messages", "want a list of messages, got %s", jsonvalue.Kind(get(v, "messages")))
			}
			return chatMessages(b, msgs, "messages")
		case v.Has("choices"):
			var s chatStream
			return s.choices(b, v, get(v, "choices"), "")
		case v.Has("role"):
			chatParts(b, v, place{"", -1})
			return chatMessage(b, v, "")
		case has(v, "message"):
			chatParts(b, obj(v, "message"), place{"message", -1})
			return chatMessage(b, obj(v, "message"), "message")
		}
	}
	return wantError("a Chat Completions request, response, message list or stream chunks", v)
}

// chatMessages reads a list of messages, responses and stream chunks.
func chatMessages(b *builder, msgs []any, path string) error {
	var s chatStream
	users, calls := 0, 0
	for _, m := range msgs {
		calls += len(list(m, "tool_calls"))
	}
	b.reserve(calls)
	var f chatFields
	for i, m := range msgs {
		msg, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a message object, got %s", jsonvalue.Kind(m))
		}
		f.read(msg)
		if f.role == nil && f.choices == nil && f.toolCalls == nil && f.functionCall == nil {
			return wantError("a chat message or completion chunk at "+index(path, i), msg)
		}
		if f.choices != nil {
			if err := s.choices(b, msg, f.choices.Value, index(path, i)); err != nil {
				return err
			}
			continue
		}
		// Paths are built only for errors and skipped items: most
		// messages have none.
		r := memberString(f.role)
		if r != "" && !chatRole(r) {
			b.skip(msg, index(path, i), "message with role %q", r)
			continue
		}
		if r == "tool" || r == "function" {
			chatResultOf(b, &f, place{path, i})
			continue
		}
		if r == "user" {
			users++
			b.userMessage(users, memberValue(f.content))
		}
		if err := chatMessageOf(b, &f, ""); err != nil {
			return toolgrade.InField(index(path, i), err)
		}
		chatPartsOf(b, memberValue(f.content), place{path, i})
	}
	return nil
}

// chatFields are the members of a message that the reader reads, each
// the first with its key, found in one pass over the message.
type chatFields struct {
	role, choices, toolCalls, functionCall, content, toolCallID, name *jsonvalue.Member
}

// read finds a message's fields, in place: a transcript's loop reads
// every message into one.
func (f *chatFields) read(msg jsonvalue.Object) {
	*f = chatFields{}
	for i := range msg {
		var p **jsonvalue.Member
		switch msg[i].Key {
		case "role":
			p = &f.role
		case "choices":
			p = &f.choices
		case "tool_calls":
			p = &f.toolCalls
		case "function_call":
			p = &f.functionCall
		case "content":
			p = &f.content
		case "tool_call_id":
			p = &f.toolCallID
		case "name":
			p = &f.name
		default:
			continue
		}
		if *p == nil {
			*p = &msg[i]
		}
	}
}

// memberValue is a member's value, nil for no member.
func memberValue(m *jsonvalue.Member) any {
	if m == nil {
		return nil
	}
	return m.Value
}

// memberString is a member's value if it is a string, else "".
func memberString(m *jsonvalue.Member) string {
	s, _ := memberValue(m).(string)
	return s
}

// A place is where an item of a trace is: path, or its element i when i
// is 0 or more. It is made a path only when one is reported.
type place struct {
	path string
	i    int
}

func (p place) String() string {
	if p.i < 0 {
		return p.path
	}
	return index(p.path, p.i)
}

// chatPartType reports the content part types of Chat Completions
// messages, none of which holds a call.
func chatPartType(t string) bool {
	switch t {
	case "text", "image_url", "input_audio", "file", "refusal":
		return true
	}
	return false
}

// chatParts reports the content parts of the message at path that are of
// no Chat Completions type (another API's tool_use block, say): a call in
// them would otherwise go unseen.
func chatParts(b *builder, msg jsonvalue.Object, at place) { chatPartsOf(b, get(msg, "content"), at) }

// chatPartsOf is chatParts given the message's content.
func chatPartsOf(b *builder, content any, at place) {
	parts, ok := content.([]any)
	if !ok {
		return
	}
	for j, p := range parts {
		if t, _ := get(p, "type").(string); !chatPartType(t) {
			b.skip(p, index(join(at.String(), "content"), j), "content part of type %q", t)
		}
	}
}

// chatRole reports the message roles of the Chat Completions family.
func chatRole(r string) bool {
	switch r {
	case "system", "developer", "user", "assistant", "tool", "function":
		return true
	}
	return false
}

// chatMessage reads one message: its calls, or the result it carries.
func chatMessage(b *builder, msg jsonvalue.Object, path string) error {
	var f chatFields
	f.read(msg)
	return chatMessageOf(b, &f, path)
}

// chatMessageOf is chatMessage given the message's fields.
func chatMessageOf(b *builder, f *chatFields, path string) error {
	b.saw()
	if tcs := memberValue(f.toolCalls); tcs != nil {
		l, ok := tcs.([]any)
		if !ok {
			return fieldError(join(path, "tool_calls"), "want a list, got %s", jsonvalue.Kind(tcs))
		}
		for j, tc := range l {
			c, err := chatToolCall(tc, "")
			if err != nil {
				return toolgrade.InField(index(join(path, "tool_calls"), j), err)
			}
			b.add(nil, c) // the entry is accounted for with the list, below
		}
		b.read(l) // every entry is a call read: the audit need not walk them
	}
	if fc := memberValue(f.functionCall); fc != nil {
		p := join(path, "function_call")
		n, err := name(fc, "name", p)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n}
		args(&c, fc, "arguments")
		b.add(fc, c)
	}
	if r := memberString(f.role); r == "tool" || r == "function" {
		chatResultOf(b, f, place{path, -1})
	}
	return nil
}

// chatResultOf reads a tool (or legacy function) message at a place,
// given its fields: the result of the call it names.
func chatResultOf(b *builder, f *chatFields, at place) {
	b.saw()
	callID := ""
	if memberString(f.role) == "tool" {
		callID = id(memberValue(f.toolCallID))
	}
	name, content := memberString(f.name), memberValue(f.content)
	if !b.linked(callID, name, content, false) {
		b.unlinked(at.String(), callID, name, content)
	}
}

// chatToolCall reads one tool_calls entry.
func chatToolCall(tc any, path string) (toolgrade.Call, error) {
	o, ok := tc.(jsonvalue.Object)
	if !ok {
		return toolgrade.Call{}, fieldError(path, "want a tool call object, got %s", jsonvalue.Kind(tc))
	}
	// One pass over the entry's keys, the first of each counting, and
	// one over its function's: a transcript's calls are mostly these.
	var callID, fn, cu any
	var seen uint8
	for i := range o {
		switch m := &o[i]; m.Key {
		case "id":
			if once(&seen, 1) {
				callID = m.Value
			}
		case "function":
			if once(&seen, 2) {
				fn = m.Value
			}
		case "custom":
			if once(&seen, 4) {
				cu = m.Value
			}
		}
	}
	c := toolgrade.Call{ID: id(callID)}
	var err error
	switch {
	case seen&2 != 0:
		n, hasName, a, hasArgs := nameAndArguments(fn)
		if c.Name, err = nameOf(n, hasName, join(path, "function.name")); err != nil {
			return c, err
		}
		if hasArgs {
			c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
		}
	case seen&4 != 0:
		if c.Name, err = name(cu, "name", join(path, "custom")); err != nil {
			return c, err
		}
		c.Type = "custom"
		c.Args = customArgs(get(cu, "input"))
	default:
		if c.Name, err = name(o, "name", path); err != nil {
			return c, err
		}
		args(&c, o, "arguments", "args", "input")
	}
	return c, nil
}

// nameAndArguments returns the first "name" and "arguments" members of a
// function object, each with whether it is there.
func nameAndArguments(fn any) (name any, hasName bool, arguments any, hasArgs bool) {
	o, _ := fn.(jsonvalue.Object)
	for i := range o {
		switch m := &o[i]; m.Key {
		case "name":
			if !hasName {
				name, hasName = m.Value, true
			}
		case "arguments":
			if !hasArgs {
				arguments, hasArgs = m.Value, true
			}
		}
	}
	return name, hasName, arguments, hasArgs
}

// chatStream joins the fragments of streamed calls. Fragments belong to
// the call opened at the same stream, choice and tool_calls index; a
// fragment with a new id at an index that has one opens a new call, as
// does a fragment without an index (a whole call in one chunk).
type chatStream struct {
	open map[streamSlot]int // call index by slot
}

type streamSlot struct {
	stream string // the chunk id, so that streams one after another stay apart
	choice string
	tool   string // tool_calls index, or "function_call"
}

// choices reads the choices of a response or chunk.
func (s *chatStream) choices(b *builder, msg jsonvalue.Object, choices any, path string) error {
	l, ok := choices.([]any)
	if !ok {
		if choices == nil {
			return nil
		}
		return fieldError(join(path, "choices"), "want a list, got %s", jsonvalue.Kind(choices))
	}
	for i, ch := range l {
		p := index(join(path, "choices"), i)
		if m, ok := get(ch, "message").(jsonvalue.Object); ok {
			if err := chatMessage(b, m, join(p, "message")); err != nil {
				return err
			}
			continue
		}
		d, ok := get(ch, "delta").(jsonvalue.Object)
		if !ok {
			continue
		}
		slot := streamSlot{stream: id(get(msg, "id")), choice: id(get(ch, "index"))}
		if err := s.delta(b, d, slot, join(p, "delta")); err != nil {
			return err
		}
	}
	return nil
}

// delta reads the tool-call fragments of one chunk's delta.
func (s *chatStream) delta(b *builder, d jsonvalue.Object, slot streamSlot, path string) error {
	tcs, _ := get(d, "tool_calls").([]any)
	for j, tc := range tcs {
		o, ok := tc.(jsonvalue.Object)
		if !ok {
			return fieldError(index(join(path, "tool_calls"), j), "want a tool call object, got %s", jsonvalue.Kind(tc))
		}
		fn, isCustom := obj(o, "function"), false
		if fn == nil {
			if cu := obj(o, "custom"); cu != nil {
				fn, isCustom = cu, true
			}
		}
		callID := id(get(o, "id"))
		slot.tool = id(get(o, "index"))
		k, found := s.open[slot]
		if slot.tool == "" || (found && callID != "" && b.calls[k].ID != callID) {
			found = false
		}
		if slot.tool == "" && callID != "" {
			// No index: a whole call, or the rest of one opened with this id.
			for sl, kk := range s.open {
				if sl.stream == slot.stream && b.calls[kk].ID == callID && (!found || kk > k) {
					k, found = kk, true
				}
			}
		}
		if !found {
			c := toolgrade.Call{ID: callID, Name: str(fn, "name")}
			if fn == nil {
				c.Name = str(o, "name")
			}
			if isCustom {
				c.Type = "custom"
			}
			k = b.add(o, c)
			b.stream(k).custom = isCustom
			if slot.tool != "" || callID != "" {
				if s.open == nil {
					s.open = make(map[streamSlot]int)
				}
				if slot.tool == "" {
					slot.tool = "id:" + callID
				}
				s.open[slot] = k
			}
		} else {
			b.read(o) // a fragment of call k
			if b.calls[k].Name == "" {
				b.calls[k].Name = str(fn, "name")
			}
		}
		piece := get(fn, "arguments")
		if isCustom {
			piece = get(fn, "input")
		}
		if fn == nil {
			piece, _ = first(o, "arguments", "args")
		}
		appendPiece(b.stream(k), piece)
	}
	if fc := obj(d, "function_call"); fc != nil {
		slot.tool = "function_call"
		k, found := s.open[slot]
		if !found || has(fc, "name") && b.calls[k].Name != "" {
			k = b.add(fc, toolgrade.Call{Name: str(fc, "name")})
			if s.open == nil {
				s.open = make(map[streamSlot]int)
			}
			s.open[slot] = k
		}
		b.read(fc)
		appendPiece(b.stream(k), get(fc, "arguments"))
	}
	return nil
}

// appendPiece adds one streamed argument piece: text is joined; a whole
// value (arguments sent as an object) is kept as given.
func appendPiece(f *fragments, piece any) {
	switch p := piece.(type) {
	case nil:
	case string:
		f.text = append(f.text, p...)
		f.hasText = true
	default:
		f.given = p
	}
}
