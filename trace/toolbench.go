package trace

import (
	"strconv"

	"github.com/toolgrade/toolgrade"
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
// "forward_args", "compare_candidates", "answer_generation"}, as ToolBench
// and StableToolBench write one per query: the calls of the last entry of
// answer_generation.train_messages (each earlier entry is a prefix of it),
// OpenAI chat messages with legacy function_call (see [readOpenAIChat]);
// the DFS tree and compare_candidates repeat the same steps and are not
// read, and Finish is a call whose observation is only in the tree, so
// its output is null. An answer whose data is not valid has no
// train_messages: then its calls are the nodes of its tries' chains
// ("trys", a CoT run: every try, in order), of its DFS tree ("tree",
// depth first) or of answer_generation.chain, each "Action" node naming a call and the "Action Input"
// after it giving its arguments (JSON text) and its observation, the
// output; an observation whose "error" is not empty is a failure.
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
		// No conversation was recorded: the calls are in the tries or
		// the tree.
		if trys, ok := get(v, "trys").([]any); ok {
			for i, t := range trys {
				p := join(index("trys", i), "chain")
				name := ""
				for j, n := range list(t, "chain") {
					name = toolbenchNode(b, n, index(p, j), name)
				}
				toolbenchAction(b, name)
			}
			return nil
		}
		if tree := obj(get(v, "tree"), "tree"); tree != nil {
			toolbenchTree(b, tree, "tree.tree", "")
			return nil
		}
		name := ""
		for j, n := range list(ag, "chain") {
			name = toolbenchNode(b, n, index("answer_generation.chain", j), name)
		}
		toolbenchAction(b, name)
		return nil
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

// toolbenchTree reads a node of a DFS tree and its children, depth first;
// name is the tool an Action above it named, still awaiting its input.
func toolbenchTree(b *builder, n any, path, name string) {
	name = toolbenchNode(b, n, path, name)
	children := list(n, "children")
	for i, c := range children {
		toolbenchTree(b, c, index(join(path, "children"), i), name)
	}
	if len(children) == 0 {
		toolbenchAction(b, name)
	}
}

// toolbenchNode reads one node of a chain or tree at path; name is the tool
// an Action before it named, awaiting its input ("" for none). It returns
// the name the node after it takes.
func toolbenchNode(b *builder, n any, path, name string) string {
	switch t := str(n, "node_type"); t {
	case "Action":
		toolbenchAction(b, name)
		return str(n, "description")
	case "Action Input":
		if name == "" {
			if str(n, "description") == "" && !has(n, "observation") {
				b.saw() // a tree's root
			} else {
				b.skip(n, path, "Action Input that follows no Action")
			}
			return ""
		}
		c := toolgrade.Call{Name: name}
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(str(n, "description"))
		k := b.add(nil, c)
		if obs, ok := first(n, "observation"); ok {
			toolEvalResult(b, k, obs)
		}
		return ""
	case "Thought":
		b.saw()
		return name
	default:
		b.skip(n, path, "node of type %q", t)
		return name
	}
}

// toolbenchAction adds the call of an Action that no Action Input
// followed: its name, no arguments recorded.
func toolbenchAction(b *builder, name string) {
	if name != "" {
		b.add(nil, toolgrade.Call{Name: name})
	}
}

// toolEvalResult gives call k a ToolBench observation: JSON text
// {"error", "response"}, a failure when "error" is not empty.
func toolEvalResult(b *builder, k int, obs any) {
	text, _ := obs.(string)
	v, err := jsonvalue.ParseString(text)
	if e, _ := get(v, "error").(string); err == nil && e != "" {
		b.setFailed(k, obs)
		return
	}
	b.set(k, obs)
}
