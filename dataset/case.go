package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/trace"
)

// record is one case's text, split off the input and decoded on a worker.
// It is a string so that the decoded case can share its memory instead of
// copying every string and number out of it. What the records of a file
// share is held once for all of them (file), so that a record is 48
// bytes instead of 80.
type record struct {
	data string
	file *recordFile
	line int
	// nth counts the records of a JSON document that start on this line
	// (1 for the first): a document on one line holds several cases, whose
	// ids without one of their own must differ all the same.
	nth      int
	yaml     bool
	yamlItem bool // a "- " item of a YAML list
}

// recordFile is what the records of one file share.
type recordFile struct {
	source string // the file's name
	// qualified: one of several files' records, so its line number alone
	// does not name it.
	qualified bool
	metrics   []toolgrade.Metric // the run's, when known: see DecodeCaseFor
	checks    *decodeChecks      // see Source.Checked
}

// Decode parses the record and builds its case. Errors read
// "FILE:LINE: field F: message" and come with a case that has its ID.
func (r *record) Decode() (*toolgrade.Case, error) { return r.decode(nil) }

// DecodeRecycling is Decode with the record's JSON parsed by p (see
// [toolgrade.RecyclingRecord]); YAML is read as Decode reads it.
func (r *record) DecodeRecycling(p *jsonvalue.Recycler) (*toolgrade.Case, error) {
	return r.decode(p)
}

func (r *record) decode(p *jsonvalue.Recycler) (*toolgrade.Case, error) {
	v, err := r.value(p)
	if err != nil {
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) {
			col := se.Offset - strings.LastIndexByte(r.data[:min(se.Offset, len(r.data))], '\n')
			return r.stub(nil), fmt.Errorf("%s:%d:%d: invalid JSON: %s", r.file.source, r.line+se.Line-1, col, se.Msg)
		}
		if r.yaml {
			// YAML's messages name the line ("line 7: ..."): that line,
			// not the record's first, is the one to give.
			if line, msg, ok := yamlErrorLine(err.Error()); ok {
				return r.stub(nil), fmt.Errorf("%s:%d: %s", r.file.source, line, msg)
			}
		}
		return r.stub(nil), fmt.Errorf("%s:%d: %w", r.file.source, r.line, err)
	}
	var keys caseKeys
	c, err := decodeCaseFor(v, r.file.metrics, &keys, p)
	if err != nil {
		return r.stub(v), fmt.Errorf("%s:%d: %w", r.file.source, r.line, err)
	}
	if c.ID == "" {
		c.ID = r.lineID()
	}
	c.Source, c.Line = r.file.source, r.line
	return c, r.file.checks.check(c, keys)
}

// decodeChecks are the checks a case of a file is given as it decodes
// (see Source.Checked).
type decodeChecks struct {
	before  []func(*toolgrade.Case) error
	checker *Checker
}

// check checks c, decoded, whose keys decoding summed up in keys: as
// toolgrade.CheckCases would with the functions before and then
// checker.CheckCase, without a second pass over the keys.
func (d *decodeChecks) check(c *toolgrade.Case, keys caseKeys) error {
	if d == nil {
		return nil
	}
	for _, check := range d.before {
		if err := check(c); err != nil {
			return err
		}
	}
	if d.checker == nil {
		return nil
	}
	if err := d.checker.check(c, keys); err != nil {
		return inFile(c, err)
	}
	return nil
}

// value parses the record's text, with p if set.
func (r *record) value(p *jsonvalue.Recycler) (any, error) {
	if r.yaml {
		return decodeYAML([]byte(r.data), r.line, r.yamlItem)
	}
	if p != nil {
		return p.ParseString(r.data)
	}
	return jsonvalue.ParseString(r.data)
}

// stub is the case an error result names: its id when the record has a
// readable one, else its line.
func (r *record) stub(v any) *toolgrade.Case {
	c := &toolgrade.Case{ID: r.lineID(), Source: r.file.source, Line: r.line}
	if obj, ok := v.(jsonvalue.Object); ok {
		if id, err := caseID(obj); err == nil && id != "" {
			c.ID = id
		}
	}
	return c
}

// lineID is the id of a case that has none of its own.
func (r *record) lineID() string {
	id := "line-" + strconv.Itoa(r.line)
	if r.nth > 1 {
		id += "#" + strconv.Itoa(r.nth)
	}
	if r.file.qualified {
		id = r.file.source + ":" + id
	}
	return id
}

// The field names of a case, with the aliases peers' datasets use.
var (
	inputKeys            = []string{"input", "query"}
	actualOutputKeys     = []string{"actual_output", "generated_response", "actual_response", "response"}
	expectedOutputKeys   = []string{"expected_output", "expected_response", "reference"}
	calledKeys           = []string{"tools_called", "toolsCalled"}
	expectedKeys         = []string{"expected_tools", "expectedTools", "reference_tool_calls"}
	trajectoryKeys       = []string{"trajectory", "agent_trajectory", "user_input"}
	expectedTrajectories = []string{"expected_trajectory", "expected_agent_trajectory"}
)

// The fields of a case, each found under the first of its aliases present.
const (
	fieldInput = iota
	fieldActualOutput
	fieldExpectedOutput
	fieldTrajectory
	fieldExpectedTrajectory
	fieldCalled
	fieldExpected
	fieldTurns
	fieldInvocations
	numFields
)

// fieldKeys are the keys of each field, its aliases in rank order.
var fieldKeys = [numFields][]string{
	fieldInput: inputKeys, fieldActualOutput: actualOutputKeys, fieldExpectedOutput: expectedOutputKeys,
	fieldTrajectory:         trajectoryKeys,
	fieldExpectedTrajectory: expectedTrajectories, fieldCalled: calledKeys, fieldExpected: expectedKeys,
	fieldTurns: {"turns"}, fieldInvocations: {"invocations"},
}

// A found field: the member it was found in (nil for none) and the rank
// of its key among the field's aliases. A pointer, not the member's key
// and value: a case's fields are zeroed, and written, as it is read.
type found struct {
	m    *jsonvalue.Member
	rank int8
}

func (f found) ok() bool { return f.m != nil }

// key is the key the field was found under, "" for none.
func (f found) key() string {
	if f.m == nil {
		return ""
	}
	return f.m.Key
}

// val is the field's value, nil for none.
func (f found) val() any {
	if f.m == nil {
		return nil
	}
	return f.m.Value
}

// add takes a member whose key is an alias of its field of rank rank:
// the first-ranked alias present wins, and the first of a repeated key.
func (f *found) add(m *jsonvalue.Member, rank int8) {
	if !f.ok() || rank < f.rank {
		*f = found{m, rank}
	}
}

// caseMembers is what one pass over the members of a case finds: its
// fields, the first id and trial, the tool definitions under the first of
// toolKeys present, and whether a key is not the case format's.
type caseMembers struct {
	fields    [numFields]found
	id, trial *jsonvalue.Member
	tools     *jsonvalue.Member
	toolsRank int8
}

// value is the value of a member found, nil when none was.
func value(m *jsonvalue.Member) any {
	if m == nil {
		return nil
	}
	return m.Value
}

// readCase reads the members of a case into r, which is zero: a
// caseMembers is large, and returned it was copied twice. It returns what
// checking the case asks of its keys.
func readCase(r *caseMembers, obj jsonvalue.Object) caseKeys {
	var keys caseKeys
	for i := range obj {
		m := &obj[i]
		k := caseKey(m.Key)
		keys.add(m, k)
		switch {
		case k.field() > 0:
			r.fields[k.field()-1].add(m, k.rank())
		case k.tools() > 0:
			if r.tools == nil || k.tools() < r.toolsRank {
				r.tools, r.toolsRank = m, k.tools()
			}
		case k == keyID:
			if r.id == nil {
				r.id = m
			}
		case k == keyTrial:
			if r.trial == nil {
				r.trial = m
			}
		}
	}
	return keys
}

func caseID(obj jsonvalue.Object) (string, error) {
	v, _ := obj.Get("id")
	return idValue(v)
}

// idValue reads the value of a case's "id" (nil when there is none).
func idValue(v any) (string, error) {
	if v == nil {
		return "", nil
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case json.Number:
		return string(v), nil
	}
	return "", &toolgrade.FieldError{Path: "id", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(v))}
}

// DecodeCase builds a case from its JSON form (see docs/cases.md). Calls
// come from tools_called / expected_tools, or, when those are absent, are
// extracted from trajectory / expected_trajectory by package trace. A
// field that looks like a misspelled case field is an *UnknownFieldError;
// other errors are *toolgrade.FieldError values naming the field.
func DecodeCase(v any) (*toolgrade.Case, error) { return DecodeCaseFor(v, nil) }

// DecodeCaseFor is [DecodeCase] for a run of metrics: a list of calls,
// tools_called or expected_tools, that does not decode as toolgrade's (a
// call without a name), or a trajectory or expected_trajectory that is no
// trace toolgrade reads (a Mastra expectation of budgets alone), is left
// to the metrics that read it as written ([toolgrade.WrittenFields]), its
// calls empty, when one of them does and none of the others reads those
// calls or fails to say what it reads. Otherwise, as with no metrics, the
// case is the error DecodeCase makes of it.
func DecodeCaseFor(v any, metrics []toolgrade.Metric) (*toolgrade.Case, error) {
	var keys caseKeys
	return decodeCaseFor(v, metrics, &keys, nil)
}

// decodeCaseFor is DecodeCaseFor, which sums up the case's keys in keys
// as it reads them, for a check of the case to follow, and takes the
// case's block from rc when set (v is then a document rc parsed).
func decodeCaseFor(v any, metrics []toolgrade.Metric, keys *caseKeys, rc *jsonvalue.Recycler) (*toolgrade.Case, error) {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, fmt.Errorf("want a case object, got %s", sniff.Describe(v))
	}
	var r caseMembers
	*keys = readCase(&r, obj)
	if keys.ids&1 != 0 { // an unknown key
		if err := misspelledError(obj); err != nil {
			return nil, err
		}
	}
	id, err := idValue(value(r.id))
	if err != nil {
		return nil, err
	}
	trial, err := trialValue(value(r.trial))
	if err != nil {
		return nil, err
	}
	f := &r.fields
	// Ragas' user_input is the conversation of a MultiTurnSample (a list
	// of messages) but the query of a SingleTurnSample (a string).
	if t := &f[fieldTrajectory]; t.key() == "user_input" {
		if _, isList := t.val().([]any); !isList {
			if !f[fieldInput].ok() {
				f[fieldInput] = *t
			}
			*t = found{}
		}
	}
	if err := checkInput(&f[fieldInput]); err != nil {
		return nil, err
	}
	// The case and its two lists of calls share one allocation.
	nc, ne := len(listOf(&f[fieldCalled])), len(listOf(&f[fieldExpected]))
	var c *toolgrade.Case
	var buf []toolgrade.Call
	var turnRoom []toolgrade.Turn // for the turn of a transcript's user message
	c, buf, turnRoom = newCase(rc, nc+ne, f[fieldTrajectory].ok() && f[fieldTrajectory].val() != nil)
	c.Raw, c.ID, c.Trial = obj, id, trial
	c.Input, c.ActualOutput, c.ExpectedOutput = f[fieldInput].val(), f[fieldActualOutput].val(), f[fieldExpectedOutput].val()
	c.Trajectory, c.ExpectedTrajectory = f[fieldTrajectory].val(), f[fieldExpectedTrajectory].val()
	var inputs []any // the user turns of the called trajectory
	c.Called, inputs, err = calls(c, &f[fieldCalled], &f[fieldTrajectory], buf[:nc])
	if err != nil && !leftAsWritten(f[fieldCalled], f[fieldTrajectory], "tools_called", "trajectory", metrics) {
		return nil, err
	}
	c.Expected, _, err = calls(c, &f[fieldExpected], &f[fieldExpectedTrajectory], buf[nc:])
	if err != nil && !leftAsWritten(f[fieldExpected], f[fieldExpectedTrajectory], "expected_tools", "expected_trajectory", metrics) {
		return nil, err
	}
	if t := r.tools; t != nil {
		if _, err := schema.Parse(t.Value); err != nil {
			return nil, toolgrade.InField(t.Key, err)
		}
	}
	if !f[fieldExpected].ok() {
		// An expected trajectory's user messages do not pin its calls to
		// turns: it is graded as one list, as it always was.
		for i := range c.Expected {
			c.Expected[i].Turn = 0
		}
	}
	turnsKey, t := "turns", f[fieldTurns].val()
	if inv := f[fieldInvocations].val(); t == nil && inv != nil {
		// ADK's invocations are turns: read them so, for the metrics that
		// grade turn by turn (the adk profile reads them itself).
		turnsKey, t = "invocations", inv
	}
	if t != nil {
		if err := decodeTurns(c, turnsKey, t, f, inputs); err != nil {
			return nil, err
		}
	} else if err := pinnedTurns(c, inputs, turnRoom); err != nil {
		return nil, err
	}
	return c, nil
}

// listOf is the list of calls a field gives, if it gives one.
func listOf(f *found) []any {
	l, _ := f.val().([]any)
	return l
}

// The kinds of block a case is made of: the case, its calls and the turn
// of a transcript's user message (the usual transcript has one user
// message, which is one turn: a fifth of the cases of a usual run
// allocated it apart). Released by a recycler, they read as the poison
// values.
var (
	caseBlocks = jsonvalue.NewBlocks(&toolgrade.Case{ID: poisonText, Input: poisonText})
	callBlocks = jsonvalue.NewBlocks(&toolgrade.Call{Name: poisonText, Args: poisonText})
	turnBlocks = jsonvalue.NewBlocks(&toolgrade.Turn{Input: poisonText})
)

const poisonText = "\x00POISON"

var noCalls [0]toolgrade.Call

// newCase returns a new case, room for n calls and, for a transcript,
// room for a turn, taken from rc (see toolgrade.EmitKeepsNothing) when
// set: the case is then decoded from a document rc parsed, and its
// memory reused once rc releases the document. Without rc they are
// allocated as Take allocates (three allocations, where one block for
// the case and its calls, of a type for each number of calls, took one:
// the eval command, where their cost showed, takes them from its
// recyclers, and the nineteen types took 12 KB of the binary).
func newCase(rc *jsonvalue.Recycler, n int, transcript bool) (*toolgrade.Case, []toolgrade.Call, []toolgrade.Turn) {
	c, calls := &caseBlocks.Take(rc, 1)[0], noCalls[:] // empty, not nil, as make gave
	if n > 0 {
		calls = callBlocks.Take(rc, n)
	}
	if transcript {
		return c, calls, turnBlocks.Take(rc, 1)[:0]
	}
	return c, calls, nil
}

// leftAsWritten reports whether the calls of a case that do not decode,
// from list (the case field named listField) or, without it, from trace
// (traceField), are left to the metrics that read that field as written:
// one of metrics does, and none of the others reads the calls (either
// field) or fails to say what it reads.
func leftAsWritten(list, trace found, listField, traceField string, metrics []toolgrade.Metric) bool {
	key, fields := list.key(), []string{listField}
	if !list.ok() {
		key, fields = trace.key(), []string{listField, traceField}
	}
	left := false
	for _, m := range metrics {
		if slices.Contains(toolgrade.WrittenFields(m), key) {
			left = true
		} else if read := toolgrade.CaseFields(m); read == nil || slices.ContainsFunc(fields, func(f string) bool { return slices.Contains(read, f) }) {
			return false
		}
	}
	return left
}

// calls reads a list of calls from list when present (into buf when it
// has room), else extracts them from trace, adding the items the trace
// reader skipped to c's warnings.
// It also returns the trace's user turns. A trace given beside the list
// must be one (metrics such as grounding read it), and a warning says so
// when its calls are not the list's.
func calls(c *toolgrade.Case, list, tr *found, buf []toolgrade.Call) ([]toolgrade.Call, []any, error) {
	if tr.ok() && tr.val() != nil {
		return traceCalls(c, *list, *tr, buf)
	}
	if list.ok() {
		calls, err := compat.DecodeCallsIn(buf, list.val())
		if err != nil {
			return nil, nil, toolgrade.InField(list.key(), err)
		}
		return calls, nil, nil
	}
	return nil, nil, nil
}

// traceCalls is calls for a case that gives a trace: apart, so that the
// lists alone do not pay for its large frame.
func traceCalls(c *toolgrade.Case, list, tr found, buf []toolgrade.Call) ([]toolgrade.Call, []any, error) {
	t, err := trace.Extract(tr.val(), "")
	if err != nil {
		if list.ok() {
			err = fmt.Errorf("not a trace toolgrade reads (the calls graded are %s's): %w", list.key(), err)
		}
		return nil, nil, toolgrade.InField(tr.key(), err)
	}
	run, err := caseRun(c.ID, &t)
	if err != nil {
		return nil, nil, toolgrade.InField(tr.key(), err)
	}
	if list.ok() {
		calls, err := compat.DecodeCallsIn(buf, list.val())
		if err != nil {
			return nil, nil, toolgrade.InField(list.key(), err)
		}
		if !sameCalls(calls, run.Calls) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s holds other calls than %s (%d and %d): %s are graded", tr.key(), list.key(), len(run.Calls), len(calls), list.key()))
		}
		return calls, nil, nil
	}
	for _, w := range append(run.Warnings(), t.Notes...) {
		c.Warnings = append(c.Warnings, tr.key()+": "+w)
	}
	return run.Calls, run.Inputs, nil
}

// caseRun returns the run of a trace that a case with the given id
// grades: the trace itself, its one record, or, in a file of several
// records (a BFCL result file, an ADK EvalSet), the record with the
// case's id.
func caseRun(id string, t *trace.Trace) (trace.Record, error) {
	if t.Records == nil {
		return trace.Record{Calls: t.Calls, Inputs: t.Inputs, Skipped: t.Skipped}, nil // the usual: one run (see Runs)
	}
	runs := t.Runs()
	if len(runs) == 1 {
		return runs[0], nil
	}
	ids := make([]string, len(runs))
	for i, r := range runs {
		if id != "" && r.ID == id {
			return r, nil
		}
		ids[i] = r.ID
	}
	why := "the case has no id to find its record by"
	if id != "" {
		why = fmt.Sprintf("none has the case's id %q", id)
	}
	return trace.Record{}, fmt.Errorf("a %s file of %d records (ids %s), and %s: a case grades one run; give the case its record's id, or give only that record",
		t.Format, len(runs), quoteList(ids, 5), why)
}

// sameCalls reports whether two lists hold the same calls: names and
// arguments in order.
func sameCalls(a, b []toolgrade.Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Invalid != b[i].Invalid || a[i].ArgsRaw != b[i].ArgsRaw || !jsonvalue.Equal(a[i].Args, b[i].Args) {
			return false
		}
	}
	return true
}

// checkInput checks the user's input: text, or a list of content parts or
// chat messages (objects), or null. Anything else would be graded, and
// shown to a judge, as if the case had said nothing.
func checkInput(f *found) error {
	switch v := f.val().(type) {
	case nil, string:
		return nil
	case []any:
		for i, e := range v {
			if _, ok := e.(jsonvalue.Object); !ok {
				if _, ok := e.(string); !ok {
					return &toolgrade.FieldError{Path: fmt.Sprintf("%s[%d]", f.key(), i), Err: fmt.Errorf("want a content part or a message (an object), got %s", jsonvalue.Kind(e))}
				}
			}
		}
		return nil
	}
	return &toolgrade.FieldError{Path: f.key(), Err: fmt.Errorf("want the user's query: text, or a list of content parts or messages; got %s", jsonvalue.Kind(f.val()))}
}

// toolKeys are the fields under which a case gives its tools, the first
// present read (see schema.Definitions). Those a case gives must be tool
// definitions, or metrics that read them would read none.
var toolKeys = schema.CaseKeys()

// turnKeys are the fields of an entry of "turns".
var turnKeys = slices.Concat(inputKeys, actualOutputKeys, expectedOutputKeys, calledKeys, expectedKeys, trajectoryKeys, expectedTrajectories)

// decodeTurns reads a case's "turns": a list of {input, expected_tools,
// tools_called or trajectory, ...}, one per user turn. A turn's calls join
// the case's lists with their turn number. Called calls may instead come
// from the case's own trajectory, split at its user messages; then the
// turns must be as many as those messages.
func decodeTurns(c *toolgrade.Case, key string, v any, cf *[numFields]found, inputs []any) error {
	list, ok := v.([]any)
	if !ok {
		return &toolgrade.FieldError{Path: key, Err: fmt.Errorf("want a list of turns, got %s", jsonvalue.Kind(v))}
	}
	if len(list) == 0 {
		if key == "invocations" { // ADK's "not evaluated"
			c.Warnings = append(c.Warnings, "invocations is empty: there is nothing to grade (ADK reports the case as not evaluated)")
			return nil
		}
		return &toolgrade.FieldError{Path: key, Err: errors.New("no turns: give one entry per user turn, or leave it out")}
	}
	topCalled, topExpected := cf[fieldCalled].ok() || cf[fieldTrajectory].ok(), cf[fieldExpected].ok() || cf[fieldExpectedTrajectory].ok()
	c.Turns = make([]toolgrade.Turn, len(list))
	for i, e := range list {
		at := key + "[" + strconv.Itoa(i) + "]"
		obj, ok := e.(jsonvalue.Object)
		if !ok {
			return toolgrade.InField(at, fmt.Errorf("want a turn object, got %s", jsonvalue.Kind(e)))
		}
		for _, m := range obj {
			if !slices.Contains(turnKeys, m.Key) {
				return &UnknownFieldError{Field: at + "." + m.Key, Suggestion: nearestTurnKey(m.Key)}
			}
		}
		var r caseMembers // a turn's fields, found as a case's are
		readCase(&r, obj)
		f := &r.fields
		if err := checkInput(&f[fieldInput]); err != nil {
			return toolgrade.InField(at, err)
		}
		t := &c.Turns[i]
		t.Input, t.ActualOutput, t.ExpectedOutput = f[fieldInput].val(), f[fieldActualOutput].val(), f[fieldExpectedOutput].val()
		for _, side := range []struct {
			list, tr found
			top      bool
			dst      *[]toolgrade.Call
			what     string
		}{
			{f[fieldCalled], f[fieldTrajectory], topCalled, &c.Called, "called calls (tools_called or trajectory)"},
			{f[fieldExpected], f[fieldExpectedTrajectory], topExpected, &c.Expected, "expected calls (expected_tools)"},
		} {
			if !side.list.ok() && !side.tr.ok() {
				continue
			}
			if side.top {
				return toolgrade.InField(at, fmt.Errorf("%s are given both for the case and in its turns: give them in one place", side.what))
			}
			calls, _, err := calls(c, &side.list, &side.tr, nil)
			if err != nil {
				return toolgrade.InField(at, err)
			}
			for k := range calls {
				calls[k].Turn = i + 1
			}
			*side.dst = append(*side.dst, calls...)
		}
	}
	switch {
	case cf[fieldCalled].ok():
		for k := range c.Called {
			if t := c.Called[k].Turn; t == 0 || t > len(list) {
				return toolgrade.InField(fmt.Sprintf("%s[%d]", cf[fieldCalled].key(), k), fmt.Errorf(`want "turn" from 1 to %d, to say which of the case's turns the call belongs to`, len(list)))
			}
		}
	case topCalled:
		if len(inputs) != len(list) {
			return &toolgrade.FieldError{Path: key, Err: fmt.Errorf("%d %s, but the case's trajectory has %d user %s: give one turn per user message", len(list), plural(len(list), "turn", "turns"), len(inputs), plural(len(inputs), "message", "messages"))}
		}
		for i := range c.Turns {
			if c.Turns[i].Input == nil {
				c.Turns[i].Input = inputs[i]
			}
		}
	}
	return nil
}

func nearestTurnKey(k string) string {
	s, _ := suggest.Nearest(k, turnKeys)
	return s
}

// pinnedTurns gives a case without "turns" the turns of its trajectory
// (its user messages), and checks that a case whose expected calls name
// their turn ("turn": 2), to be graded turn by turn, has called calls that
// know theirs: split at the user messages of its trajectory, or numbered
// by their own "turn".
func pinnedTurns(c *toolgrade.Case, inputs []any, room []toolgrade.Turn) error {
	n := c.TurnCount()
	if n == 0 && len(inputs) == 0 {
		return nil // no call names a turn: none is pinned (c.ByTurn() is false)
	}
	if c.ByTurn() && len(c.Called) > 0 && !slices.ContainsFunc(c.Called, func(call toolgrade.Call) bool { return call.Turn > 0 }) {
		return &toolgrade.FieldError{Path: "expected_tools", Err: errors.New(`calls are pinned to turns ("turn"), but the called calls have none: give a trajectory with its user messages, "turn" on each called call, or the case's turns`)}
	}
	if m := max(n, len(inputs)); m <= cap(room) {
		c.Turns = room[:m:m]
	} else {
		c.Turns = make([]toolgrade.Turn, m)
	}
	for i, in := range inputs {
		c.Turns[i].Input = in
	}
	return nil
}

// trialValue reads the optional "trial" field, the index of a trial among the
// repeated runs of a case with the same id: a whole number from 1, or
// null (0).
func trialValue(v any) (int, error) {
	if v == nil {
		return 0, nil
	}
	n, isNum := v.(json.Number)
	f := jsonvalue.NumberFloat(n)
	if !isNum || f < 1 || f != float64(int64(f)) || f > 1e9 {
		return 0, &toolgrade.FieldError{Path: "trial", Err: fmt.Errorf("want the trial's index, a whole number from 1, got %s", jsonvalue.Append(nil, v))}
	}
	return int(f), nil
}
