package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "smolagents",
		keys: []string{"step_number", "task", "plan", "steps"},
		read: readSmolagents,
		trace: func(o jsonvalue.Object) level {
			s, _ := firstEntry(o, "steps")
			return when(smolagentsStep(s) != "", decisive)
		},
		item: func(e any) level { return when(smolagentsStep(e) != "", decisive) },
	})
}

// smolagentsStep names the kind of a memory step by its keys (steps have
// no type field): action, task, planning, or "" for none.
func smolagentsStep(v any) string {
	o, ok := v.(jsonvalue.Object)
	switch {
	case !ok:
		return ""
	case o.Has("step_number") && hasAny(o, "tool_calls", "observations", "model_output", "code_action"):
		return "action"
	case o.Has("task") && o.Has("task_images"):
		return "task"
	case o.Has("plan") && o.Has("model_output_message"):
		return "planning"
	}
	return ""
}

// readSmolagents reads a smolagents agent's memory: the list of its steps
// as dicts (agent.memory.get_full_steps(), get_succinct_steps(), the
// steps of a RunResult), or an object holding them under "steps".
//
// An ActionStep's tool_calls are its calls ({"id", "type": "function",
// "function": {"name", "arguments"}}; the flat {"name", "arguments",
// "id"} of older versions too). A CodeAgent records each step's code as
// one call of "python_interpreter", read with args {"code": <the code>};
// the tools the code calls are not recorded apart. smolagents keeps one
// result for a whole step: its observations (the outputs of all its calls
// together) are the output of each of its calls, and its error makes them
// all failed, {"content": <error>, "is_error": true}. A TaskStep opens a
// turn; planning, final-answer and system prompt steps hold no calls.
func readSmolagents(b *builder, v any) error {
	path := ""
	if o, ok := v.(jsonvalue.Object); ok {
		if s, ok := get(o, "steps").([]any); ok {
			v, path = s, "steps"
		} else {
			v = []any{o}
		}
	}
	steps, ok := v.([]any)
	if !ok {
		return wantError("smolagents memory steps (a list of step dicts)", v)
	}
	for i, s := range steps {
		p := index(path, i)
		o, ok := s.(jsonvalue.Object)
		if !ok {
			b.skip(s, p, "a JSON %s, not a step", jsonvalue.Kind(s))
			continue
		}
		switch kind := smolagentsStep(o); {
		case kind == "action":
			if err := smolagentsAction(b, o, p); err != nil {
				return err
			}
		case kind == "task":
			b.saw()
			b.userTurn(get(o, "task"))
		case kind == "planning", o.Has("system_prompt"), len(o) == 1 && o.Has("output"):
			b.saw() // a plan, the system prompt, the final answer
		default:
			b.skip(o, p, "step with keys %s", quoteKeys(o))
		}
	}
	return nil
}

// smolagentsAction reads an ActionStep: its calls and their one result.
func smolagentsAction(b *builder, o jsonvalue.Object, path string) error {
	b.saw()
	tcs, _ := get(o, "tool_calls").([]any)
	var added []int
	for j, tc := range tcs {
		p := index(join(path, "tool_calls"), j)
		fn, fp := tc, p
		if f, ok := get(tc, "function").(jsonvalue.Object); ok {
			fn, fp = f, join(p, "function")
		}
		n, err := name(fn, "name", fp)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, ID: id(get(tc, "id"))}
		if code, ok := get(fn, "arguments").(string); ok && n == "python_interpreter" {
			c.Args = jsonvalue.Object{{Key: "code", Value: code}}
		} else {
			args(&c, fn, "arguments")
		}
		added = append(added, b.add(tc, c))
	}
	if len(added) == 0 {
		return nil
	}
	obs, hasObs := o.Get("observations")
	e := get(o, "error")
	for _, k := range added {
		switch {
		case e != nil:
			b.set(k, failed(e))
		case hasObs && obs != nil:
			b.set(k, obs)
		case get(o, "is_final_answer") == true:
			b.set(k, get(o, "action_output"))
		}
	}
	return nil
}
