package trace

import (
	"strconv"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "toolbench",
		keys: []string{"answer_generation", "tree"},
		read: readToolBench,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("answer_generation") || o.Has("tree") && o.Has("win"), decisive)
		},
	})
}

// readToolBench reads a ToolBench answer file {"win", "tree",
// "forward_args", "compare_candidates", "answer_generation"}: the calls of
// the last entry of answer_generation.train_messages (each earlier entry is
// a prefix of it), OpenAI chat messages with legacy function_call (see
// [readOpenAIChat]). The DFS tree and compare_candidates repeat the same
// steps and are not read. Finish is a call; its observation is only in the
// tree, so its output is null.
func readToolBench(b *builder, v any) error {
	if l, ok := v.([]any); ok {
		return chatMessages(b, l, "")
	}
	ag, ok := get(v, "answer_generation").(jsonvalue.Object)
	if !ok {
		return wantError(`a ToolBench answer file with "answer_generation"`, v)
	}
	tm, ok := get(ag, "train_messages").([]any)
	if !ok {
		return fieldError("answer_generation.train_messages", "want a list of conversations, got %s", jsonvalue.Kind(get(ag, "train_messages")))
	}
	if len(tm) == 0 {
		return nil // no conversation was recorded
	}
	last := len(tm) - 1
	for _, prefix := range tm[:last] {
		b.read(prefix) // a prefix of the last conversation
	}
	path := "answer_generation.train_messages[" + strconv.Itoa(last) + "]"
	msgs, ok := tm[last].([]any)
	if !ok {
		return fieldError(path, "want a list of messages, got %s", jsonvalue.Kind(tm[last]))
	}
	return chatMessages(b, msgs, path)
}
