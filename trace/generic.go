package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{name: "generic", read: readGeneric, explicit: true})
}

// readGeneric reads a trace of no known format by shape: every
// call-shaped object (see callShape; docs/traces.md lists the rules) is a
// call, in document order, named by its name-like key and with its
// arguments-like value as arguments (for a tool_calls entry, its function's
// name and arguments; for an MCP request, its params'). Results are not
// linked, and turns are not read. It is never detected: only --format
// generic chooses it, and its trace carries a note that says its calls
// were read by shape.
func readGeneric(b *builder, v any) error {
	b.unique = true // an object repeating a call (its id and name) is read once
	a := audit{ledger: &b.ledger, visit: func(o jsonvalue.Object) {
		b.add(o, shapeCall(o))
	}}
	a.run(v)
	if len(b.calls) > 0 {
		b.notes = append(b.notes, "calls read by shape (--format generic): every call-shaped object in document order, without results")
	}
	b.notes = append(b.notes, a.notes...)
	return nil
}

// shapeCall reads the call a call-shaped object makes.
func shapeCall(o jsonvalue.Object) toolgrade.Call {
	src := o
	switch {
	case has(o, "params") && str(o, "method") == "tools/call":
		src = obj(o, "params")
	case obj(o, "function") != nil:
		src = obj(o, "function")
	case obj(o, "custom") != nil:
		src = obj(o, "custom")
	}
	c := toolgrade.Call{ID: shapeID(o)}
	if n, ok := first(src, "name", "toolName", "tool_name", "tool", "function"); ok {
		c.Name, _ = n.(string)
	}
	args(&c, src, "arguments", "args", "input", "parameters", "toolArgs", "tool_input", "kwargs")
	return c
}
