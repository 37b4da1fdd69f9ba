// Package snapshot turns a recorded agent run into a regression case, and
// checks new runs against the cases it made: from a good run to a test in
// one command, as golden files and snapshot tests do for code.
//
// A snapshot is the case a run makes: its id, its input (the user's first
// message), the calls it made in order with their arguments and status,
// and argument rules that let the case pass the same behaviour on other
// data — another order looked up, another day — while an invented value
// still fails. The inference is a package of its own because it is a
// policy over several others, none of which it belongs to: package trace
// reads the runs, package grounding says which values are specific enough
// to trace, package match grades the rules it writes, and package dataset
// reads the case back. The command (toolgrade snapshot) only wires it.
//
// # Rules
//
// Each argument value of each expected call, in order (the members of
// objects at any depth, through lists: "items.0.sku"):
//
//  1. A value found in the user's input — the case's input and the user
//     messages up to the call's turn, as the grounding metric finds values
//     ([grounding.Source.Holds]), or as part of any of their strings — is
//     kept as recorded: the input is part of the case.
//  2. Otherwise a value worth tracing ([grounding.Metric.Checks] with the
//     metric's defaults: ids, emails, URLs, numbers of 4 digits or more;
//     and ISO 8601 dates and date-times) that equals, by the JSON value
//     semantics (type and value: "1234" is not 1234), a value in the
//     output of an earlier call becomes a from rule on that output's
//     path. The earliest such call is the source, and the first place in
//     its output in document order; the note lists the others. An object
//     or list argument equal to a value of an earlier output, holding a
//     value worth tracing, becomes one from rule as a whole. Paths reach
//     into JSON held in strings, as the rule reads them.
//  3. Otherwise a volatile value found nowhere earlier (neither whole nor
//     inside a string of an earlier output) is not compared (an ignore
//     rule): an ISO 8601 date-time ("2025-03-06T14:30:00Z", also with a
//     space, an offset, or in basic form) or date ("2025-03-06"), a UUID,
//     the value of an argument named as an idempotency key, nonce or
//     request id (idempotency_key, Idempotency-Key, nonce, request_id,
//     client_token, dedup_key, ...), or a Unix time in seconds or
//     milliseconds between 2001 and 2100 under an argument named as a
//     moment (timestamp, ts, time, *_at).
//  4. Everything else is kept as recorded.
//
// Every call is expected, in the order made, failed calls too: a call
// that failed is expected with status "error", which the metric satisfies
// only with a call that failed (docs/trajectory.md, expected failures),
// so that a run that failed and retried passes its snapshot and one that
// did not retry fails it. Each failed call is noted, saying whether a
// later call of the tool retried it. A failed call's output is no source
// for a from rule.
//
// Every rule, and every value kept for a reason a reviewer may not guess
// (found in an output but also in the input, found only inside a string,
// an element of a list, which a rule cannot name), is a [Note]: the
// command lists them on standard error, and the case keeps them in its
// snapshot field.
//
// # Non-goals
//
// A snapshot does not judge whether the run was good: that is the person
// who takes it. It does not infer value flows that the from rule cannot
// check — a value inside a string of an output, a value computed from
// another — nor flows of plain text or small numbers, which coincide too
// often to mean anything. It does not generalize the input, the order of
// the calls or their number: the grading options do (order, args).
package snapshot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Run is one recorded run of an agent, as a trace file or a record of a
// multi-record file holds it.
type Run struct {
	ID     string // the id of the case it becomes
	Source string // the file it was read from; "-" for standard input
	Line   int    // the line its record starts on in Source; 0 when the file is one run
	// Record places the run in a file of several that are not JSON
	// Lines: "samples[2]" of an Inspect AI log (a trace.Record's Where).
	Record string
	Format string // the trace format it was read as; "case" for a case or run-file record
	// Input is the user's first message, the case's input; nil when the
	// run has none.
	Input any
	// Inputs are the user's messages, one per turn (Inputs[0] opens turn
	// 1), for runs that record them.
	Inputs []any
	Calls  []toolgrade.Call
	// Warnings say what of the trace was not understood (skipped items).
	Warnings []string
}

// Where names the run for messages: "FILE", "FILE:LINE" or "FILE
// samples[2]".
func (r *Run) Where() string {
	switch {
	case r.Line > 0:
		return r.Source + ":" + strconv.Itoa(r.Line)
	case r.Record != "":
		return r.Source + " " + r.Record
	}
	return r.Source
}

// A Note says what the snapshot made of one argument value or one call,
// and why, for a person to review.
type Note struct {
	// Call is the index of the expected call, which is the call's index
	// in the run; -1 for a note about the case.
	Call int
	Tool string
	// Arg is the argument's path, as its rule is keyed ("items.0.sku");
	// "" for a note about the call itself.
	Arg string
	// Rule is "from" or "ignore" for an inferred rule, "" for a value or
	// call kept as recorded.
	Rule string
	Ref  string // a from rule's reference ("find_order.output.id")
	Why  string
}

// String writes the note as one line: "#1 cancel_order order_id: from
// find_order.output.id: returned by find_order (#0) at output.id", "#1
// cancel_order requested_at: ignore: ...", "#1 cancel_order order_id:
// kept: ..." for a value kept as recorded.
func (n Note) String() string {
	var b strings.Builder
	if n.Call >= 0 {
		fmt.Fprintf(&b, "#%d %s", n.Call, n.Tool)
	}
	if n.Arg != "" {
		b.WriteString(" " + n.Arg)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	switch {
	case n.Rule == "from":
		b.WriteString("from " + n.Ref + ": ")
	case n.Rule == "ignore":
		b.WriteString("ignore: ")
	case n.Arg != "":
		b.WriteString("kept: ")
	}
	b.WriteString(n.Why)
	return b.String()
}

// A Snapshot is the case a run makes.
type Snapshot struct {
	Run *Run
	// Case is the case as it is written: id, input, expected_tools, and
	// snapshot, which says where it came from (trace, line or record,
	// format) and holds the notes and the run's warnings.
	Case  jsonvalue.Object
	Notes []Note
}

// ID returns the case's id.
func (s *Snapshot) ID() string { return s.Run.ID }

// AppendJSON appends the case as one line of JSON, without the newline.
func (s *Snapshot) AppendJSON(dst []byte) []byte { return jsonvalue.Append(dst, s.Case) }

// ground is the grounding metric with its defaults: it says which values
// are worth tracing and how a value is found in the user's input. It is
// made when first used, not when the program starts.
var ground = sync.OnceValue(func() *grounding.Metric {
	m, err := grounding.New(grounding.Options{})
	if err != nil {
		panic(err) // the defaults are valid
	}
	return m
})

// Take infers the case a run makes (see the package doc for the rules).
func Take(r *Run) *Snapshot {
	t := &taker{run: r, outputs: make([]*searched, len(r.Calls)), inputs: make([]*searched, 1+len(r.Inputs))}
	multiTurn := len(r.Inputs) > 1
	calls := make([]any, 0, len(r.Calls))
	for i := range r.Calls {
		c := &r.Calls[i]
		t.rules = nil
		switch {
		case c.Invalid:
			t.note(Note{Call: i, Tool: c.Name, Why: "the arguments are not valid JSON: kept as recorded, and such a call matches no call"})
		case c.Failed():
			t.note(Note{Call: i, Tool: c.Name, Why: failedWhy(r.Calls, i)})
		}
		if args, ok := c.Args.(jsonvalue.Object); ok && !c.Invalid {
			t.walk(i, nil, "", args, false, 0)
		}
		calls = append(calls, expectedCall(c, t.rules, multiTurn))
	}
	if len(r.Calls) == 0 {
		t.note(Note{Call: -1, Why: "the run made no calls: the case expects none"})
	}
	if r.Input == nil {
		t.note(Note{Call: -1, Why: "the run holds no user message: the case has no input"})
	}

	cs := jsonvalue.Object{{Key: "id", Value: r.ID}}
	if r.Input != nil {
		cs = append(cs, jsonvalue.Member{Key: "input", Value: r.Input})
	}
	cs = append(cs, jsonvalue.Member{Key: "expected_tools", Value: calls})
	meta := jsonvalue.Object{{Key: "trace", Value: r.Source}}
	if r.Line > 0 {
		meta = append(meta, jsonvalue.Member{Key: "line", Value: jsonvalue.MustFrom(r.Line)})
	}
	if r.Record != "" {
		meta = append(meta, jsonvalue.Member{Key: "record", Value: r.Record})
	}
	meta = append(meta, jsonvalue.Member{Key: "format", Value: r.Format})
	if notes := noteObjects(t.notes); len(notes) > 0 {
		meta = append(meta, jsonvalue.Member{Key: "notes", Value: notes})
	}
	if len(r.Warnings) > 0 {
		warnings := make([]any, len(r.Warnings))
		for k, w := range r.Warnings {
			warnings[k] = w
		}
		meta = append(meta, jsonvalue.Member{Key: "warnings", Value: warnings})
	}
	cs = append(cs, jsonvalue.Member{Key: "snapshot", Value: meta})
	return &Snapshot{Run: r, Case: cs, Notes: t.notes}
}

// failedWhy is the note on failed call i: expected as a failure, and
// retried or not by a later call of the same tool that did not fail (as
// the metric's failed_calls: retry tells a retry).
func failedWhy(calls []toolgrade.Call, i int) string {
	const expected = `expected with status "error", which only a call that failed satisfies`
	for k := i + 1; k < len(calls); k++ {
		if calls[k].Name == calls[i].Name && !calls[k].Failed() {
			return fmt.Sprintf("failed and was retried by #%d: %s, so the case expects the failure and the retry", k, expected)
		}
	}
	return "failed, and no later call of the tool succeeded: " + expected + "; check that the run was a good one"
}

// callObject writes a call's name, arguments, type and status as a case
// file does: arguments that are not valid JSON as their text, which reads
// back as an invalid call.
func callObject(c *toolgrade.Call) jsonvalue.Object {
	o := jsonvalue.Object{{Key: "name", Value: c.Name}}
	switch {
	case c.Invalid:
		o = append(o, jsonvalue.Member{Key: "args", Value: c.ArgsRaw})
	case c.Args != nil || c.ArgsNull:
		o = append(o, jsonvalue.Member{Key: "args", Value: c.Args})
	}
	if c.Type != "" && c.Type != "function" {
		o = append(o, jsonvalue.Member{Key: "type", Value: c.Type})
	}
	if s := c.Status.String(); s != "" {
		o = append(o, jsonvalue.Member{Key: "status", Value: s})
	}
	return o
}

// expectedCall writes an expected call with its rules; its turn only when
// the run has several, so that a one-turn case grades as a flat list.
func expectedCall(c *toolgrade.Call, rules jsonvalue.Object, multiTurn bool) jsonvalue.Object {
	o := callObject(c)
	if multiTurn && c.Turn > 0 {
		o = append(o, jsonvalue.Member{Key: "turn", Value: jsonvalue.MustFrom(c.Turn)})
	}
	if len(rules) > 0 {
		o = append(o, jsonvalue.Member{Key: "rules", Value: rules})
	}
	return o
}

func noteObjects(notes []Note) []any {
	var out []any
	for _, n := range notes {
		var o jsonvalue.Object
		if n.Call >= 0 {
			o = append(o, jsonvalue.Member{Key: "call", Value: jsonvalue.MustFrom(n.Call)},
				jsonvalue.Member{Key: "tool", Value: n.Tool})
		}
		if n.Arg != "" {
			o = append(o, jsonvalue.Member{Key: "arg", Value: n.Arg})
		}
		if n.Rule != "" {
			o = append(o, jsonvalue.Member{Key: "rule", Value: n.Rule})
		}
		if n.Ref != "" {
			o = append(o, jsonvalue.Member{Key: "ref", Value: n.Ref})
		}
		o = append(o, jsonvalue.Member{Key: "why", Value: n.Why})
		out = append(out, o)
	}
	return out
}

// A taker infers the rules of one run's calls.
type taker struct {
	run     *Run
	outputs []*searched      // by call, read when first searched
	inputs  []*searched      // the case's input, then the turns' inputs
	rules   jsonvalue.Object // of the call being walked
	notes   []Note
}

func (t *taker) note(n Note) { t.notes = append(t.notes, n) }

// rule adds a rule for the argument at path of the call being walked.
func (t *taker) rule(path string, r jsonvalue.Object) {
	t.rules = append(t.rules, jsonvalue.Member{Key: path, Value: r})
}

// walk infers the rules of the argument value v at path of call i.
// member says v is an object member, which a rule
// can name; owner is the path of the nearest member above v, which takes
// the rule for a list element that needs one.
func (t *taker) walk(i int, path []string, owner string, v any, member bool, depth int) {
	if depth > maxDepth {
		return
	}
	p := strings.Join(path, ".")
	if member {
		owner = p
	}
	switch x := v.(type) {
	case jsonvalue.Object:
		if member && t.whole(i, p, v) {
			return
		}
		for _, m := range x {
			if writable(m.Key) {
				t.walk(i, append(path[:len(path):len(path)], m.Key), owner, m.Value, true, depth+1)
			}
		}
	case []any:
		if member && t.whole(i, p, v) {
			return
		}
		before := len(t.rules)
		for k, el := range x {
			t.walk(i, append(path[:len(path):len(path)], strconv.Itoa(k)), owner, el, false, depth+1)
		}
		if member {
			t.settleIgnored(i, p, before)
		}
	default:
		if member {
			t.leaf(i, p, path[len(path)-1], v)
		} else if owner != "" {
			t.element(i, owner, p, v)
		}
	}
}

// settleIgnored keeps only the ignore rule of list argument p of call i
// when one of its elements made it ignored: the rules found inside
// the list since before would not be read, and their notes go with them.
func (t *taker) settleIgnored(i int, p string, before int) {
	k := slices.IndexFunc(t.rules[before:], func(m jsonvalue.Member) bool { return m.Key == p })
	if k < 0 {
		return
	}
	ignored := t.rules[before+k]
	t.rules = append(t.rules[:before], ignored)
	t.notes = slices.DeleteFunc(t.notes, func(n Note) bool {
		return n.Call == i && n.Rule != "" && strings.HasPrefix(n.Arg, p+".")
	})
}

// whole makes an object or list argument a from rule as a whole when an
// earlier output holds it whole, it holds a value worth tracing, and none
// of those values is in the user's input.
func (t *taker) whole(i int, p string, v any) bool {
	traced := false
	inInput := false
	leaves(v, func(l any) {
		if traceable(l) {
			traced = true
			inInput = inInput || t.inInput(i, l)
		}
	})
	if !traced || inInput {
		return false
	}
	o := t.origin(i, v, true)
	if len(o.places) == 0 {
		return false
	}
	t.fromRule(i, p, o)
	return true
}

// leaf infers the rule of one member's value (see the package doc).
func (t *taker) leaf(i int, p, key string, v any) {
	vol := volatile(key, v)
	trace := traceable(v)
	if !trace && vol == "" {
		return // kept as recorded: nothing to say
	}
	in := t.inInput(i, v)
	o := t.origin(i, v, trace)
	c := &t.run.Calls[i]
	keep := func(why string) { t.note(Note{Call: i, Tool: c.Name, Arg: p, Why: why}) }
	switch {
	case in && len(o.places) > 0:
		keep("in the user's input (also returned by " + t.where(o.places[0]) + ")")
	case in:
		// The input gives it: kept, as nothing suggests otherwise.
	case len(o.places) > 0:
		t.fromRule(i, p, o)
	case o.failed >= 0:
		keep(fmt.Sprintf("found in the output of %s, which failed: a failed call is no source", t.callName(o.failed)))
	case o.text >= 0:
		keep(fmt.Sprintf("found in the output of %s, but inside a string or as another type, where a from rule cannot point", t.callName(o.text)))
	case vol != "":
		t.rule(p, jsonvalue.Object{{Key: "ignore", Value: true}})
		t.note(Note{Call: i, Tool: c.Name, Arg: p, Rule: "ignore",
			Why: fmt.Sprintf("%s found nowhere earlier (recorded %s)", vol, jsonvalue.Format(v))})
	}
	if len(o.truncated) > 0 && len(o.places) == 0 {
		keep(fmt.Sprintf("the output of %s is too large to search whole (its first %d values were)", t.callName(o.truncated[0]), maxNodes))
	}
}

// element infers what a list element that no rule can name needs: its
// list is ignored when it is volatile, and a value it traces to is noted.
func (t *taker) element(i int, owner, p string, v any) {
	vol := volatile(lastKey(owner), v)
	trace := traceable(v)
	if !trace && vol == "" || t.inInput(i, v) {
		return
	}
	o := t.origin(i, v, trace)
	c := &t.run.Calls[i]
	switch {
	case len(o.places) > 0:
		t.note(Note{Call: i, Tool: c.Name, Arg: p,
			Why: "returned by " + t.where(o.places[0]) + ", but it is an element of a list, which a rule cannot name"})
	case vol != "" && o.failed < 0 && o.text < 0:
		if slices.ContainsFunc(t.rules, func(m jsonvalue.Member) bool { return m.Key == owner }) {
			return // ignored already
		}
		t.rule(owner, jsonvalue.Object{{Key: "ignore", Value: true}})
		t.note(Note{Call: i, Tool: c.Name, Arg: owner, Rule: "ignore",
			Why: fmt.Sprintf("its element %s is %s found nowhere earlier (recorded %s), and a rule cannot name a list element", p, vol, jsonvalue.Format(v))})
	}
}

func lastKey(p string) string {
	if k := strings.LastIndexByte(p, '.'); k >= 0 {
		return p[k+1:]
	}
	return p
}

// fromRule writes the from rule for the argument at p, from its origin.
func (t *taker) fromRule(i int, p string, o origin) {
	first := o.places[0]
	ref := t.ref(i, first)
	t.rule(p, jsonvalue.Object{{Key: "from", Value: ref}})
	why := "returned by " + t.where(first)
	if n := len(o.places) - 1; n > 0 {
		var also []string
		for _, w := range o.places[1:min(len(o.places), 4)] {
			also = append(also, t.where(w))
		}
		if n > 3 {
			also = append(also, fmt.Sprintf("and %d more", n-3))
		}
		why += "; also by " + strings.Join(also, ", ")
	}
	c := &t.run.Calls[i]
	t.note(Note{Call: i, Tool: c.Name, Arg: p, Rule: "from", Ref: ref, Why: why})
}

// ref writes the reference, from call i, to a place: by the source's tool
// name when it is the nearest earlier call of that name, else by its
// index.
func (t *taker) ref(i int, w where) string {
	name := t.run.Calls[w.call].Name
	byName := name != "" && !strings.Contains(name, ".output") && !strings.HasPrefix(name, "#")
	for k := w.call + 1; byName && k < i; k++ {
		byName = t.run.Calls[k].Name != name
	}
	head := "#" + strconv.Itoa(w.call)
	if byName {
		head = name
	}
	head += ".output"
	if s := w.at.String(); s != "" {
		if !isIndex(w.at[0]) {
			head += "."
		}
		head += s
	}
	return head
}

// where names a place for a note: "find_order (#0) at output.orders[0].id".
func (t *taker) where(w where) string {
	s := t.callName(w.call)
	if p := w.at.String(); p != "" {
		if isIndex(w.at[0]) {
			return s + " at output" + p
		}
		return s + " at output." + p
	}
	return s + " as its whole output"
}

// callName names call i for a note: "find_order (#0)".
func (t *taker) callName(i int) string {
	return fmt.Sprintf("%s (#%d)", t.run.Calls[i].Name, i)
}

// traceable reports a value specific enough that finding it whole in an
// earlier output says it came from there: what the grounding metric
// checks, and ISO 8601 dates and date-times.
func traceable(v any) bool {
	if s, ok := v.(string); ok && (isDateTime(s) || isDate(s)) {
		return true
	}
	return ground().Checks(v)
}

// inInput reports whether the user's input up to call i's turn holds v.
func (t *taker) inInput(i int, v any) bool {
	r := t.run
	n := len(r.Inputs)
	if turn := r.Calls[i].Turn; turn > 0 {
		n = min(n, turn)
	}
	for k := range 1 + n {
		if t.inputs[k] == nil {
			in := r.Input
			if k > 0 {
				in = r.Inputs[k-1]
			}
			t.inputs[k] = search(in)
		}
		if t.inputs[k].holds(v) {
			return true
		}
	}
	return false
}

// A where is a place in the output of one of the run's calls.
type where struct {
	call int // the call's index in the run
	at   place
}

// An origin is where a value was found before the call that passes it.
type origin struct {
	places    []where // whole, in the outputs of calls that did not fail; earliest first
	failed    int     // a failed call whose output holds it (whole or inside a string); -1 for none
	text      int     // a call that did not fail whose output holds it inside a string; -1 for none
	truncated []int   // calls whose outputs were too large to search whole
}

// origin looks for v in the outputs of the calls before call i: whole
// (when whole is set) in the calls that did not fail;
// when it is found so nowhere, whole or inside strings in every call.
func (t *taker) origin(i int, v any, whole bool) origin {
	o := origin{failed: -1, text: -1}
	var failedWhole []int // failed calls that hold v whole
	for k := range i {
		out := t.output(k)
		if out == nil || !whole {
			continue
		}
		places := out.find(v)
		switch {
		case t.source(k):
			for _, at := range places {
				o.places = append(o.places, where{k, at})
			}
		case len(places) > 0:
			failedWhole = append(failedWhole, k)
		}
		if out.truncated {
			o.truncated = append(o.truncated, k)
		}
	}
	if len(o.places) > 0 {
		return o
	}
	for k := range i {
		out := t.output(k)
		if out == nil || !slices.Contains(failedWhole, k) && !out.holds(v) {
			continue
		}
		if t.source(k) && o.text < 0 {
			o.text = k
		}
		if !t.source(k) && o.failed < 0 {
			o.failed = k
		}
	}
	return o
}

// source reports whether the output of call k may be the source of a from
// rule: the call did not fail.
func (t *taker) source(k int) bool {
	return !t.run.Calls[k].Failed()
}

// output returns the output of call k, read for lookups; nil when the
// call has none.
func (t *taker) output(k int) *searched {
	c := &t.run.Calls[k]
	if c.Output == nil {
		return nil
	}
	if t.outputs[k] == nil {
		t.outputs[k] = search(c.Output)
	}
	return t.outputs[k]
}
