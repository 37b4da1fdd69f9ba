package trace

import (
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "smolagents",
		keys: []string{"step_number", "task", "plan", "steps", "intermediate_steps", "role"},
		read: readSmolagents,
		trace: func(o jsonvalue.Object) level {
			s, _ := firstEntry(o, "steps")
			return max(when(smolagentsStep(s) != "", decisive), smolagentsRun(o))
		},
		item: func(e any) level {
			o, _ := e.(jsonvalue.Object)
			return max(when(smolagentsStep(e) != "", decisive), smolagentsRun(o), when(smolagentsRole(o), decisive))
		},
	})
}

// smolagentsRun says how surely o is a record of a benchmark run's output
// ({"question", "answer", "intermediate_steps", ...}): surely when its
// intermediate_steps hold a tool-call or tool-response message.
func smolagentsRun(o jsonvalue.Object) level {
	steps, ok := o.Get("intermediate_steps")
	switch {
	case !ok:
		return no
	case slices.ContainsFunc(asList(steps), func(m any) bool { o, _ := m.(jsonvalue.Object); return smolagentsRole(o) }):
		return decisive
	case o.Has("question") || o.Has("agent_action_type"):
		return weak
	}
	return no
}

// smolagentsRole says whether o is a chat message of one of the roles
// only smolagents writes: "tool-call" and "tool-response".
func smolagentsRole(o jsonvalue.Object) bool {
	r := str(o, "role")
	return (r == "tool-call" || r == "tool-response") && o.Has("content")
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
// all failed, {"content": <error>, "is_error": true}; a step whose tool
// raised records no call, only the error that names it (read as
// smolagentsUnrecorded says). A TaskStep opens a
// turn; planning, final-answer and system prompt steps hold no calls.
//
// It reads as well the output of smolagents' benchmark runs (see
// readSmolagentsRuns): JSON Lines of records, each holding a run's memory
// as chat messages; and such a list of messages alone.
func readSmolagents(b *builder, v any) error {
	path := ""
	if l, ok := v.([]any); ok && len(l) > 0 {
		if o, _ := l[0].(jsonvalue.Object); o.Has("intermediate_steps") {
			readSmolagentsRuns(b, l)
			return nil
		}
		if slices.ContainsFunc(l, func(m any) bool { return has(m, "role") }) {
			smolagentsMessages(b, l, "")
			return nil
		}
	}
	if o, ok := v.(jsonvalue.Object); ok {
		if o.Has("intermediate_steps") {
			smolagentsRunRecord(b, o, "")
			return nil
		}
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
		c, ok := smolagentsCall(tc)
		if !ok {
			p := index(join(path, "tool_calls"), j)
			fn, fp := tc, p
			if f, ok := get(tc, "function").(jsonvalue.Object); ok {
				fn, fp = f, join(p, "function")
			}
			_, err := name(fn, "name", fp)
			return err
		}
		added = append(added, b.add(tc, c))
	}
	if len(added) == 0 {
		if e, ok := get(o, "error").(jsonvalue.Object); ok {
			smolagentsUnrecorded(b, str(e, "message"), join(path, "error"), failed(e))
		}
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

// readSmolagentsRuns reads the output of a smolagents benchmark run
// (examples/smolagents_benchmark/run.py and the GAIA examples write it):
// JSON Lines of records {"model_id", "question", "answer",
// "true_answer", "intermediate_steps", ...}, each read as a record of its
// own (one record alone is read as the trace).
func readSmolagentsRuns(b *builder, recs []any) {
	for i, r := range recs {
		p := index("", i)
		o, ok := r.(jsonvalue.Object)
		if !ok || !o.Has("intermediate_steps") {
			b.skip(r, p, `line that is no run record {"question", "intermediate_steps"}`)
			continue
		}
		b.record(get(o, "id"), p)
		smolagentsRunRecord(b, o, p)
	}
}

// smolagentsRunRecord reads one run record found at path. Its
// intermediate_steps are the agent's memory as chat messages
// (agent.write_memory_to_messages(), each message's dict()); a run
// without an agent (a bare model) keeps its answer text there instead,
// and a run that failed an empty list.
func smolagentsRunRecord(b *builder, o jsonvalue.Object, path string) {
	b.saw()
	switch steps := get(o, "intermediate_steps").(type) {
	case []any:
		smolagentsMessages(b, steps, join(path, "intermediate_steps"))
	case string, nil:
		// a bare model's answer, or nothing
	default:
		b.skip(steps, join(path, "intermediate_steps"), "intermediate steps that are %s, not a list of messages", jsonvalue.Kind(steps))
	}
}

// smolagentsMessages reads the chat messages smolagents makes of its
// memory (the to_messages of each step), in order:
//
//   - "tool-call": "Calling tools:\n" and the Python text (str()) of the
//     step's tool calls, [{'id', 'type': 'function', 'function':
//     {'name', 'arguments'}}]: the calls, their arguments Python
//     literals (a CodeAgent's python_interpreter call holds its code as
//     a string, read as {"code": <the code>});
//   - "tool-response": "Observation:\n" and the step's observations, the
//     result of each call of the step (one text for all of them); or
//     "Call id: <the first call's id>\nError:\n" and the step's error,
//     which fails all its calls.
//
// A call whose tool raised is not in smolagents' memory: the step keeps
// only its error, with no call id, whose text names the call ("Error
// executing tool 'name' with arguments {...}: ..."); it is read as a
// failed call without an id (see smolagentsUnrecorded). "New task:"
// user messages open turns; the system prompt (tools and examples of
// calls) holds none; the assistant's text (its thoughts, or the calls
// once more as text) is no call of its own.
func smolagentsMessages(b *builder, msgs []any, path string) {
	var step []int // the calls of the current step
	for i, m := range msgs {
		p := index(path, i)
		o, ok := m.(jsonvalue.Object)
		if !ok {
			b.skip(m, p, "a JSON %s, not a message", jsonvalue.Kind(m))
			continue
		}
		if len(list(o, "tool_calls")) > 0 {
			b.skip(o, p, "%s message with tool_calls (smolagents writes its calls as text)", str(o, "role"))
			step = nil
			continue
		}
		text := smolagentsText(get(o, "content"))
		switch role := str(o, "role"); role {
		case "system":
			b.saw()
			b.notCall(get(o, "content"), "the system prompt: tools and examples of calls")
			step = nil
		case "user":
			b.saw()
			if task, ok := strings.CutPrefix(text, "New task:\n"); ok {
				b.userTurn(task)
			}
			step = nil
		case "assistant":
			b.saw()
			step = nil
		case "tool-call":
			step = smolagentsCalls(b, o, text, p)
		case "tool-response":
			b.saw()
			callID, rest := "", text
			if after, ok := strings.CutPrefix(text, "Call id: "); ok {
				callID, rest, _ = strings.Cut(after, "\n")
			}
			if obs, ok := strings.CutPrefix(rest, "Observation:\n"); ok {
				if len(step) == 0 {
					b.result(p, callID, "", obs)
				}
				for _, k := range step {
					b.set(k, obs)
				}
				continue
			}
			msg, ok := strings.CutPrefix(rest, "Error:\n")
			if !ok {
				b.skip(o, p, "tool response that is neither an observation nor an error")
				continue
			}
			msg, _, _ = strings.Cut(msg, "\nNow let's retry: ")
			switch {
			case callID == "":
				smolagentsUnrecorded(b, msg, p, msg)
				step = nil
			case len(step) > 0 && b.calls[step[0]].ID == callID:
				for _, k := range step {
					b.setFailed(k, msg)
				}
			default:
				b.link(p, callID, "", msg, true)
			}
		default:
			b.skip(o, p, "message with role %q", role)
			step = nil
		}
	}
}

// smolagentsText is the text of a message's content: a string, or its
// text parts joined.
func smolagentsText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	var sb strings.Builder
	for _, p := range asList(content) {
		sb.WriteString(str(p, "text"))
	}
	return sb.String()
}

// smolagentsCalls reads a tool-call message's calls and returns their
// indices.
func smolagentsCalls(b *builder, o jsonvalue.Object, text, path string) []int {
	rest, ok := strings.CutPrefix(text, "Calling tools:\n")
	if !ok {
		b.skip(o, path, `tool-call message without "Calling tools:"`)
		return nil
	}
	v, err := parsePython(rest)
	tcs, isList := v.([]any)
	if err != nil || !isList {
		b.skip(o, path, "tool calls that are no Python list of calls")
		return nil
	}
	b.saw()
	var added []int
	for j, tc := range tcs {
		c, ok := smolagentsCall(tc)
		if !ok {
			b.skip(tc, index(path, j), "tool call without a name")
			continue
		}
		added = append(added, b.add(nil, c))
	}
	return added
}

// smolagentsCall reads a ToolCall's dict ({"id", "type": "function",
// "function": {"name", "arguments"}}, or the flat {"name", "arguments",
// "id"} of older versions); it is not one without a string name. A
// CodeAgent's python_interpreter call holds its code as a string, read
// as {"code": <the code>}.
func smolagentsCall(tc any) (toolgrade.Call, bool) {
	fn := tc
	if f, ok := get(tc, "function").(jsonvalue.Object); ok {
		fn = f
	}
	n, ok := get(fn, "name").(string)
	if !ok {
		return toolgrade.Call{}, false
	}
	c := toolgrade.Call{Name: n, ID: id(get(tc, "id"))}
	if code, ok := get(fn, "arguments").(string); ok && n == "python_interpreter" {
		c.Args = jsonvalue.Object{{Key: "code", Value: code}}
	} else {
		args(&c, fn, "arguments")
	}
	return c, true
}

// smolagentsUnrecorded reads the error of a step that recorded no call.
// smolagents sets a step's tool_calls only once all of them have run, so
// a tool that raised leaves its call in the error text alone: "Error
// executing tool 'name' with arguments {...}: Type: message" (and "Error
// executing request to team member 'name' with arguments ..." for a
// managed agent). That is a failed call without an id, its arguments
// the Python text of a dict. A call of an unknown tool, or one whose
// arguments failed validation, names no arguments (or no tool): it is
// skipped, so that it is reported. Other errors (the model's output that
// parsed as no call, the step limit) hold no call.
func smolagentsUnrecorded(b *builder, msg, path string, output any) {
	var rest string
	ok := false
	for _, prefix := range []string{"Error executing tool '", "Error executing request to team member '"} {
		if rest, ok = strings.CutPrefix(msg, prefix); ok {
			break
		}
	}
	switch {
	case ok:
		n, argText, found := strings.Cut(rest, "' with arguments ")
		p := pyParser{s: argText}
		a, err := p.value()
		if !found || err != nil || !strings.HasPrefix(argText[p.pos:], ":") {
			b.skip(msg, path, "failed call whose arguments cannot be told from its error (%s)", shorten(msg))
			return
		}
		c := toolgrade.Call{Name: n}
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
		b.setFailed(b.add(nil, c), output)
	case strings.HasPrefix(msg, "Unknown tool "), strings.HasPrefix(msg, "Argument "):
		b.skip(msg, path, "failed call smolagents did not record (%s)", shorten(msg))
	}
}
