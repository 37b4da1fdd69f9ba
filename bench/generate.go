// Package bench generates realistic case datasets and holds toolgrade's
// benchmarks: argument comparison, assignment, matching, case decoding,
// trace reading, schema validation and the whole pipeline. run.sh times
// `toolgrade eval` end to end against a Python loop that only parses each
// line; README.md records the figures and how they were made.
//
// Performance targets live here and in run.sh as benchmarks (testing.B with
// b.Loop), never as timed unit tests. Non-goals: a generated case is
// realistic in shape and size, not a sample of any real agent's mistakes.
package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Generator makes cases that look like recorded agent runs: 0 to 8
// expected calls to a handful of tools with nested arguments, and the calls
// the agent made: mostly right, some with a wrong, missing or extra
// argument, numbers spelled differently (2 and 2.0), keys in another order,
// calls dropped, duplicated, added or reordered. About one case in five
// gives its calls as an OpenAI chat transcript (agent_trajectory) instead
// of a tools_called list. The same seed always gives the same cases.
type Generator struct {
	rng *rand.Rand
	// MaxCalls bounds the expected calls of a case (0: 8). At 8 a line
	// averages about 1,470 bytes; at 3, about 660.
	MaxCalls int
}

// NewGenerator returns a generator whose output depends only on seed.
func NewGenerator(seed uint64) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(seed, 0x70016ade))}
}

// Write writes n cases to w as JSON Lines, with ids case-0 to case-(n-1).
func (g *Generator) Write(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	var line []byte
	for i := range n {
		line = jsonvalue.Append(line[:0], g.Case(i))
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Lines returns n cases as JSON Lines, for benchmarks that read from memory.
func (g *Generator) Lines(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = jsonvalue.Append(nil, g.Case(i))
	}
	return out
}

var (
	words  = []string{"paris", "london", "quarterly", "report", "weather", "north", "summary", "table", "invoice", "team", "meeting", "budget", "Zürich", "東京", "café", "release", "notes", "draft"}
	people = []string{"ana", "bo", "chen", "dara", "eli", "fatima", "goran", "hana"}
	units  = []string{"celsius", "fahrenheit"}
	tables = []string{"orders", "users", "events", "payments"}
)

func (g *Generator) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *Generator) words(lo, hi int) string {
	n := lo + g.rng.IntN(hi-lo+1)
	b := make([]byte, 0, 8*n)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, g.pick(words)...)
	}
	return string(b)
}

func num(i int) json.Number { return json.Number(strconv.Itoa(i)) }

func (g *Generator) email() string { return g.pick(people) + "@example.com" }

// call returns one expected call with arguments shaped like a real tool's.
func (g *Generator) call() jsonvalue.Object {
	var name string
	var args jsonvalue.Object
	switch g.rng.IntN(7) {
	case 0:
		name = "get_weather"
		args = jsonvalue.Object{{Key: "city", Value: g.pick(words)}, {Key: "unit", Value: g.pick(units)}}
		if g.rng.IntN(2) == 0 {
			args = append(args, jsonvalue.Member{Key: "days", Value: num(1 + g.rng.IntN(7))})
		}
	case 1:
		name = "send_email"
		to := []any{g.email()}
		for range g.rng.IntN(2) {
			to = append(to, g.email())
		}
		args = jsonvalue.Object{{Key: "to", Value: to}, {Key: "subject", Value: g.words(2, 5)}, {Key: "body", Value: g.words(4, 12)}}
	case 2:
		name = "create_event"
		var attendees []any
		for range 1 + g.rng.IntN(2) {
			p := g.pick(people)
			attendees = append(attendees, jsonvalue.Object{{Key: "name", Value: p}, {Key: "email", Value: p + "@example.com"}})
		}
		args = jsonvalue.Object{
			{Key: "title", Value: g.words(1, 4)},
			{Key: "when", Value: jsonvalue.Object{
				{Key: "date", Value: fmt.Sprintf("2025-%02d-%02d", 1+g.rng.IntN(12), 1+g.rng.IntN(28))},
				{Key: "time", Value: fmt.Sprintf("%02d:%02d", g.rng.IntN(24), 15*g.rng.IntN(4))},
				{Key: "tz", Value: "Europe/Paris"},
			}},
			{Key: "attendees", Value: attendees},
			{Key: "duration_min", Value: num(15 * (1 + g.rng.IntN(8)))},
		}
	case 3:
		name = "run_sql"
		args = jsonvalue.Object{
			{Key: "query", Value: "SELECT * FROM " + g.pick(tables) + " WHERE id = ? AND note LIKE '%" + g.pick(words) + "%'"},
			{Key: "params", Value: []any{num(g.rng.IntN(100000))}},
			{Key: "limit", Value: num(10 * (1 + g.rng.IntN(10)))},
		}
	case 4:
		name = "search"
		args = jsonvalue.Object{
			{Key: "query", Value: g.words(1, 6)},
			{Key: "filters", Value: jsonvalue.Object{
				{Key: "lang", Value: "en"},
				{Key: "after", Value: "2024-01-01"},
				{Key: "min_score", Value: json.Number(strconv.FormatFloat(float64(g.rng.IntN(100))/100, 'f', -1, 64))},
			}},
			{Key: "top_k", Value: num(1 + g.rng.IntN(20))},
		}
	case 5:
		name = "lookup_user"
		args = jsonvalue.Object{{Key: "user_id", Value: num(g.rng.IntN(1 << 20))}, {Key: "fields", Value: []any{"name", "email", "plan"}}}
	default:
		name = "book_flight"
		args = jsonvalue.Object{
			{Key: "from", Value: g.pick(words)},
			{Key: "to", Value: g.pick(words)},
			{Key: "passengers", Value: num(1 + g.rng.IntN(4))},
			{Key: "nonstop", Value: g.rng.IntN(2) == 0},
			{Key: "max_price", Value: nil},
		}
	}
	return jsonvalue.Object{{Key: "name", Value: name}, {Key: "args", Value: args}}
}

// variant returns what an agent might have called for expected call e:
// mostly e itself, sometimes with one argument wrong, missing or added, a
// whole number spelled as a float, or its keys reordered.
func (g *Generator) variant(e jsonvalue.Object) jsonvalue.Object {
	name, _ := e.Get("name")
	a, _ := e.Get("args")
	args := append(jsonvalue.Object(nil), a.(jsonvalue.Object)...)
	switch r := g.rng.IntN(100); {
	case r < 60: // the same call
	case r < 70: // a wrong value
		i := g.rng.IntN(len(args))
		args[i].Value = g.words(1, 3)
	case r < 77: // a missing argument
		i := g.rng.IntN(len(args))
		args = append(args[:i], args[i+1:]...)
	case r < 84: // an extra argument
		args = append(args, jsonvalue.Member{Key: "note", Value: g.words(1, 4)})
	case r < 92: // keys in another order, same meaning
		g.rng.Shuffle(len(args), func(i, j int) { args[i], args[j] = args[j], args[i] })
	default: // integers spelled as floats: still equal
		for i, m := range args {
			if n, ok := m.Value.(json.Number); ok && jsonvalue.IsIntegerLiteral(string(n)) {
				args[i].Value = n + ".0"
			}
		}
	}
	return jsonvalue.Object{{Key: "name", Value: name}, {Key: "args", Value: args}}
}

// Case returns case i.
func (g *Generator) Case(i int) jsonvalue.Object {
	r := g.rng
	most := g.MaxCalls
	if most <= 0 {
		most = 8
	}
	expected := make([]any, 0, most)
	for range r.IntN(most + 1) {
		expected = append(expected, g.call())
	}
	if len(expected) > 0 && len(expected) < most && r.IntN(8) == 0 { // a repeated call
		expected = append(expected, expected[r.IntN(len(expected))])
	}
	called := make([]any, 0, 10)
	for _, e := range expected {
		if r.IntN(10) == 0 {
			continue // dropped
		}
		c := g.variant(e.(jsonvalue.Object))
		called = append(called, c)
		if r.IntN(20) == 0 {
			called = append(called, c) // called twice
		}
	}
	for range r.IntN(4) / 2 { // extra calls, 0 to 1
		called = append(called, g.call())
	}
	if r.IntN(3) == 0 {
		r.Shuffle(len(called), func(i, j int) { called[i], called[j] = called[j], called[i] })
	}
	if len(called) > 8 {
		called = called[:8]
	}
	input := fmt.Sprintf("Case %d: please %s", i, g.words(3, 8))
	c := jsonvalue.Object{{Key: "id", Value: "case-" + strconv.Itoa(i)}, {Key: "input", Value: input}}
	if r.IntN(5) == 0 {
		c = append(c, jsonvalue.Member{Key: "agent_trajectory", Value: g.trajectory(input, called)})
	} else {
		c = append(c, jsonvalue.Member{Key: "tools_called", Value: called})
	}
	c = append(c, jsonvalue.Member{Key: "expected_tools", Value: expected})
	if r.IntN(2) == 0 {
		c = append(c, jsonvalue.Member{Key: "actual_output", Value: "Done: " + g.words(2, 6) + "."})
	}
	return c
}

// trajectory writes calls as an OpenAI chat transcript: the user's message,
// assistant messages whose tool_calls carry arguments as JSON text, a tool
// message answering each call, and the final answer. One call in a hundred
// has arguments that are not valid JSON, as truncated model output does.
func (g *Generator) trajectory(input string, calls []any) []any {
	msgs := []any{jsonvalue.Object{{Key: "role", Value: "user"}, {Key: "content", Value: input}}}
	for k := 0; k < len(calls); {
		n := min(1+g.rng.IntN(3), len(calls)-k) // parallel calls in one turn
		var tcs, results []any
		for j := range n {
			c := calls[k+j].(jsonvalue.Object)
			name, _ := c.Get("name")
			args, _ := c.Get("args")
			text := string(jsonvalue.Append(nil, args))
			if g.rng.IntN(100) == 0 {
				text = text[:len(text)/2]
			}
			id := "call_" + strconv.FormatUint(g.rng.Uint64()>>16, 36)
			tcs = append(tcs, jsonvalue.Object{
				{Key: "id", Value: id},
				{Key: "type", Value: "function"},
				{Key: "function", Value: jsonvalue.Object{{Key: "name", Value: name}, {Key: "arguments", Value: text}}},
			})
			results = append(results, jsonvalue.Object{
				{Key: "role", Value: "tool"}, {Key: "tool_call_id", Value: id},
				{Key: "content", Value: `{"ok":true,"summary":"` + g.words(2, 6) + `"}`},
			})
		}
		msgs = append(msgs, jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: nil}, {Key: "tool_calls", Value: tcs}})
		msgs = append(msgs, results...)
		k += n
	}
	return append(msgs, jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: "Done: " + g.words(2, 6) + "."}})
}

// Tools returns the definitions of the tools the generated cases call, in
// OpenAI's function-tool form, for schema validation benchmarks.
func Tools() jsonvalue.Object {
	str := jsonvalue.Object{{Key: "type", Value: "string"}}
	integer := jsonvalue.Object{{Key: "type", Value: "integer"}, {Key: "minimum", Value: json.Number("0")}}
	list := func(items jsonvalue.Object) jsonvalue.Object {
		return jsonvalue.Object{{Key: "type", Value: "array"}, {Key: "items", Value: items}}
	}
	object := func(required []any, props ...jsonvalue.Member) jsonvalue.Object {
		return jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "properties", Value: jsonvalue.Object(props)},
			{Key: "required", Value: required}, {Key: "additionalProperties", Value: false}}
	}
	tool := func(name string, params jsonvalue.Object) any {
		return jsonvalue.Object{{Key: "type", Value: "function"}, {Key: "function", Value: jsonvalue.Object{
			{Key: "name", Value: name}, {Key: "description", Value: "The " + name + " tool."}, {Key: "parameters", Value: params}}}}
	}
	person := object([]any{"name", "email"}, jsonvalue.Member{Key: "name", Value: str}, jsonvalue.Member{Key: "email", Value: str})
	return jsonvalue.Object{{Key: "tools", Value: []any{
		tool("get_weather", object([]any{"city"},
			jsonvalue.Member{Key: "city", Value: str},
			jsonvalue.Member{Key: "unit", Value: jsonvalue.Object{{Key: "enum", Value: []any{"celsius", "fahrenheit"}}}},
			jsonvalue.Member{Key: "days", Value: integer})),
		tool("send_email", object([]any{"to", "subject"},
			jsonvalue.Member{Key: "to", Value: list(str)}, jsonvalue.Member{Key: "subject", Value: str}, jsonvalue.Member{Key: "body", Value: str})),
		tool("create_event", object([]any{"title", "when"},
			jsonvalue.Member{Key: "title", Value: str},
			jsonvalue.Member{Key: "when", Value: object([]any{"date"}, jsonvalue.Member{Key: "date", Value: str},
				jsonvalue.Member{Key: "time", Value: str}, jsonvalue.Member{Key: "tz", Value: str})},
			jsonvalue.Member{Key: "attendees", Value: list(person)},
			jsonvalue.Member{Key: "duration_min", Value: integer})),
		tool("run_sql", object([]any{"query"},
			jsonvalue.Member{Key: "query", Value: str}, jsonvalue.Member{Key: "params", Value: list(jsonvalue.Object{})},
			jsonvalue.Member{Key: "limit", Value: integer})),
		tool("search", object([]any{"query"},
			jsonvalue.Member{Key: "query", Value: str},
			jsonvalue.Member{Key: "filters", Value: jsonvalue.Object{{Key: "type", Value: "object"}}},
			jsonvalue.Member{Key: "top_k", Value: integer})),
		tool("lookup_user", object([]any{"user_id"},
			jsonvalue.Member{Key: "user_id", Value: integer}, jsonvalue.Member{Key: "fields", Value: list(str)})),
		tool("book_flight", object([]any{"from", "to"},
			jsonvalue.Member{Key: "from", Value: str}, jsonvalue.Member{Key: "to", Value: str},
			jsonvalue.Member{Key: "passengers", Value: integer}, jsonvalue.Member{Key: "nonstop", Value: jsonvalue.Object{{Key: "type", Value: "boolean"}}},
			jsonvalue.Member{Key: "max_price", Value: jsonvalue.Object{{Key: "type", Value: []any{"number", "null"}}}})),
	}}}
}
