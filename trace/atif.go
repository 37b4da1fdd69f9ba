package trace

import (
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "atif",
		keys: []string{"schema_version"},
		read: readATIF,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("schema_version") && o.Has("steps") && hasAny(o, "session_id", "agent"), decisive)
		},
	})
}

// readATIF reads an ATIF trajectory (the Agent Trajectory Interchange
// Format of Harbor and Terminal-Bench, harbor's RFC 0001 and
// models/trajectories, versions 1.0 to 1.7): {"schema_version",
// "session_id", "agent", "steps": [Step]}. A "user" step opens a turn (its
// message the input); an "agent" step's tool_calls [{"tool_call_id",
// "function_name", "arguments"}] are calls, and its observation.results
// [{"source_call_id", "content"}] their results, linked by id within the
// step. Results without a source_call_id answer the step's calls in order
// when they are as many; otherwise (a terminal's output after a batch of
// keystrokes, Terminus' steps) they answer no one call and are not
// linked. ATIF records no failures: a result is ok. "system" steps hold
// prompts and system observations. Steps copied from the trajectory this
// one continues (is_copied_context, v1.5) were read there: their calls
// are not read again, and a note says how many; so do notes for a
// continuation in another file (continued_trajectory_ref) and for
// subagent trajectories (subagent_trajectory_ref), whose calls are in
// their own files.
//
// Also read, as some writers have it: calls {"id", "name", "arguments"},
// and results as "system" steps {"message": "Tool result for <id>",
// "observation": {"type": "tool_result", "content", "result": {"success"}}},
// linked by that id wherever the call is (success false is a failure).
func readATIF(b *builder, v any) error {
	steps, ok := get(v, "steps").([]any)
	if !ok {
		return wantError(`an ATIF trajectory {"schema_version", "session_id", "agent", "steps"}`, v)
	}
	b.notCall(get(v, "agent"), "the agent's configuration")
	var copied, subagents int
	type late struct {
		where, id string
		content   any
		failed    bool
	}
	var results []late // results of the second form, linked once every call is read
	for i, s := range steps {
		p := index("steps", i)
		o, ok := s.(jsonvalue.Object)
		if !ok {
			b.skip(s, p, "step that is %s", jsonvalue.Kind(s))
			continue
		}
		b.saw()
		if get(o, "is_copied_context") == true {
			if n := len(list(o, "tool_calls")); n > 0 {
				copied += n
				b.notCall(get(o, "tool_calls"), "calls of a step copied from the trajectory this one continues")
			}
			if str(o, "source") == "user" {
				b.userTurn(get(o, "message"))
			}
			b.read(get(o, "observation"))
			continue
		}
		obs := obj(o, "observation")
		switch src := str(o, "source"); src {
		case "user":
			b.userTurn(get(o, "message"))
		case "system":
			if str(obs, "type") == "tool_result" {
				id, _ := strings.CutPrefix(str(o, "message"), "Tool result for ")
				results = append(results, late{join(p, "observation"), strings.TrimSpace(id), get(obs, "content"), get(get(obs, "result"), "success") == false})
				b.read(obs)
				continue
			}
		case "agent":
		default:
			b.skip(o, p, "step of source %q", src)
			continue
		}
		first := len(b.calls)
		for j, tc := range list(o, "tool_calls") {
			c := toolgrade.Call{Name: str(tc, "function_name"), ID: id(get(tc, "tool_call_id"))}
			if c.Name == "" && c.ID == "" {
				c.Name, c.ID = str(tc, "name"), id(get(tc, "id"))
			}
			if c.Name == "" {
				b.skip(tc, index(join(p, "tool_calls"), j), "tool call without a function_name")
				continue
			}
			args(&c, tc, "arguments")
			b.add(tc, c)
		}
		subagents += atifResults(b, list(obs, "results"), join(p, "observation.results"), first)
	}
	for _, r := range results {
		b.link(r.where, r.id, "", r.content, r.failed)
	}
	if copied > 0 {
		b.notes = append(b.notes, fmt.Sprintf("%d %s of steps copied from the trajectory this one continues (is_copied_context) %s not read again",
			copied, plural(copied, "call", "calls"), plural(copied, "is", "are")))
	}
	if ref := str(v, "continued_trajectory_ref"); ref != "" {
		b.notes = append(b.notes, fmt.Sprintf("the trajectory continues in %s, whose calls are not in this file", ref))
	}
	if subagents > 0 {
		b.notes = append(b.notes, fmt.Sprintf("%d %s to subagent trajectories, whose calls are in their own files", subagents, plural(subagents, "result refers", "results refer")))
	}
	return nil
}

// atifResults links a step's observation results to its calls, those
// from index first on, and returns how many refer to subagent
// trajectories.
func atifResults(b *builder, results []any, path string, first int) (subagents int) {
	var unlinked []int // results without a source_call_id
	for k, r := range results {
		if refs := list(r, "subagent_trajectory_ref"); len(refs) > 0 {
			subagents++
			b.notCall(refs, "references to subagent trajectories")
		}
		if callID := id(get(r, "source_call_id")); callID != "" {
			b.result(index(path, k), callID, "", get(r, "content"))
			continue
		}
		unlinked = append(unlinked, k)
	}
	var open []int // the step's calls without a result
	for k := first; k < len(b.calls); k++ {
		if !b.answered[k] {
			open = append(open, k)
		}
	}
	for i, k := range unlinked {
		content := get(results[k], "content")
		if len(unlinked) == len(open) {
			b.set(open[i], content)
			continue
		}
		b.read(content) // the step's observation, no one call's
		b.saw()
	}
	return subagents
}
