package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "mcp",
		keys:  []string{"jsonrpc"},
		read:  readMCP,
		trace: func(o jsonvalue.Object) level { return when(o.Has("jsonrpc"), decisive) },
		item:  itemObject(func(o jsonvalue.Object) level { return when(o.Has("jsonrpc"), decisive) }),
	})
}

// readMCP reads a Model Context Protocol JSON-RPC log: messages in order
// (JSON Lines, a list, or batches). Each tools/call request is a call
// (params.name, params.arguments, id = the JSON-RPC id as a string) and
// the response with its id gives the output: the result object (isError
// included), or the error object. A retry with a new id is a new call;
// other requests (tools/list, sampling, pings) and notifications are not
// calls, and their responses are not results.
func readMCP(b *builder, v any) error {
	var msgs []any
	switch v := v.(type) {
	case []any:
		msgs = v
	case jsonvalue.Object:
		if !v.Has("jsonrpc") && !v.Has("method") {
			return wantError("MCP JSON-RPC messages", v)
		}
		msgs = []any{v}
	default:
		return wantError("MCP JSON-RPC messages", v)
	}
	// pending maps each open request id to its call index, or -1 for a
	// request that is not a tool call.
	pending := map[string]int{}
	return mcpMessages(b, msgs, "", pending)
}

func mcpMessages(b *builder, msgs []any, path string, pending map[string]int) error {
	for i, m := range msgs {
		p := index(path, i)
		if batch, ok := m.([]any); ok {
			if err := mcpMessages(b, batch, p, pending); err != nil {
				return err
			}
			continue
		}
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(p, "want a JSON-RPC message object, got %s", jsonvalue.Kind(m))
		}
		if !o.Has("jsonrpc") && !o.Has("method") && !o.Has("id") {
			return wantError("a JSON-RPC message at "+p, o)
		}
		b.saw()
		reqID := id(get(o, "id"))
		method, isRequest := get(o, "method").(string)
		switch {
		case isRequest && method == "tools/call":
			params := get(o, "params")
			n, err := name(params, "name", join(p, "params"))
			if err != nil {
				return err
			}
			c := toolgrade.Call{Name: n, ID: reqID}
			args(&c, params, "arguments")
			k := b.add(o, c)
			if reqID != "" {
				pending[reqID] = k
			}
		case isRequest:
			if reqID != "" {
				pending[reqID] = -1
			}
		case reqID != "":
			k, ok := pending[reqID]
			if !ok {
				// Perhaps the answer to a tools/call the log does not hold.
				b.skip(o, p, "response to unknown request id %q", reqID)
				continue
			}
			delete(pending, reqID)
			if k < 0 {
				continue
			}
			if r, ok := o.Get("result"); ok {
				b.set(k, r)
			} else if e, ok := o.Get("error"); ok {
				b.setFailed(k, e)
			} else {
				b.skip(o, p, "response without result or error")
			}
		default:
			b.skip(o, p, "JSON-RPC message without method or id")
		}
	}
	return nil
}
