package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "langsmith",
		keys: []string{"run_type", "runs"},
		read: readLangSmith,
		trace: func(o jsonvalue.Object) level {
			l := list(o, "runs")
			return when(o.Has("run_type") || len(l) > 0 && has(l[0], "run_type"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(o.Has("run_type"), decisive) }),
	})
}

// readLangSmith reads LangSmith run exports: one run tree {"id", "name",
// "run_type", "inputs", "outputs", "child_runs", ...}, a list of runs (as
// the runs API gives them, flat with parent_run_id, or as trees), or
// {"runs": [...]}. Runs are read in execution order (dotted_order, else
// start_time, else as given, parents before children).
//
// An llm (or chat_model) run's outputs hold the calls the model made: a
// LangChain generations list, a message, or a provider response (Chat
// Completions choices, Anthropic content). A tool run is a call named after
// the run: its inputs are the arguments ({"input": text} is decoded when the
// text is a JSON object), its outputs.output (a ToolMessage or a value) the
// result, marked failed when the run has an error. A tool run answers the
// model's call it ran (by tool_call_id, else the earliest unanswered call of
// that tool); without one it is a call of its own. Chains, prompts,
// parsers, retrievers and embeddings are not calls.
func readLangSmith(b *builder, v any) error {
	b.unique = true
	var runs []lsRun
	var walk func(v any, path string) bool
	walk = func(v any, path string) bool {
		o, ok := v.(jsonvalue.Object)
		if !ok || !o.Has("run_type") {
			return false
		}
		runs = append(runs, lsRun{o: o, path: path})
		for i, c := range list(o, "child_runs") {
			if !walk(c, index(join(path, "child_runs"), i)) {
				return false
			}
		}
		return true
	}
	var top []any
	path := ""
	switch v := v.(type) {
	case []any:
		top = v
	case jsonvalue.Object:
		if l, ok := get(v, "runs").([]any); ok {
			top, path = l, "runs"
		} else {
			top = []any{v}
		}
	}
	if len(top) == 0 {
		return wantError(`a LangSmith run {"run_type", "inputs", "outputs", "child_runs"} or a list of runs`, v)
	}
	for i, r := range top {
		p := index(path, i)
		if _, isObj := v.(jsonvalue.Object); isObj && path == "" {
			p = ""
		}
		if !walk(r, p) {
			if p == "" {
				return wantError(`a LangSmith run {"run_type", "inputs", "outputs", "child_runs"} or a list of runs`, r)
			}
			return wantError(`a LangSmith run {"run_type", ...} at `+p, r)
		}
	}
	ordered := true
	for _, r := range runs {
		ordered = ordered && str(r.o, "dotted_order") != ""
	}
	if ordered {
		sorting.Stable(runs, func(a, b lsRun) int { return strings.Compare(str(a.o, "dotted_order"), str(b.o, "dotted_order")) })
	} else if timedRuns(runs) {
		sorting.Stable(runs, func(a, b lsRun) int { return strings.Compare(str(a.o, "start_time"), str(b.o, "start_time")) })
	}
	for _, r := range runs {
		if err := lsRunRead(b, r); err != nil {
			return err
		}
	}
	return nil
}

type lsRun struct {
	o    jsonvalue.Object
	path string
}

func timedRuns(runs []lsRun) bool {
	for _, r := range runs {
		if str(r.o, "start_time") == "" {
			return false
		}
	}
	return true
}

func lsRunRead(b *builder, r lsRun) error {
	o := r.o
	b.saw()
	switch t := str(o, "run_type"); t {
	case "llm", "chat_model":
		return modelOutput(b, get(o, "outputs"), join(r.path, "outputs"))
	case "tool":
		in := get(o, "inputs")
		a, hasArgs := in, in != nil
		if io, ok := in.(jsonvalue.Object); ok && len(io) == 1 && io.Has("input") {
			a = get(io, "input")
			if s, ok := a.(string); ok {
				if x, err := b.parse(s); err == nil {
					if _, isObj := x.(jsonvalue.Object); isObj {
						a = x
					}
				}
			} else if a == nil {
				hasArgs = false
			}
		}
		out, hasOut := first(get(o, "outputs"), "output")
		if !hasOut && get(o, "outputs") != nil {
			out, hasOut = get(o, "outputs"), true
		}
		callID := id(get(in, "tool_call_id"))
		if content, msgID, ok := toolMessage(out); ok {
			out, callID = content, msgID
		}
		if e := get(o, "error"); e != nil && e != "" {
			if hasOut && out != nil {
				out = failed(out)
			} else {
				out, hasOut = failed(e), true
			}
		}
		toolRun(b, o, str(o, "name"), callID, a, hasArgs, out, hasOut)
	case "chain", "prompt", "parser", "retriever", "embedding":
	default:
		b.skip(o, r.path, "run of type %q", t)
	}
	return nil
}

// toolRun records a tool execution: the model's call it ran gets its
// arguments and result; without such a call it is a call of its own.
func toolRun(b *builder, src any, tool, callID string, a any, hasArgs bool, out any, hasOut bool) {
	if callID != "" && b.find(callID, tool) < 0 {
		// The id may belong to a call of another name (a renamed tool).
		for k := range b.calls {
			if b.calls[k].ID == callID {
				tool = b.calls[k].Name
				break
			}
		}
	}
	toolSpan(b, src, tool, callID, a, hasArgs, out, hasOut, false)
}

// toolMessage unpacks a tool's output given as a LangChain ToolMessage
// (LangSmith and Langfuse record it so): its content, failed when its
// status is "error", and the tool_call_id it answers.
func toolMessage(out any) (content any, callID string, ok bool) {
	msg, isObj := out.(jsonvalue.Object)
	if !isObj {
		return nil, "", false
	}
	kind, f := langChainMessage(msg)
	if kind != "tool" {
		return nil, "", false
	}
	content = get(f, "content")
	if str(f, "status") == "error" {
		content = failed(content)
	}
	return content, id(get(f, "tool_call_id")), true
}

// modelOutput reads the calls in a model's output as LangSmith and Langfuse
// record it: LangChain generations, a message (any serialized form), a list
// of messages, or a provider response.
func modelOutput(b *builder, v any, path string) error {
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			if err := modelOutput(b, e, index(path, i)); err != nil {
				return err
			}
		}
	case jsonvalue.Object:
		switch {
		case v.Has("generations"):
			return modelOutput(b, get(v, "generations"), join(path, "generations"))
		case v.Has("message") && (v.Has("text") || v.Has("generation_info") || v.Has("type")):
			return modelOutput(b, get(v, "message"), join(path, "message"))
		case v.Has("choices"):
			return chatMessages(b, []any{v}, path)
		case v.Has("lc") && v.Has("kwargs"), v.Has("tool_calls"), v.Has("role"), v.Has("type") && v.Has("content"):
			if kind, _ := langChainMessage(v); kind == "ai" || kind == "tool" {
				return langChainMessages(b, []any{v}, path)
			}
			if blocks, ok := get(v, "content").([]any); ok {
				if f, _ := classifyBlocks(blocks); f == "anthropic_messages" {
					return anthropicBlocks(b, blocks, join(path, "content"))
				}
			}
			b.saw()
		case v.Has("output"):
			return modelOutput(b, get(v, "output"), join(path, "output"))
		case v.Has("messages"):
			return modelOutput(b, get(v, "messages"), join(path, "messages"))
		}
	}
	return nil
}
