package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "nexusraven",
		keys: []string{"python_function_calls", "json_function_calls", "python_function_name", "query_dict", "query"},
		read: readNexusRaven,
		trace: func(o jsonvalue.Object) level {
			return when(hasAny(o, "python_function_calls", "json_function_calls", "python_function_name") ||
				o.Has("query_dict") && o.Has("dataset") || len(o) == 2 && o.Has("query") && o.Has("reference"), decisive)
		},
	})
}

// readNexusRaven reads NexusRaven API evaluation records in the shapes of
// NexusRaven's own data (nexusflowai/NexusRaven raven/data):
//
//   - standardized queries {"dataset", "prompt", "python_function_name",
//     "python_args_dict", "context_functions"}: one call, its arguments
//     the JSON text (or object) python_args_dict;
//   - raw queries {"query", "reference"}, reference being the Python call
//     text (cve_cpe references carry an "r = " assignment and an "nvdlib."
//     module prefix, which NexusRaven itself strips), and the same under
//     {"dataset", "query_dict"} with query_dict as JSON text;
//   - lists of Python call strings under "python_function_calls", or JSON
//     calls {"name", "arguments"} under "json_function_calls".
//
// No ids, no outputs.
func readNexusRaven(b *builder, v any) error {
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
