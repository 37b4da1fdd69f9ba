package trace_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
	"pgregory.net/rapid"
)

// jsonValue generates values of the model.
func jsonValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		max := 5
		if depth <= 0 {
			max = 3
		}
		switch rapid.IntRange(0, max).Draw(t, "kind") {
		case 0:
			return rapid.Bool().Draw(t, "bool")
		case 1:
			return json.Number(strconv.Itoa(rapid.IntRange(-1000, 1000).Draw(t, "int")))
		case 2:
			return rapid.String().Draw(t, "string")
		case 3:
			return nil
		case 4:
			return rapid.SliceOfN(jsonValue(depth-1), 0, 3).Draw(t, "list")
		}
		return jsonObject(depth-1).Draw(t, "object")
	})
}

func jsonObject(depth int) *rapid.Generator[jsonvalue.Object] {
	return rapid.Custom(func(t *rapid.T) jsonvalue.Object {
		o := jsonvalue.Object{}
		for _, k := range rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z]{1,5}`), 0, 4, rapid.ID[string]).Draw(t, "keys") {
			o = append(o, jsonvalue.Member{Key: k, Value: jsonValue(depth).Draw(t, "value")})
		}
		return o
	})
}

// A renderer writes calls in one format: the trace, and the calls the
// trace must yield (outputs in the shape that format carries them).
type renderer func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call)

func text(v any) string { return string(jsonvalue.Append(nil, v)) }

func obj(kv ...any) jsonvalue.Object {
	var o jsonvalue.Object
	for i := 0; i < len(kv); i += 2 {
		o = append(o, jsonvalue.Member{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}

// answered returns the indexes of the calls with outputs, shuffled: a
// trace may give results in any order.
func answered(t *rapid.T, calls []toolgrade.Call) []int {
	var idx []int
	for i, c := range calls {
		if c.Output != nil {
			idx = append(idx, i)
		}
	}
	return rapid.Permutation(idx).Draw(t, "result order")
}

var renderers = map[string]renderer{
	"openai_chat": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, obj("id", c.ID, "type", "function", "function", obj("name", c.Name, "arguments", text(c.Args))))
		}
		msgs := []any{obj("role", "user", "content", "go"), obj("role", "assistant", "content", nil, "tool_calls", tcs)}
		for _, i := range answered(t, calls) {
			msgs = append(msgs, obj("role", "tool", "tool_call_id", calls[i].ID, "content", calls[i].Output))
		}
		return msgs, calls
	},
	"openai_responses": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		var items []any
		for _, c := range calls {
			items = append(items, obj("type", "function_call", "id", "fc_"+c.ID, "call_id", c.ID, "name", c.Name, "arguments", text(c.Args)))
		}
		for _, i := range answered(t, calls) {
			items = append(items, obj("type", "function_call_output", "call_id", calls[i].ID, "output", calls[i].Output))
		}
		return items, calls
	},
	"anthropic_messages": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		var uses, results []any
		for _, c := range calls {
			uses = append(uses, obj("type", "tool_use", "id", c.ID, "name", c.Name, "input", c.Args))
		}
		for _, i := range answered(t, calls) {
			results = append(results, obj("type", "tool_result", "tool_use_id", calls[i].ID, "content", calls[i].Output))
		}
		return obj("messages", []any{obj("role", "assistant", "content", uses), obj("role", "user", "content", results)}), calls
	},
	"gemini": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		want := append([]toolgrade.Call(nil), calls...)
		var fcs, frs []any
		for _, c := range calls {
			fcs = append(fcs, obj("functionCall", obj("id", c.ID, "name", c.Name, "args", c.Args)))
		}
		for _, i := range answered(t, calls) {
			want[i].Output = obj("result", calls[i].Output)
			frs = append(frs, obj("functionResponse", obj("id", calls[i].ID, "name", calls[i].Name, "response", want[i].Output)))
		}
		return obj("contents", []any{obj("role", "model", "parts", fcs), obj("role", "user", "parts", frs)}), want
	},
	"bedrock_converse": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		want := append([]toolgrade.Call(nil), calls...)
		var uses, results []any
		for _, c := range calls {
			uses = append(uses, obj("toolUse", obj("toolUseId", c.ID, "name", c.Name, "input", c.Args)))
		}
		for _, i := range answered(t, calls) {
			want[i].Output = []any{obj("text", calls[i].Output)}
			results = append(results, obj("toolResult", obj("toolUseId", calls[i].ID, "content", want[i].Output)))
		}
		return obj("messages", []any{obj("role", "assistant", "content", uses), obj("role", "user", "content", results)}), want
	},
	"langchain": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, obj("name", c.Name, "args", c.Args, "id", c.ID, "type", "tool_call"))
		}
		msgs := []any{obj("type", "ai", "content", "", "tool_calls", tcs)}
		for _, i := range answered(t, calls) {
			msgs = append(msgs, obj("type", "tool", "content", calls[i].Output, "tool_call_id", calls[i].ID))
		}
		return msgs, calls
	},
	"mcp": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		want := append([]toolgrade.Call(nil), calls...)
		var msgs []any
		for i, c := range calls {
			want[i].ID = strconv.Itoa(i + 1)
			msgs = append(msgs, obj("jsonrpc", "2.0", "id", json.Number(want[i].ID), "method", "tools/call", "params", obj("name", c.Name, "arguments", c.Args)))
		}
		for _, i := range answered(t, calls) {
			want[i].Output = obj("content", []any{obj("type", "text", "text", calls[i].Output)}, "isError", false)
			msgs = append(msgs, obj("jsonrpc", "2.0", "id", json.Number(want[i].ID), "result", want[i].Output))
		}
		return msgs, want
	},
	"otel_genai": func(t *rapid.T, calls []toolgrade.Call) (any, []toolgrade.Call) {
		var parts, responses []any
		for _, c := range calls {
			parts = append(parts, obj("type", "tool_call", "id", c.ID, "name", c.Name, "arguments", c.Args))
		}
		for _, i := range answered(t, calls) {
			responses = append(responses, obj("type", "tool_call_response", "id", calls[i].ID, "response", calls[i].Output))
		}
		msgs := text([]any{obj("role", "assistant", "parts", parts), obj("role", "tool", "parts", responses)})
		return obj("gen_ai.operation.name", "chat", "gen_ai.input.messages", msgs), calls
	},
}

// TestRoundTrip: calls written out in any format are extracted back, with
// results linked by id whatever order they come in.
func TestRoundTrip(t *testing.T) {
	for format, render := range renderers {
		t.Run(format, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				n := rapid.IntRange(1, 5).Draw(t, "calls")
				calls := make([]toolgrade.Call, n)
				for i := range calls {
					calls[i] = toolgrade.Call{
						Name: rapid.SampledFrom([]string{"search", "lookup", "get_weather"}).Draw(t, "name"),
						Args: jsonObject(2).Draw(t, "args"),
						ID:   "call_" + strconv.Itoa(i),
					}
					if rapid.Bool().Draw(t, "answered") {
						calls[i].Output = rapid.String().Draw(t, "output")
					}
				}
				v, want := render(t, calls)
				tr, err := trace.Extract(v, "")
				if err != nil {
					t.Fatal(err)
				}
				if tr.Format != format {
					t.Fatalf("detected %s", tr.Format)
				}
				if len(tr.Calls) != len(want) {
					t.Fatalf("%d calls, want %d", len(tr.Calls), len(want))
				}
				for i, got := range tr.Calls {
					w := want[i]
					if got.Name != w.Name || got.ID != w.ID || got.Invalid || !jsonvalue.Equal(got.Args, w.Args) || !jsonvalue.Equal(got.Output, w.Output) {
						t.Fatalf("call %d: got %v id %q output %s, want %v id %q output %s",
							i, got, got.ID, text(got.Output), w, w.ID, text(w.Output))
					}
				}
			})
		})
	}
}
