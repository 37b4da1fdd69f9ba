package trace

import (
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "nexusraven",
		keys:  []string{"python_function_calls", "json_function_calls", "python_function_name", "query_dict", "query", "Output", "turns_1"},
		read:  readNexusRaven,
		trace: isNexusRaven,
		item:  itemObject(isNexusRaven),
	})
}

// isNexusRaven recognizes a record of NexusRaven's evaluation data, in
// any of the shapes readNexusRaven reads.
func isNexusRaven(o jsonvalue.Object) level {
	return when(hasAny(o, "python_function_calls", "json_function_calls", "python_function_name") ||
		o.Has("query_dict") && o.Has("dataset") || len(o) == 2 && o.Has("query") && o.Has("reference") ||
		o.Has("Input") && o.Has("Output") && o.Has("ToolName") || has(get(o, "turns_1"), "golden_answer"), decisive)
}

// readNexusRaven reads NexusRaven API evaluation records in the shapes of
// NexusRaven's own data (nexusflowai/NexusRaven raven/data):
//
//   - standardized queries {"dataset", "prompt", "python_function_name",
//     "python_args_dict", "context_functions"}: one call, its arguments
//     the JSON text (or object) python_args_dict;
//   - raw queries {"query", "reference"} (virustotal, emailrep, cve_cpe),
//     reference being the Python call text (cve_cpe references carry an
//     "r = " assignment and an "nvdlib." module prefix, which NexusRaven
//     itself strips), and the same under {"dataset", "query_dict"} with
//     query_dict as JSON text;
//   - ToolLLM queries {"Input", "Output", "Output_Original", "ToolName",
//     "context"}: the Python call text Output, answering Input (a user
//     turn); Output_Original is the same call before NexusRaven
//     normalized it, and context the functions' Python source;
//   - ToolAlpaca queries {"turns_1", ..., "turns_5"}: each turn in order a
//     user turn (its instruction), its calls the Python call strings of
//     golden_answer (JSON text); backup repeats them in ToolAlpaca's form,
//     and a turn whose fields are null is none;
//   - lists of Python call strings under "python_function_calls", or JSON
//     calls {"name", "arguments"} under "json_function_calls".
//
// A file of them (NexusRaven's *_queries.json are JSON arrays; the Hub's
// rows JSON Lines) is read as records, one per query, without ids; a
// record that does not read is skipped. No ids, no outputs.
func readNexusRaven(b *builder, v any) error {
	recs, ok := v.([]any)
	if !ok {
		return nexusRavenQuery(b, v)
	}
	for i, r := range recs {
		p := index("", i)
		if o, ok := r.(jsonvalue.Object); !ok || isNexusRaven(o) == no {
			b.skip(r, p, "record that is no NexusRaven query")
			continue
		}
		b.record(nil, p)
		if err := nexusRavenQuery(b, r); err != nil {
			b.skip(r, p, "query not read: %v", err)
		}
	}
	return nil
}

func nexusRavenQuery(b *builder, v any) error {
	if qd, ok := get(v, "query_dict").(string); ok {
		x, err := b.parse(qd)
		if err != nil {
			return fieldError("query_dict", "not JSON: %v", err)
		}
		return nexusRavenRecord(b, x, "query_dict.")
	}
	return nexusRavenRecord(b, v, "")
}

func nexusRavenRecord(b *builder, v any, prefix string) error {
	if n, ok := get(v, "python_function_name").(string); ok {
		call := toolgrade.Call{Name: n}
		if a, has := first(v, "python_args_dict"); has {
			call.Args, call.ArgsRaw, call.Invalid = toolgrade.DecodeArgs(a)
		} else {
			call.Args = jsonvalue.Object{}
		}
		b.add(v, call)
		return nil
	}
	if ref, ok := get(v, "reference").(string); ok {
		ref = strings.TrimSpace(ref)
		ref = strings.TrimPrefix(ref, "r = ")
		ref = strings.TrimPrefix(ref, "nvdlib.")
		return addPythonCalls(b, ref, prefix+"reference")
	}
	if out, ok := get(v, "Output").(string); ok && has(v, "Input") {
		b.userTurn(get(v, "Input"))
		b.read(get(v, "Output_Original")) // the call before it was normalized
		return addPythonCalls(b, out, prefix+"Output")
	}
	if has(get(v, "turns_1"), "golden_answer") {
		return nexusRavenTurns(b, v.(jsonvalue.Object), prefix)
	}
	if py, ok := get(v, "python_function_calls").([]any); ok {
		for i, s := range py {
			text, ok := s.(string)
			if !ok {
				return fieldError(index(prefix+"python_function_calls", i), "want a Python call string, got %s", jsonvalue.Kind(s))
			}
			if err := addPythonCalls(b, text, index(prefix+"python_function_calls", i)); err != nil {
				return err
			}
		}
		b.saw()
		return nil
	}
	js, ok := get(v, "json_function_calls").([]any)
	if !ok {
		return wantError(`a NexusRaven record {"prompt", "python_function_name", "python_args_dict"} or {"query", "reference"}`, v)
	}
	b.saw()
	for i, c := range js {
		p := index(prefix+"json_function_calls", i)
		if text, isText := c.(string); isText {
			x, err := b.parse(text)
			if err != nil {
				return fieldError(p, "not JSON: %v", err)
			}
			c = x
		}
		n, _ := first(c, "name", "api_name", "function")
		s, ok := n.(string)
		if !ok {
			return fieldError(p, "want a call with a name, got %s", describe(c))
		}
		call := toolgrade.Call{Name: s}
		nullableArgs(&call, c, "arguments", "args", "parameters")
		b.add(c, call)
	}
	return nil
}

// nexusRavenTurns reads a ToolAlpaca query {"turns_1", ...}, its turns in
// the order of their numbers.
func nexusRavenTurns(b *builder, v jsonvalue.Object, prefix string) error {
	b.saw()
	for n := 1; n <= len(v); n++ {
		key := "turns_" + strconv.Itoa(n)
		t, ok := v.Get(key)
		if !ok {
			return fieldError(prefix+key, "missing: want turns numbered from 1 (got keys %s)", quoteKeys(v))
		}
		if str(t, "instruction") == "" && get(t, "golden_answer") == nil {
			continue // no turn
		}
		b.userTurn(get(t, "instruction"))
		b.read(get(t, "backup")) // the same calls in ToolAlpaca's form
		p := join(prefix+key, "golden_answer")
		text, ok := get(t, "golden_answer").(string)
		if !ok {
			return fieldError(p, "want JSON text of a list of Python calls, got %s", jsonvalue.Kind(get(t, "golden_answer")))
		}
		calls, err := b.parse(text)
		list, isList := calls.([]any)
		if err != nil || !isList {
			return fieldError(p, "want JSON text of a list of Python calls, got %s", describe(text))
		}
		for i, s := range list {
			call, ok := s.(string)
			if !ok {
				return fieldError(index(p, i), "want a Python call string, got %s", jsonvalue.Kind(s))
			}
			if err := addPythonCalls(b, call, index(p, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
