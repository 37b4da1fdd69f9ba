package trace

import (
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "stabletoolbench",
		read: readStableToolBench,
		// A predictions file's keys are query ids: any object is asked
		// about, and the sniffer looks at its first member only.
		trace: func(o jsonvalue.Object) level {
			if toolEvalQuery(o) {
				return decisive
			}
			return when(len(o) > 0 && toolEvalQuery(asObject(o[0].Value)), decisive)
		},
	})
}

// toolEvalQuery reports one query of converted predictions: {"query",
// "answer": {"answer_details"}}.
func toolEvalQuery(o jsonvalue.Object) bool {
	return o.Has("query") && has(get(o, "answer"), "answer_details")
}

// readStableToolBench reads StableToolBench / ToolEval converted
// predictions, as toolbench/tooleval/convert_to_answer_format.py writes
// them: {query id: {"query", "available_tools", "answer": {"method",
// "total_steps", "final_answer", "answer_details"}}}, each query a record
// with its id (one query alone is read as the trace). The query is the
// user turn; available_tools are definitions. answer_details is a chain of
// nodes {"role", "message", "next": [nodes]}, read depth first: a "tool"
// node is a call, its message {"name", "arguments" (JSON text), "response"
// (JSON text {"error", "response"}, a failure when "error" is not empty;
// "" for Finish, which has none)}, or that dict as Python text, which
// ToolEval's result files keep cut to 100 characters (the call is read as
// far as it goes, and a note says so); "system", "user" and "assistant"
// nodes (the prompt, the query, thoughts) hold no call; any other node
// (a DFS run's stray "Action Input") is skipped.
func readStableToolBench(b *builder, v any) error {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return wantError(`StableToolBench converted predictions {query id: {"query", "answer": {"answer_details"}}}`, v)
	}
	cut := 0 // tool nodes kept as cut text
	if toolEvalQuery(o) {
		cut = toolEvalAnswer(b, o, "")
	} else {
		for _, m := range o {
			q, ok := m.Value.(jsonvalue.Object)
			if !ok || !toolEvalQuery(q) {
				b.skip(m.Value, m.Key, `entry that is no query {"query", "answer": {"answer_details"}}`)
				continue
			}
			b.record(m.Key, m.Key)
			cut += toolEvalAnswer(b, q, m.Key)
		}
	}
	if cut > 0 {
		b.notes = append(b.notes, fmt.Sprintf("%d tool %s kept as Python text cut short: %s read as far as the text goes, their responses lost",
			cut, plural(cut, "node is", "nodes are"), plural(cut, "its call is", "their calls are")))
	}
	return nil
}

// toolEvalAnswer reads one query at path, and returns how many of its
// tool nodes were cut short.
func toolEvalAnswer(b *builder, q jsonvalue.Object, path string) (cut int) {
	b.notCall(get(q, "available_tools"), "tool definitions")
	b.userTurn(get(q, "query"))
	details := join(join(path, "answer"), "answer_details")
	type at struct {
		node any
		path string
	}
	var stack []at // depth first, without recursion: a chain nests as deep as it is long
	nodes := list(get(q, "answer"), "answer_details")
	for i := len(nodes) - 1; i >= 0; i-- {
		stack = append(stack, at{nodes[i], index(details, i)})
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if toolEvalNode(b, n.node, n.path) {
			cut++
		}
		next := list(n.node, "next")
		for i := len(next) - 1; i >= 0; i-- {
			stack = append(stack, at{next[i], index(join(n.path, "next"), i)})
		}
	}
	return cut
}

// toolEvalNode reads one node of answer_details; cut reports a tool
// node kept as text cut short.
func toolEvalNode(b *builder, n any, path string) (cut bool) {
	switch r := str(n, "role"); r {
	case "system", "user", "assistant":
		b.saw()
	case "tool":
		msg := get(n, "message")
		if text, ok := msg.(string); ok {
			return toolEvalText(b, text, join(path, "message"))
		}
		c := toolgrade.Call{Name: str(msg, "name")}
		args(&c, msg, "arguments")
		k := b.add(msg, c)
		if resp := get(msg, "response"); resp != "" && resp != nil {
			toolEvalResult(b, k, resp)
		}
	default:
		b.skip(get(n, "message"), path, "node of role %q", r)
	}
	return false
}

// toolEvalText reads a tool node's message kept as Python text,
// "{'name': ..., 'arguments': ..., 'response': ...}", perhaps cut short
// (which it reports).
func toolEvalText(b *builder, text, path string) (cut bool) {
	m, whole := pyDictPrefix(text)
	name, ok := get(m, "name").(string)
	if !ok {
		b.skip(text, path, "tool node whose text holds no name")
		return false
	}
	c := toolgrade.Call{Name: name}
	if a, ok := m.Get("arguments"); ok {
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
	} else if i := strings.Index(text, "'arguments': "); i >= 0 {
		c.ArgsRaw, c.Invalid = text[i+len("'arguments': "):], true // cut inside the arguments
	}
	k := b.add(nil, c)
	if resp, ok := m.Get("response"); ok && resp != "" {
		toolEvalResult(b, k, resp)
	}
	return !whole
}

// pyDictPrefix reads the entries of a Python dict literal as far as the
// text holds whole ones; whole reports that the dict ends where the text
// does.
func pyDictPrefix(s string) (o jsonvalue.Object, whole bool) {
	p := pyParser{s: s}
	p.space()
	if p.peek() != '{' {
		return nil, false
	}
	p.pos++
	for {
		p.space()
		if p.peek() == '}' {
			p.pos++
			p.space()
			return o, p.pos == len(p.s)
		}
		k, err := p.value()
		key, isString := k.(string)
		if err != nil || !isString {
			return o, false
		}
		if p.space(); p.peek() != ':' {
			return o, false
		}
		p.pos++
		v, err := p.value()
		if err != nil {
			return o, false
		}
		o.Set(key, v)
		if p.space(); p.peek() == ',' {
			p.pos++
		}
	}
}
