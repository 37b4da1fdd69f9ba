package promptfoo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A verdict is a validity check's outcome: pass or fail, and why.
type verdict struct {
	pass   bool
	reason string
}

// validateCall is promptfoo's validateFunctionCall of one call against
// the configured functions: the call needs string name and arguments, the
// arguments must parse, the first function of that name must have truthy
// parameters, and Ajv must compile them and accept the arguments. An
// error is what toolgrade does not reproduce.
func validateCall(call any, functions any) (verdict, error) {
	if js.Nullish(call) && !js.IsUndefined(call) {
		return verdict{reason: "TypeError: the call is null"}, nil
	}
	if o, ok := call.(jsonvalue.Object); ok && o.Has("function_call") {
		call = js.Get(o, "function_call")
	}
	name, okName := js.Field(call, "name").(string)
	args, okArgs := js.Field(call, "arguments").(string)
	if !js.IsObject(call) || !okName || !okArgs {
		text, _ := js.Stringify(call)
		return verdict{reason: "OpenAI did not return a valid-looking function call: " + text}, nil
	}
	parsed, err := jsonvalue.ParseString(args)
	if err != nil {
		return verdict{reason: fmt.Sprintf("the arguments of %q are not valid JSON: %v", name, err)}, nil
	}
	var params any = js.Undefined{}
	if list, ok := functions.([]any); ok {
		for _, f := range list {
			if js.Nullish(f) {
				return verdict{reason: "TypeError: a configured function is null"}, nil
			}
			if js.StrictEqual(js.Field(f, "name"), name) {
				params = js.Field(f, "parameters")
				break
			}
		}
	} else if !js.Nullish(functions) {
		return verdict{reason: "TypeError: the configured functions are not a list"}, nil
	}
	if !js.Truthy(params) {
		return verdict{reason: fmt.Sprintf("Called %q, but there is no function with that name", name)}, nil
	}
	schema, err := ajvCompile(params)
	if err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			return verdict{reason: fmt.Sprintf("the parameters of %q do not compile under Ajv's strict mode: %s", name, ce.msg)}, nil
		}
		return verdict{}, err
	}
	ok, err := schema.valid(parsed)
	if err != nil {
		return verdict{}, err
	}
	if !ok {
		return verdict{reason: fmt.Sprintf("Call to %q does not match schema", name)}, nil
	}
	return verdict{pass: true, reason: fmt.Sprintf("the call to %q matches its schema", name)}, nil
}

// toolsCall is is-valid-openai-tools-call.
func toolsCall(output, tools any) (verdict, error) {
	var text string
	if s, ok := output.(string); ok {
		text = s
	} else {
		t, ok := js.Stringify(output)
		if !ok {
			return verdict{}, typeError("Cannot read properties of undefined (reading 'includes'): there is no output")
		}
		text = t
	}
	if strings.Contains(text, "MCP Tool Error") {
		return verdict{reason: "the output holds an MCP Tool Error (promptfoo fails it without a schema check)"}, nil
	}
	if strings.Contains(text, "MCP Tool Result") {
		return verdict{pass: true, reason: "the output holds an MCP Tool Result (promptfoo passes it without a schema check)"}, nil
	}
	if output == nil {
		return verdict{}, typeError("Cannot use 'in' operator to search for 'tool_calls' in null")
	}
	if o, ok := output.(jsonvalue.Object); ok && o.Has("tool_calls") {
		output = js.Get(o, "tool_calls")
	}
	calls, ok := output.([]any)
	good := ok && len(calls) > 0
	for _, c := range calls {
		f := js.Field(c, "function")
		_, n := js.Field(f, "name").(string)
		_, a := js.Field(f, "arguments").(string)
		good = good && !js.Nullish(c) && n && a
	}
	if !good {
		text, _ := js.Stringify(output)
		return verdict{reason: "OpenAI did not return a valid-looking tools response: " + text}, nil
	}
	if !js.Truthy(tools) {
		return verdict{reason: "No tools configured in provider, but output contains tool calls"}, nil
	}
	list, ok := tools.([]any)
	if !ok {
		return verdict{reason: "TypeError: the configured tools are not a list"}, nil
	}
	var functions []any
	for _, t := range list {
		if js.Nullish(t) {
			return verdict{reason: "TypeError: a configured tool is null"}, nil
		}
		if !js.StrictEqual(js.Field(t, "type"), "function") {
			continue
		}
		if _, has := js.Property(t, "function"); has && js.IsRecord(t) {
			functions = append(functions, js.Field(t, "function"))
		}
	}
	for _, c := range calls {
		v, err := validateCall(js.Field(c, "function"), functions)
		if err != nil || !v.pass {
			return v, err
		}
	}
	return verdict{pass: true, reason: fmt.Sprintf("all %d call(s) name a configured function and match its parameters", len(calls))}, nil
}

// functionCall is is-valid-function-call: any failure, a null output
// included, fails the check.
func functionCall(output, functions any) (verdict, error) {
	if output == nil {
		return verdict{reason: "TypeError: Cannot use 'in' operator to search for 'function_call' in null"}, nil
	}
	return validateCall(output, functions)
}

// A typeError is a TypeError promptfoo's code throws.
type typeError string

func (e typeError) Error() string { return "TypeError: " + string(e) }
