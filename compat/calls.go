package compat

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// argsKeys is the table of the keys under which call objects give their
// arguments: toolgrade's own, then as peers' datasets and the formats
// they copy write them. Case files' calls, and the calls that profiles
// read from their peers' own fields, are decoded with it. A call that
// gives its arguments under two of them is an error.
//
// With ignoredKeys below, it is the one place that knows the keys of a
// call object: every other key is an error naming it (see
// [toolgrade.CallDecoder]), so that arguments under a name no format uses
// are never dropped, leaving an expected call that accepts any.
var argsKeys = []string{
	"args",             // toolgrade, Ragas, ADK, Axion, DeepFabric, Gemini
	"input_parameters", // DeepEval's ToolCall
	"inputParameters",  // DeepEval's ToolCall as its JSON writes it
	"arguments",        // OpenAI's tool calls, flat or in "function" (agentevals, openevals, promptfoo)
	"input",            // Anthropic's tool_use blocks, Bedrock's toolUse
	"parameters",       // Llama 3's JSON tool calls, {"name", "parameters"}
}

// ignoredKeys are the keys of peers' own call types that no metric reads,
// each with why: they are metadata, not part of what the call did.
var ignoredKeys = map[string]string{
	"description": "DeepEval's ToolCall: the tool's description, which DeepEval's own scores do not read",
	"reasoning":   "DeepEval's ToolCall: why the agent called the tool, which DeepEval's own scores do not read",
	"index":       "an OpenAI tool_calls entry's position in a streamed reply: calls are graded in list order",
}

var calls = toolgrade.CallDecoder{ArgsKeys: argsKeys, Ignored: ignoredKeys}

// DecodeCalls reads a list of calls as case files give them (see
// docs/cases.md): toolgrade's own form, with the arguments under "args"
// or under the key a peer's dataset uses for them ("input_parameters",
// "inputParameters", "arguments", "input", "parameters"). Errors name the
// element and field, relative to the list ("[1].args"); a key that is not
// a call's says what it may have meant.
func DecodeCalls(v any) ([]toolgrade.Call, error) { return DecodeCallsIn(nil, v) }

// DecodeCallsIn is [DecodeCalls] reading the calls into buf when it has
// room for them (a case's lists share one array): the list returned is
// then buf[:n:n], n the number of calls.
func DecodeCallsIn(buf []toolgrade.Call, v any) ([]toolgrade.Call, error) {
	list, ok := v.([]any)
	if !ok {
		return calls.DecodeCalls(v) // null, or the error
	}
	if len(buf) < len(list) {
		buf = make([]toolgrade.Call, len(list))
	}
	out := buf[:len(list):len(list)]
	for i, e := range list {
		if toolgrade.DecodeUsualCall(&out[i], e) {
			continue // as decodeInto reads it: argsKeys reads "args" first, and it has no "parameters"
		}
		if err := decodeInto(&out[i], e); err != nil {
			return nil, toolgrade.InField("["+strconv.Itoa(i)+"]", err)
		}
	}
	return out, nil
}

// DecodeCall reads one call as [DecodeCalls] does.
func DecodeCall(v any) (toolgrade.Call, error) {
	var c toolgrade.Call
	err := decodeInto(&c, v)
	return c, err
}

// decodeInto reads one call into c; a list's calls are read in place.
func decodeInto(c *toolgrade.Call, v any) error {
	if err := calls.DecodeCallInto(c, v); err != nil {
		return explain(err)
	}
	return schemaAsArgs(c, v)
}

// CallKeys lists every key of a call object [DecodeCall] reads.
func CallKeys() []string { return calls.Keys() }

// IgnoredCallKeys lists the keys of a call object [DecodeCall] knows and
// does not read, each with why.
func IgnoredCallKeys() map[string]string { return ignoredKeys }

// schemaAsArgs refuses Llama's {"name", "parameters"} when the parameters
// are a JSON Schema: a tool definition given as a call would expect its
// schema as the arguments.
func schemaAsArgs(c *toolgrade.Call, v any) error {
	schema, _ := c.Args.(jsonvalue.Object)
	if len(schema) < 2 || !v.(jsonvalue.Object).Has("parameters") || !schema.Has("properties") {
		return nil // the usual case, found at the cost of a look at the call's few keys
	}
	if t, _ := schema.Get("type"); t == "object" {
		return &toolgrade.FieldError{Path: "parameters", Err: errors.New(`a JSON Schema ({"type": "object", "properties": ...}): this is a tool definition, not a call (tool definitions go in available_tools); a call gives the values of its arguments as "args"`)}
	}
	return nil
}

// explain says what a key that is not a call's may have meant: a
// misspelled field, or, when its value is an object, the arguments.
func explain(err error) error {
	if err == nil {
		return nil
	}
	var uk *toolgrade.UnknownKeyError
	if !errors.As(err, &uk) || uk.Hint != "" {
		return err
	}
	keys := CallKeys()
	near, ok := suggest.Nearest(uk.Key, keys)
	if strings.EqualFold(uk.Key, "arg") { // too short for the edit distance to find
		near, ok = "args", true
	}
	switch {
	case ok && !slices.Contains(argsKeys, near):
		uk.Hint = fmt.Sprintf("did you mean %q?", near)
	case ok || isObject(uk.Value):
		uk.Hint = fmt.Sprintf(`if it gives the call's arguments, name them "args" (or %s): read under another name, they would be lost and an expected call would accept any arguments`, orList(argsKeys[1:]))
	default:
		uk.Hint = fmt.Sprintf("a call has %s (see docs/cases.md)", orList(keys))
	}
	return err
}

// isObject reports whether v is an object, or JSON text of one.
func isObject(v any) bool {
	if s, ok := v.(string); ok {
		v, _ = jsonvalue.ParseString(s)
	}
	_, ok := v.(jsonvalue.Object)
	return ok
}

func orList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = `"` + k + `"`
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
