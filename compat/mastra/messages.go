package mastra

import (
	"fmt"

	"github.com/toolgrade/toolgrade/compat/internal/js"
)

// A typeError is what JavaScript throws where Mastra's code reads a
// property of null or walks a value that is not a list: the case is an
// error, as the scorer's run throws.
type typeError string

func (e typeError) Error() string { return "TypeError: " + string(e) }

// mergedInvocations returns one stored message's tool invocations as
// Mastra merges its two storage forms (mergeToolInvocations): the
// tool-invocation parts in part order, with the legacy
// content.toolInvocations entries whose call id no part has kept in their
// own order, each before the next part it shares an id with, the rest at
// the end. Entries that are falsy (a null toolInvocation) are dropped.
func mergedInvocations(msg any) ([]any, error) {
	content := js.Field(msg, "content")
	legacyV, partsV := js.Field(content, "toolInvocations"), js.Field(content, "parts")
	var fromParts []any
	if !js.Nullish(partsV) {
		parts, ok := partsV.([]any)
		if !ok {
			return nil, typeError("message.content.parts.filter is not a function")
		}
		for _, p := range parts {
			if js.Nullish(p) {
				return nil, typeError("cannot read properties of null (reading 'type')")
			}
			if !js.StrictEqual(js.Field(p, "type"), "tool-invocation") {
				continue
			}
			if inv := js.Field(p, "toolInvocation"); js.Truthy(inv) {
				fromParts = append(fromParts, inv)
			}
		}
	}
	var legacy []any
	if !js.Nullish(legacyV) {
		l, ok := legacyV.([]any)
		if !ok {
			return nil, typeError("message.content.toolInvocations.map is not a function")
		}
		legacy = l
	}
	// The part ids as a Set (only truthy ids), the legacy ids as a Map to
	// the last index that has each.
	partIDs := map[string]bool{}
	for i, inv := range fromParts {
		if id := js.Field(inv, "toolCallId"); js.Truthy(id) {
			partIDs[js.Key(id, -1-i)] = true
		}
	}
	legacyAt := map[string]int{}
	for i, inv := range legacy {
		var id any = js.Undefined{}
		if !js.Nullish(inv) {
			id = js.Field(inv, "toolCallId")
		}
		legacyAt[js.Key(id, 1<<20+i)] = i
	}
	keep := func(inv any) bool {
		return js.Truthy(inv) && !partIDs[js.Key(js.Field(inv, "toolCallId"), 1<<21)]
	}
	var out []any
	next := 0
	for _, inv := range fromParts {
		if id := js.Field(inv, "toolCallId"); js.Truthy(id) {
			if shared, ok := legacyAt[js.Key(id, -1)]; ok && shared >= next {
				for ; next < shared; next++ {
					if keep(legacy[next]) {
						out = append(out, legacy[next])
					}
				}
				next++
			}
		}
		out = append(out, inv)
	}
	for ; next < len(legacy); next++ {
		if keep(legacy[next]) {
			out = append(out, legacy[next])
		}
	}
	return out, nil
}

// A call is one tool call the agent made, as Mastra's extractToolCalls
// counts it: an invocation with a truthy toolName in state result, call or
// output-error.
type call struct {
	name    any // the toolName as stored: a string, in well-formed data
	message int // the index of the message it is in
}

// calls returns the calls of run.output (a list of stored messages), in
// message order. A value that is not a list has no messages to walk (its
// length is undefined) unless it is null or missing, where the scorer
// throws.
func calls(output any) ([]call, error) {
	if js.Nullish(output) {
		return nil, typeError("cannot read properties of undefined (reading 'length')")
	}
	msgs, _ := output.([]any)
	var out []call
	for i, msg := range msgs {
		invs, err := mergedInvocations(msg)
		if err != nil {
			return nil, fmt.Errorf("output[%d]: %w", i, err)
		}
		for _, inv := range invs {
			name := js.Field(inv, "toolName")
			state := js.Field(inv, "state")
			if js.Truthy(name) && (js.StrictEqual(state, "result") || js.StrictEqual(state, "call") || js.StrictEqual(state, "output-error")) {
				out = append(out, call{name: name, message: i})
			}
		}
	}
	return out, nil
}

// invocations returns every merged invocation of run.output, whatever its
// name or state, for noToolErrors, which walks the output with for...of:
// a value that is not iterable throws.
func invocations(output any) ([]any, error) {
	msgs, ok := js.Iterate(output)
	if !ok {
		return nil, typeError("run.output is not iterable")
	}
	var out []any
	for i, msg := range msgs {
		invs, err := mergedInvocations(msg)
		if err != nil {
			return nil, fmt.Errorf("output[%d]: %w", i, err)
		}
		out = append(out, invs...)
	}
	return out, nil
}

// failed reports whether an invocation records a failure, as noToolErrors
// reads one: state call (never completed) or output-error, isError true,
// or a truthy result.error.
func failed(inv any) bool {
	state := js.Field(inv, "state")
	return js.StrictEqual(state, "call") || js.StrictEqual(state, "output-error") ||
		js.StrictEqual(js.Field(inv, "isError"), true) || js.Truthy(js.Field(js.Field(inv, "result"), "error"))
}

// names returns the calls' names.
func names(cs []call) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// is reports whether a called name is the expected name (===).
func is(name any, want string) bool { return js.StrictEqual(name, want) }
