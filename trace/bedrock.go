package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "bedrock_converse",
		keys: []string{"output", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStart", "messageStop", "role"},
		read: readBedrock,
		trace: func(o jsonvalue.Object) level {
			return when(obj(o, "output").Has("message"), weak) // a response
		},
		item: itemObject(func(o jsonvalue.Object) level {
			if hasAny(o, "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStart", "messageStop") {
				return decisive // a ConverseStream event
			}
			// Content blocks decide; the cheap look for them first.
			blocks := list(o, "content")
			if len(blocks) == 0 || !o.Has("role") || byCalls(o) {
				return no
			}
			f, l := classifyBlocks(blocks)
			return when(f == "bedrock_converse", l)
		}),
	})
}

// readBedrock reads the AWS Bedrock Converse API: a response body
// {"output": {"message"}}, a request body {"messages"}, a list of
// messages, or ConverseStream events (contentBlockStart /
// contentBlockDelta ...).
//
// toolUse blocks are calls (id = toolUseId) and toolResult blocks their
// results: the content list as given, wrapped when status is "error". A
// user message with blocks other than toolResult opens a turn. In a
// stream, the toolUse input pieces of a block index are joined; none
// means {}.
func readBedrock(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return bedrockMessages(b, v, "")
	case jsonvalue.Object:
		switch {
		case has(get(v, "output"), "message"):
			return bedrockBlocks(b, get(obj(obj(v, "output"), "message"), "content"), "output.message.content")
		case v.Has("messages"):
			msgs, ok := get(v, "messages").([]any)
			if !ok {
				return fieldError("messages", "want a list of messages, got %s", jsonvalue.Kind(get(v, "messages")))
			}
			return bedrockMessages(b, msgs, "messages")
		case v.Has("content"):
			return bedrockBlocks(b, get(v, "content"), "content")
		}
	}
	return wantError("a Converse request, response, message list or stream events", v)
}

func bedrockMessages(b *builder, msgs []any, path string) error {
	var open map[string]int // streamed call index by block index
	for i, m := range msgs {
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a message object, got %s", jsonvalue.Kind(m))
		}
		p := index(path, i)
		switch {
		case o.Has("messageStart"):
			open = nil
		case o.Has("contentBlockStart"):
			e := obj(o, "contentBlockStart")
			tu := get(obj(e, "start"), "toolUse")
			if tu == nil {
				continue
			}
			n, err := name(tu, "name", join(p, "contentBlockStart.start.toolUse"))
			if err != nil {
				return err
			}
			k := b.add(tu, toolgrade.Call{Name: n, ID: id(get(tu, "toolUseId"))})
			b.stream(k).emptyObject = true
			if open == nil {
				open = make(map[string]int)
			}
			open[id(get(e, "contentBlockIndex"))] = k
		case o.Has("contentBlockDelta"):
			e := obj(o, "contentBlockDelta")
			k, ok := open[id(get(e, "contentBlockIndex"))]
			if !ok {
				continue
			}
			tu := get(obj(e, "delta"), "toolUse")
			b.read(tu) // a piece of the call's input
			if piece, ok := get(tu, "input").(string); ok {
				b.stream(k).text = append(b.stream(k).text, piece...)
			}
		case o.Has("contentBlockStop"):
			idx := id(get(obj(o, "contentBlockStop"), "contentBlockIndex"))
			if k, ok := open[idx]; ok {
				b.close(k)
				delete(open, idx)
			}
		case o.Has("role"): // a Converse message always has its role
			if str(o, "role") == "user" && ownContent(get(o, "content"), func(bl any) bool { return has(bl, "toolResult") }) {
				b.userTurn(get(o, "content"))
			}
			if err := bedrockBlocks(b, get(o, "content"), join(p, "content")); err != nil {
				return err
			}
		case hasAny(o, "messageStop", "metadata"):
		default:
			return wantError("a message or stream event at "+p, o)
		}
	}
	return nil
}

func bedrockBlocks(b *builder, content any, path string) error {
	blocks, ok := content.([]any)
	if !ok {
		if content != nil {
			b.skip(content, path, "content that is %s, not a list of content blocks", jsonvalue.Kind(content))
		}
		return nil
	}
	b.saw()
	for i, bl := range blocks {
		p := index(path, i)
		if tu, ok := first(bl, "toolUse"); ok {
			n, err := name(tu, "name", join(p, "toolUse"))
			if err != nil {
				return err
			}
			c := toolgrade.Call{Name: n, ID: id(get(tu, "toolUseId"))}
			args(&c, tu, "input")
			b.add(tu, c)
			continue
		}
		if tr, ok := first(bl, "toolResult"); ok {
			out := get(tr, "content")
			if str(tr, "status") == "error" {
				out = failed(out)
			}
			b.result(p, id(get(tr, "toolUseId")), "", out)
			continue
		}
		if o, ok := bl.(jsonvalue.Object); ok && !hasAny(o, bedrockPlainBlocks...) {
			b.skip(o, p, "content block with keys %s", quoteKeys(o))
		}
	}
	return nil
}

// bedrockPlainBlocks are the keys of content blocks that hold no call or
// result.
var bedrockPlainBlocks = []string{"text", "image", "document", "video", "reasoningContent",
	"cachePoint", "guardContent", "citationsContent"}
