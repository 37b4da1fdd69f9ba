package trace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "bfcl_result",
		keys: []string{"result"},
		read: readBFCLResult,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("result") && o.Has("id") && !o.Has("jsonrpc") && !o.Has("ground_truth"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(o.Has("result") && o.Has("id") && !o.Has("jsonrpc") && len(o) <= 8 && !o.Has("role"), decisive)
		}),
	})
}

// readBFCLResult reads a Berkeley Function Calling Leaderboard result file,
// as `bfcl generate` writes a model's answers: JSON Lines of records
// {"id", "result", ...}, one per entry, each read as a record of its own
// with its id (one record alone is read as the trace). A prompting
// model's result is its text, Python calls ("[f(a=1), g(b=2)]", perhaps in
// a ``` fence, or NexusRaven's "f(a=1); g(b=2);"); a function-calling
// model's is a list of {name: arguments} objects, the arguments an object
// or JSON text. Text is read as a prompting model's reply (see
// [ParseToolCalls]): a reply in words holds no call, text that sets out to
// be a call and does not parse is an invalid call, and "Error during
// inference: ..." (the run failed) is a skipped item. Multi-turn results are lists of
// turns, each a list of steps, each such a list; they are read in order,
// each turn a user turn, as the possible_answer's turns are, and the
// record's inference_log gives each turn's user messages and each call's
// result (the tool messages of its step, in order; "Error during
// execution: ..." or {"error": ...} is a failure). No ids.
func readBFCLResult(b *builder, v any) error {
	recs, ok := v.([]any)
	if !ok {
		if !has(v, "result") {
			return wantError(`a BFCL result record {"id", "result"} or a result file of them`, v)
		}
		bfclRecord(b, v.(jsonvalue.Object), "")
		return nil
	}
	for i, r := range recs {
		p := index("", i)
		o, ok := r.(jsonvalue.Object)
		if !ok || !o.Has("result") {
			b.skip(r, p, `line that is no result record {"id", "result"}`)
			continue
		}
		b.record(get(o, "id"), p)
		bfclRecord(b, o, p)
	}
	return nil
}

// bfclRecord reads one result record found at path.
func bfclRecord(b *builder, rec jsonvalue.Object, path string) {
	b.saw()
	r, _ := rec.Get("result")
	rp := join(path, "result")
	turns, ok := r.([]any)
	if !ok || len(turns) == 0 || slices.ContainsFunc(turns, func(t any) bool { _, ok := t.([]any); return !ok }) {
		bfclResult(b, r, rp)
		return
	}
	// A multi-turn result: its inference_log holds, for each turn, an
	// object {"begin_of_turn_query", "step_0", ...} (between lists of
	// state snapshots).
	var logs []jsonvalue.Object
	for _, e := range list(rec, "inference_log") {
		if o, ok := e.(jsonvalue.Object); ok {
			logs = append(logs, o)
		}
	}
	for i, t := range turns {
		var log jsonvalue.Object
		if i < len(logs) {
			log = logs[i]
		}
		b.userTurn(get(log, "begin_of_turn_query"))
		for j, step := range t.([]any) {
			bfclResult(b, step, index(index(rp, i), j))
			bfclToolResults(b, log, i, j, path)
		}
	}
}

// bfclToolResults links the tool messages of step j of turn i of a
// record's inference_log to the step's calls.
func bfclToolResults(b *builder, log jsonvalue.Object, i, j int, path string) {
	key := "step_" + strconv.Itoa(j)
	msgs, _ := log.Get(key)
	for k, m := range asList(msgs) {
		if str(m, "role") != "tool" {
			continue // the model's reply (the calls again) and the handler's notes
		}
		content := get(m, "content")
		text, _ := content.(string)
		b.link(join(join(index(join(path, "inference_log"), i), key), strconv.Itoa(k)), "", "", content,
			strings.HasPrefix(text, "Error during execution: ") || bfclToolError(text))
	}
}

// bfclToolError reports a tool's output that is JSON text of {"error":
// message}, as BFCL's environments report a failed command.
func bfclToolError(text string) bool {
	if !strings.HasPrefix(text, `{"error"`) {
		return false
	}
	v, err := jsonvalue.ParseString(text)
	o, _ := v.(jsonvalue.Object)
	return err == nil && len(o) == 1
}

// bfclResult reads a result (or a step of one) at path.
func bfclResult(b *builder, r any, path string) {
	switch r := r.(type) {
	case string:
		if strings.HasPrefix(r, "Error during inference: ") {
			b.skip(r, path, "failed inference (%s)", shorten(r))
			return
		}
		bfclReply(b, r)
	case []any:
		for i, e := range r {
			bfclResult(b, e, index(path, i))
		}
	case jsonvalue.Object:
		for _, m := range r {
			c := toolgrade.Call{Name: m.Key}
			c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(m.Value)
			b.add(r, c)
		}
	default:
		b.skip(r, path, "result that is neither Python call text nor {name: arguments} but %s", jsonvalue.Kind(r))
	}
}

// bfclReply reads a prompting model's reply as toolgrade reads one (see
// [ParseToolCalls]): Python calls, perhaps fenced; text that sets out to
// be a call and does not parse, an invalid call; words, no call. Models
// asked for Python calls also answer with JSON calls: a reply that is
// JSON, fenced or not, is read as the json protocol reads it, and as
// {name: arguments} objects when it is a list of those, as BFCL's
// function-calling results are.
func bfclReply(b *builder, text string) {
	n := len(b.calls)
	pythonicReplyCalls(b, text)
	t := unfence(text, true)
	if len(b.calls) > n || !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return
	}
	v, err := jsonvalue.ParseString(t)
	l, ok := v.([]any)
	if o, isObj := v.(jsonvalue.Object); isObj {
		l, ok = []any{o}, true
	}
	if err == nil && ok && len(l) > 0 && !slices.ContainsFunc(l, func(e any) bool {
		o, ok := e.(jsonvalue.Object)
		return !ok || len(o) != 1 || o[0].Key == "name"
	}) {
		for _, e := range l {
			o := e.(jsonvalue.Object)
			c := toolgrade.Call{Name: o[0].Key}
			c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(o[0].Value)
			b.add(nil, c)
		}
		return
	}
	jsonReplyCalls(b, t)
}
