package trace

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A builder collects the calls of one trace and links results to them.
type builder struct {
	calls    []toolgrade.Call
	answered []bool // a result was linked (the result itself may be null)
	// answeredBuf backs answered while it is short: most traces hold a
	// few calls, and the builder is allocated anyway.
	answeredBuf [8]bool
	open        int // every call before open has a result
	// unique drops a call whose id and name were seen before: formats
	// that repeat one call in several views (a chat span's output and the
	// next span's input) set it. Formats that may reuse ids for new calls
	// (τ-bench) must not.
	unique bool
	// pending holds streamed arguments not yet decoded, by call index.
	pending map[int]*fragments
	// skipped lists the items the reader did not understand.
	skipped []Skip
	// seen counts the items of its format the reader recognized.
	seen int
	// failurePrefix, when set, is how a format's result text says that
	// the tool failed (τ-bench's "Error: ").
	failurePrefix string
	// turn is the number of user messages seen so far: calls added now
	// belong to that turn. inputs holds those messages' contents.
	turn   int
	inputs []any
	// views says the reader meets the conversation in views that each
	// repeat it from its start (the input messages of every model call in
	// a span export), so that a user message is a turn only the first time
	// its place in a view is reached; see userMessage.
	views bool
	// ledger records what the reader accounted for, for the audit.
	ledger ledger
	// notes are what the reader wants the trace's user to know.
	notes []string
	// marks holds where each record of a file of several runs starts
	// (see record); floor is the first call of the current one, the
	// earliest a result may link to.
	marks []mark
	floor int
}

// A mark is where a record starts: its id and place, and how many calls,
// skipped items and inputs came before it.
type mark struct {
	id, where            string
	calls, skips, inputs int
}

// record starts a record of a file that holds several runs (a BFCL
// result file's lines, an EvalSet's eval cases): what the reader adds
// from now on is that record's, its turns counted from 1, and results
// link only to its calls. id is the record's own id (a string or a
// number; anything else is none), where its place in the input. A reader
// that marks records marks one before it adds anything.
func (b *builder) record(recordID any, where string) {
	b.marks = append(b.marks, mark{id: id(recordID), where: where, calls: len(b.calls), skips: len(b.skipped), inputs: len(b.inputs)})
	b.floor, b.open, b.turn = len(b.calls), len(b.calls), 0
}

// userTurn records a user message that opens a turn of the conversation
// (not one that only carries tool results), with its content.
func (b *builder) userTurn(input any) {
	b.turn++
	if b.inputs == nil {
		b.inputs = []any{input} // most transcripts have one: no growing
		return
	}
	b.inputs = append(b.inputs, input)
}

// userMessage records the n-th user message (from 1) of a list of
// messages: a turn, except in a view that repeats turns already recorded.
func (b *builder) userMessage(n int, input any) {
	if b.views && n <= len(b.inputs) {
		return
	}
	b.userTurn(input)
}

// ownContent reports whether a user message's content is the user's own
// (text, images, documents), and so opens a turn, rather than only results
// answering the calls before it: text, or a list of blocks (or parts) not
// all of which isResult.
func ownContent(content any, isResult func(block any) bool) bool {
	blocks, ok := content.([]any)
	if !ok {
		return content != nil
	}
	return slices.ContainsFunc(blocks, func(bl any) bool { return !isResult(bl) })
}

// skip records an item the reader saw and did not understand: the item
// itself (accounted for, with all it holds: the audit does not report a
// call in it again), where it is, and what kind of item it is (a format
// with arguments).
func (b *builder) skip(item any, where, kind string, a ...any) {
	if len(a) > 0 {
		kind = fmt.Sprintf(kind, a...)
	}
	b.ledger.account(item)
	b.skipped = append(b.skipped, Skip{Where: where, Kind: kind})
}

// read records that the reader read v, and all it holds, as part of what
// it has recorded otherwise: a streamed fragment of a call it added, a
// repeated view of a call or result, an object it copied before reading
// (see also copied).
func (b *builder) read(v any) { b.ledger.account(v) }

// copied records that copy, a copy the reader made of orig to read it
// (a rebuilt stream item, a renamed key), stands for orig.
func (b *builder) copied(copy, orig jsonvalue.Object) { b.ledger.alias(copy, orig) }

// notCall declares that v (an object, a list, or JSON text), and all it
// holds, is no call of the trace, and why: tool definitions, a schema,
// gold answers of a benchmark, an example in a prompt.
func (b *builder) notCall(v any, why string) {
	b.ledger.account(v)
	b.ledger.notCalls = append(b.ledger.notCalls, why)
}

// notCallItself declares that o is no call itself, and why, though it
// has the keys of one (a span or observation with a name and an input, a
// trace with a name): what o holds is audited still.
func (b *builder) notCallItself(o jsonvalue.Object, why string) {
	if len(o) == 0 {
		return
	}
	b.ledger.shells.add(&o[0])
	b.ledger.notCalls = append(b.ledger.notCalls, why)
}

// parse parses JSON text held in a string of the trace; readers parse
// such text through it, so that the audit meets the same values.
func (b *builder) parse(s string) (any, error) { return b.ledger.parse(s) }

// saw records that the reader recognized an item of its format (a message,
// an item, an event) that need not hold a call.
func (b *builder) saw() { b.seen++ }

// found reports whether the reader found what a format forced on a trace
// detected as another must find: a call, or items of its format beside
// items it skipped (which it reports).
func (b *builder) found() bool { return len(b.calls) > 0 || b.seen > 0 && len(b.skipped) > 0 }

// add appends a call read from src, the object it was read from (a
// tool_calls entry, a tool_use block, a functionCall; nil for a call in
// text), and returns its index; with unique set, a call seen before
// returns the earlier index instead. src, and all it holds, is accounted
// for: a call's arguments are not calls of the trace.
func (b *builder) add(src any, c toolgrade.Call) int {
	b.ledger.account(src)
	if b.unique && c.ID != "" {
		if k := b.find(c.ID, c.Name); k >= 0 {
			return k
		}
	}
	c.Turn = b.turn
	b.calls = append(b.calls, c)
	if b.answered == nil {
		b.answered = b.answeredBuf[:0]
	}
	b.answered = append(b.answered, false)
	return len(b.calls) - 1
}

// reserve makes room for n more calls, which the reader has counted.
func (b *builder) reserve(n int) {
	if n > 0 {
		if b.calls == nil {
			b.calls = make([]toolgrade.Call, 0, n) // of the size asked, without growing
		} else {
			b.calls = slices.Grow(b.calls, n)
		}
		if b.answered == nil {
			b.answered = b.answeredBuf[:0]
		}
		b.answered = slices.Grow(b.answered, n)
	}
}

// records splits what the reader read into the records it marked, and
// returns with them the calls of the whole file, their turns counted
// across the records (see [Trace.Records]).
func (b *builder) records() ([]Record, []toolgrade.Call) {
	recs := make([]Record, len(b.marks))
	all := slices.Clone(b.calls)
	for i, m := range b.marks {
		end := mark{calls: len(b.calls), skips: len(b.skipped), inputs: len(b.inputs)}
		if i+1 < len(b.marks) {
			end = b.marks[i+1]
		}
		recs[i] = Record{ID: m.id, Where: m.where,
			Calls:   b.calls[m.calls:end.calls:end.calls],
			Inputs:  b.inputs[m.inputs:end.inputs:end.inputs],
			Skipped: b.skipped[m.skips:end.skips:end.skips]}
		for k := m.calls; k < end.calls; k++ {
			if all[k].Turn > 0 {
				all[k].Turn += m.inputs
			}
		}
	}
	return recs, all
}

// find returns the index of the first call of the record with id and
// name, or -1.
func (b *builder) find(id, name string) int {
	for k := b.floor; k < len(b.calls); k++ {
		if b.calls[k].ID == id && b.calls[k].Name == name {
			return k
		}
	}
	return -1
}

// result links a tool result found at where. With an id it goes to the
// most recent call with that id and no result yet; a result for a call
// already answered is a repeated view and is dropped. Without an id (or
// when no call has it) it goes to the earliest unanswered call without an
// id that has the result's tool name, or, when name is empty, to the
// earliest unanswered call. A result that answers no call at all is
// reported as a skipped item, never dropped quietly.
func (b *builder) result(where, id, name string, output any) {
	b.link(where, id, name, output, false)
}

// link links a result as result does; with fail set, the trace reports it
// as a failure and it is kept as given (see [builder.setFailed]).
func (b *builder) link(where, id, name string, output any, fail bool) {
	if !b.linked(id, name, output, fail) {
		b.unlinked(where, id, name, output)
	}
}

// linked links a result as link does, and reports whether it answered a
// call (or was a repeated view of a result); else the caller reports it
// with unlinked, building its place only then. The output is accounted
// for once: by give when it answers a call, else here.
func (b *builder) linked(id, name string, output any, fail bool) bool {
	b.seen++
	if id != "" {
		// The latest calls with the id that await a result, back to the
		// last one answered: one, or several a server numbered alike
		// (parallel calls all "call_0"), whose results come in call order.
		// Earlier unanswered calls are reached only when none is later.
		// Every call before open is answered: once k is found, those
		// could only end the loop.
		k, shared, seen := -1, false, false
		for j := len(b.calls) - 1; j >= b.floor && (k < 0 || j >= b.open); j-- {
			if b.calls[j].ID != id {
				continue
			}
			if b.answered[j] {
				if k >= 0 {
					break
				}
				seen = true
				continue
			}
			shared = shared || k >= 0
			k = j
		}
		if shared {
			b.noteOnce(fmt.Sprintf("calls awaiting a result share the id %q: results with that id are linked to them in call order", id))
		}
		if k >= 0 {
			b.give(k, output, fail)
			return true
		}
		if seen {
			b.ledger.account(output)
			return true
		}
	}
	for k := b.open; k < len(b.calls); k++ {
		if b.answered[k] || (id != "" && b.calls[k].ID != "") {
			continue
		}
		if name == "" || b.calls[k].Name == name {
			b.give(k, output, fail)
			return true
		}
	}
	b.ledger.account(output)
	return false
}

// unlinked reports a result at where that answers no call.
func (b *builder) unlinked(where, id, name string, output any) {
	switch {
	case id != "":
		b.skip(output, where, "tool result for unknown call id %q", id)
	case name != "":
		b.skip(output, where, "tool result for %q that answers no call", name)
	default:
		b.skip(output, where, "tool result that answers no call")
	}
}

// noteOnce adds a note the trace's notes do not hold yet.
func (b *builder) noteOnce(note string) {
	if !slices.Contains(b.notes, note) {
		b.notes = append(b.notes, note)
	}
}

// textLine locates offset pos of a text transcript as "line N".
func textLine(s string, pos int) string {
	return "line " + strconv.Itoa(strings.Count(s[:min(pos, len(s))], "\n")+1)
}

// set gives call k its result, marking the call failed when the result
// says so (see [failedOutput]).
func (b *builder) set(k int, output any) {
	b.ledger.account(output)
	b.calls[k].Output = output
	b.calls[k].Status = toolgrade.StatusOK
	if text, ok := output.(string); failedOutput(output) || ok && b.failurePrefix != "" && strings.HasPrefix(text, b.failurePrefix) {
		b.calls[k].Status = toolgrade.StatusError
	}
	b.answered[k] = true
	for b.open < len(b.calls) && b.answered[b.open] {
		b.open++
	}
}

// fragments are the pieces of a streamed argument text, with what the
// start of the call gave in case no piece follows.
type fragments struct {
	text        []byte
	hasText     bool // a text piece came, if only ""
	given       any  // arguments the opening fragment carried whole, if any
	emptyObject bool // no text means {} (Anthropic, Bedrock), not no arguments
	custom      bool // a custom tool's free text: Args {"input": text}
}

// stream opens call k for streamed argument pieces.
func (b *builder) stream(k int) *fragments {
	if b.pending == nil {
		b.pending = make(map[int]*fragments)
	}
	f := b.pending[k]
	if f == nil {
		f = &fragments{}
		b.pending[k] = f
	}
	return f
}

// close decodes the streamed arguments of call k.
func (b *builder) close(k int) {
	f := b.pending[k]
	if f == nil {
		return
	}
	delete(b.pending, k)
	c := &b.calls[k]
	switch {
	case f.custom:
		if f.hasText {
			c.Args = customArgs(string(f.text))
		} else {
			c.Args = customArgs(f.given)
		}
	case len(f.text) > 0:
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(string(f.text))
	case f.given != nil:
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(f.given)
	case f.emptyObject:
		c.Args = jsonvalue.Object{}
	case f.hasText:
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs("")
	}
}

// finish decodes what is still streaming and returns the calls.
func (b *builder) finish() []toolgrade.Call {
	if len(b.pending) == 0 {
		return b.calls // most traces: nothing streamed
	}
	for k := range b.pending {
		b.close(k)
	}
	return b.calls
}

// customArgs wraps a custom tool's free-text input as {"input": text}.
func customArgs(input any) any {
	if input == nil {
		return nil
	}
	return jsonvalue.Object{{Key: "input", Value: input}}
}

// setFailed gives call k a result the trace reports as a failure, kept as
// given (a JSON-RPC error, an mcp_call's error).
func (b *builder) setFailed(k int, output any) {
	b.set(k, output)
	b.calls[k].Status = toolgrade.StatusError
}

// give gives call k its result, failed or as the result says.
func (b *builder) give(k int, output any, fail bool) {
	if fail {
		b.setFailed(k, output)
	} else {
		b.set(k, output)
	}
}

// failedOutput reports whether a tool result marks itself as a failure:
// is_error or isError true (Anthropic, as [failed] wraps it, and MCP's
// CallToolResult), an object holding only "error" (Gemini and ADK
// function responses), or "status": "error" (ADK's convention for tools).
func failedOutput(v any) bool {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return false
	}
	if len(o) == 1 && o[0].Key == "error" && o[0].Value != nil {
		return true
	}
	for _, m := range o {
		switch m.Key {
		case "is_error", "isError":
			if m.Value == true {
				return true
			}
		case "status":
			if m.Value == "error" {
				return true
			}
		}
	}
	return false
}

// failed wraps a result the trace marks as an error.
func failed(content any) any {
	return jsonvalue.Object{{Key: "content", Value: content}, {Key: "is_error", Value: true}}
}

// Accessors for values in the model. They never panic: a missing key or a
// value of another kind reads as the zero value.

func get(v any, key string) any {
	if o, ok := v.(jsonvalue.Object); ok {
		x, _ := o.Get(key)
		return x
	}
	return nil
}

func has(v any, key string) bool {
	o, ok := v.(jsonvalue.Object)
	return ok && o.Has(key)
}

func str(v any, key string) string {
	s, _ := get(v, key).(string)
	return s
}

func obj(v any, key string) jsonvalue.Object {
	o, _ := get(v, key).(jsonvalue.Object)
	return o
}

func list(v any, key string) []any {
	l, _ := get(v, key).([]any)
	return l
}

// first returns the value of the first of keys present in v.
func first(v any, keys ...string) (any, bool) {
	if o, ok := v.(jsonvalue.Object); ok {
		for _, k := range keys {
			if x, ok := o.Get(k); ok {
				return x, true
			}
		}
	}
	return nil, false
}

// id reads a call id: a string, or a number written in decimal.
func id(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	}
	return ""
}

// args decodes an argument value found under one of keys: a JSON string
// is parsed (raw text kept when it does not parse), anything else is the
// value itself, and no key at all means no arguments recorded.
func args(c *toolgrade.Call, v any, keys ...string) {
	if a, ok := first(v, keys...); ok {
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
	}
}

// nullableArgs reads arguments like args, except that the text "null"
// (which some providers send for a call without parameters) is {}.
func nullableArgs(c *toolgrade.Call, v any, keys ...string) {
	a, ok := first(v, keys...)
	if !ok {
		return
	}
	if s, isText := a.(string); isText && strings.TrimSpace(s) == "null" {
		c.Args = jsonvalue.Object{}
		return
	}
	c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
}

// functionCall adds the call of a tool_calls entry at path: {"id",
// "function": {"name", "arguments"}}, or the same without the function
// wrapper; arguments "null" are {} (see nullableArgs).
func functionCall(b *builder, tc any, path string) error {
	src := tc
	fn := tc
	if f, ok := get(tc, "function").(jsonvalue.Object); ok {
		fn, path = f, join(path, "function")
	}
	n, err := name(fn, "name", path)
	if err != nil {
		return err
	}
	c := toolgrade.Call{Name: n, ID: id(get(tc, "id"))}
	nullableArgs(&c, fn, "arguments")
	b.add(src, c)
	return nil
}

// name reads the required tool name of a call object at path.
func name(v any, key, path string) (string, error) {
	x, ok := first(v, key)
	return nameOf(x, ok, join(path, key))
}

// nameOf is name given the name's value x, and ok when there is one,
// found at path.
func nameOf(x any, ok bool, path string) (string, error) {
	if !ok {
		return "", fieldError(path, "missing")
	}
	s, ok := x.(string)
	if !ok {
		return "", fieldError(path, "want a string, got %s", jsonvalue.Kind(x))
	}
	return s, nil
}

// Paths for errors, built only when an error is reported.

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func fieldError(path, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if path == "" {
		return err
	}
	return &toolgrade.FieldError{Path: path, Err: err}
}

// wantError reports a top-level shape a reader does not take.
func wantError(want string, v any) error {
	return fmt.Errorf("want %s, got %s", want, describe(v))
}
