package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "semantic_kernel",
		keys: []string{"Role", "role", "messages", "content_type"},
		read: readSemanticKernel,
		trace: func(o jsonvalue.Object) level {
			msgs, _ := get(o, "messages").([]any)
			return when(len(msgs) > 0 && isSKMessage(asObject(msgs[0])), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(isSKMessage(o), decisive) }),
	})
}

// isSKMessage reports a Semantic Kernel ChatMessageContent: .NET's
// {"Role": {"Label"}, "Items"} (or camelCase), Python's {"role",
// "items": [{"content_type"}]} or {"content_type": "message"}.
func isSKMessage(o jsonvalue.Object) bool {
	role, _ := first(o, "Role", "role")
	if hasAny(asObject(role), "Label", "label") {
		return true
	}
	if str(o, "content_type") == "message" {
		return true
	}
	items, _ := get(o, "items").([]any)
	return o.Has("role") && len(items) > 0 && has(items[0], "content_type")
}

// readSemanticKernel reads a Semantic Kernel ChatHistory saved as JSON:
// .NET's JsonSerializer.Serialize(chatHistory), a list of messages
// {"Role": {"Label": "user"}, "Items": [...], "ModelId", "Metadata"} (a
// UTF-8 BOM before it is allowed) whose items carry a "$type"
// discriminator, or Python's ChatHistory.serialize(), {"messages": [{"role",
// "items": [...]}]} whose items carry "content_type".
//
// A call is a FunctionCallContent item of an assistant message ({"$type":
// "FunctionCallContent", "Id", "PluginName", "FunctionName", "Arguments"};
// Python {"content_type": "function_call", "id", "name", "function_name",
// "plugin_name", "arguments"}), named as the model saw it: the plugin and
// function names joined by "-" (Python's name), or the function name
// alone. A FunctionResultContent item of a tool message answers it by id
// ("CallId"; Python "id") with its "Result", failed when the kernel wrote
// its failure there (see skFailure); older .NET histories keep the
// result only as the tool message's TextContent, its call id in the
// metadata ("ChatCompletionsToolCall.Id"), and newer ones keep both: the
// FunctionResultContent is taken. The calls an assistant message's
// metadata repeats for the OpenAI connector
// ("ChatResponseMessage.FunctionToolCalls") are views of its items. User
// messages open turns. Text, images, audio, binary, file references,
// annotations and reasoning hold no call; other items are skipped items.
func readSemanticKernel(b *builder, v any) error {
	msgs, path := []any(nil), ""
	switch v := v.(type) {
	case []any:
		msgs = v
	case jsonvalue.Object:
		if l, ok := get(v, "messages").([]any); ok {
			msgs, path = l, "messages"
		} else if isSKMessage(v) {
			msgs = []any{v}
		}
	}
	if len(msgs) == 0 {
		return wantError(`a Semantic Kernel ChatHistory (a list of {"Role", "Items"}, or {"messages": [{"role", "items"}]})`, v)
	}
	for i, m := range msgs {
		o, ok := m.(jsonvalue.Object)
		p := index(path, i)
		if !ok || !isSKMessage(o) && !hasAny(o, "Items", "items") {
			return wantError("a Semantic Kernel message at "+p, m)
		}
		skMessage(b, o, p)
	}
	return nil
}

// skMessage reads one message: its calls, or its results, and whether a
// user message opens a turn.
func skMessage(b *builder, o jsonvalue.Object, path string) {
	b.saw()
	role, _ := first(o, "Role", "role")
	if r, ok := first(role, "Label", "label"); ok {
		role = r
	}
	itemsKey := "Items"
	if !o.Has(itemsKey) {
		itemsKey = "items"
	}
	items, _ := get(o, itemsKey).([]any)
	ip := join(path, itemsKey)
	if role == "user" {
		b.userTurn(items)
	}
	// A tool message may hold a result twice, as FunctionResultContent
	// and as text: the text is the result only where the other is not.
	var results []string
	for _, it := range items {
		if skType(it) == "FunctionResultContent" {
			results = append(results, id(skField(it, "CallId", "id")))
		}
	}
	for j, it := range items {
		p := index(ip, j)
		switch t := skType(it); t {
		case "FunctionCallContent":
			c := toolgrade.Call{Name: skName(it), ID: id(skField(it, "Id", "id"))}
			args(&c, it, "Arguments", "arguments")
			b.add(it, c)
		case "FunctionResultContent":
			out, _ := first(it, "Result", "result")
			b.failurePrefix = skFailure(it)
			b.result(p, id(skField(it, "CallId", "id")), skName(it), out)
		case "TextContent":
			// An older tool message's result, its call id in the metadata.
			callID := id(get(skField(it, "Metadata", "metadata"), "ChatCompletionsToolCall.Id"))
			if role == "tool" && callID != "" && !slices.Contains(results, callID) {
				b.failurePrefix = skFailure(it)
				b.result(p, callID, "", skField(it, "Text", "text"))
			}
		case "ImageContent", "BinaryContent", "AudioContent", "FileReferenceContent", "AnnotationContent",
			"ReasoningContent", "StreamingTextContent":
		default:
			b.skip(it, p, "item of type %q", t)
		}
	}
}

// skFailure is how the result of a call that failed begins, as the
// kernel writes it in place of the result: .NET's function call
// processor "Error: ..." (processing failed, a function not advertised,
// an exception), Python's "Exception occurred while invoking function".
func skFailure(it any) string {
	if has(it, "content_type") {
		return "Exception occurred while invoking function"
	}
	return "Error: "
}

// skType names an item's type as .NET does: its "$type", or Python's
// content_type mapped to the .NET name.
func skType(it any) string {
	if t := str(it, "$type"); t != "" {
		return t
	}
	switch t := str(it, "content_type"); t {
	case "function_call":
		return "FunctionCallContent"
	case "function_result":
		return "FunctionResultContent"
	case "text":
		return "TextContent"
	case "image":
		return "ImageContent"
	case "binary":
		return "BinaryContent"
	case "audio":
		return "AudioContent"
	case "file_reference":
		return "FileReferenceContent"
	case "annotation":
		return "AnnotationContent"
	case "reasoning":
		return "ReasoningContent"
	default:
		return t
	}
}

// skField returns an item's field in .NET's spelling, or else in
// Python's (or camelCase .NET's).
func skField(it any, dotnet, python string) any {
	if v, ok := first(it, dotnet, python); ok {
		return v
	}
	return get(it, lowerFirst(dotnet))
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// skName is the name of a call or result as the model saw it.
func skName(it any) string {
	if n := str(it, "name"); n != "" && str(it, "content_type") != "" {
		return n // Python's fully qualified name
	}
	fn, _ := skField(it, "FunctionName", "function_name").(string)
	plugin, _ := skField(it, "PluginName", "plugin_name").(string)
	if plugin == "" {
		return fn
	}
	return plugin + "-" + fn
}
