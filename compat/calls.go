package compat

import "github.com/toolgrade/toolgrade"

// argsKeys is the table of the keys under which call objects give their
// arguments, toolgrade's own first, then as peers' datasets and the
// formats they copy write them, in order of precedence: a call that has
// several is read from the first listed. Case files' calls, and the calls
// that profiles read from their peers' own fields, are decoded with it.
// It is the one place that knows argument keys: a key that is read as
// another format reads it, or that is named as a mistake, belongs here.
var argsKeys = []string{
	"args",             // toolgrade, Ragas, ADK, Axion, DeepFabric
	"input_parameters", // DeepEval's ToolCall
	"inputParameters",  // DeepEval's ToolCall as its JSON writes it
	"arguments",        // OpenAI's tool calls, flat or in "function" (agentevals, openevals, promptfoo)
	"input",            // Anthropic's tool_use blocks
}

var calls = toolgrade.CallDecoder{ArgsKeys: argsKeys}

// DecodeCalls reads a list of calls as case files give them (see
// docs/cases.md): toolgrade's own form, with the arguments under "args"
// or under the key a peer's dataset uses for them ("input_parameters",
// "inputParameters", "arguments", "input"). Errors name the element and
// field, relative to the list ("[1].args").
func DecodeCalls(v any) ([]toolgrade.Call, error) { return calls.DecodeCalls(v) }

// DecodeCall reads one call as [DecodeCalls] does.
func DecodeCall(v any) (toolgrade.Call, error) { return calls.DecodeCall(v) }

// CallKeys lists every key of a call object [DecodeCall] reads.
func CallKeys() []string { return calls.Keys() }
