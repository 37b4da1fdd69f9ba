package toolgrade

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Result is every metric's verdict on one case. It is written as one JSON
// line (see [Result.AppendJSON]); that form is a contract other tools read.
type Result struct {
	ID      string
	Success bool // no metric failed or erred
	Metrics []MetricResult
	// Error is set when the record itself could not be read; every metric
	// then carries the same error.
	Error string
	// Err is the error behind Error, for errors.Is and errors.As, when
	// the result was made in this process (see [MetricResult.Err]).
	Err error
	// Warnings repeat the case's warnings (see [Case.Warnings]).
	Warnings []string

	// Case is the graded case, for reports that show calls side by side;
	// nil when the record could not be read. It is not written as JSON.
	Case *Case
}

// MarshalJSON writes the result contract.
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the result as one line of compact JSON, without the
// newline:
//
//	{"id":"c1","success":true,"metrics":[{"name":"tool_correctness",
//	 "profile":"default","score":0.75,"success":true,"threshold":0.5,
//	 "precision":1,"recall":0.6,"f1":0.75,"matches":[...],"missing":[2],
//	 "unexpected":[],"reason":"...","error":null}]}
//
// "warnings" (a list of strings) follows "metrics" when the case has any.
//
// score is null when the metric erred; success is null when the metric
// gives no verdict; precision, recall, f1, components, matches, missing,
// unexpected and executions appear only where the metric sets them.
func (r *Result) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonvalue.AppendString(b, r.ID)
	b = append(b, `,"success":`...)
	b = strconv.AppendBool(b, r.Success)
	b = append(b, `,"metrics":[`...)
	for i := range r.Metrics {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Metrics[i].AppendJSON(b)
	}
	b = append(b, ']')
	if len(r.Warnings) > 0 {
		b = append(b, `,"warnings":[`...)
		for i, w := range r.Warnings {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, w)
		}
		b = append(b, ']')
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = jsonvalue.AppendString(b, r.Error)
	}
	return append(b, '}')
}

// AppendJSON appends the metric result's JSON object.
func (m *MetricResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = jsonvalue.AppendString(b, m.Name)
	b = append(b, `,"profile":`...)
	b = jsonvalue.AppendString(b, m.Profile)
	b = append(b, `,"score":`...)
	if m.Error != "" {
		b = append(b, "null"...)
	} else {
		b = jsonvalue.AppendFloat(b, m.Score)
	}
	b = append(b, `,"success":`...)
	if m.Error != "" || m.Threshold == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendBool(b, m.Success)
	}
	b = append(b, `,"threshold":`...)
	if m.Threshold == nil {
		b = append(b, "null"...)
	} else {
		b = jsonvalue.AppendFloat(b, *m.Threshold)
	}
	for _, f := range []struct {
		key string
		v   *float64
	}{{"precision", m.Precision}, {"recall", m.Recall}, {"f1", m.F1}} {
		if f.v != nil {
			b = append(b, ',', '"')
			b = append(b, f.key...)
			b = append(b, '"', ':')
			b = jsonvalue.AppendFloat(b, *f.v)
		}
	}
	if len(m.Components) > 0 {
		b = append(b, `,"components":{`...)
		keys := make([]string, 0, len(m.Components))
		for k := range m.Components {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, k)
			b = append(b, ':')
			b = jsonvalue.AppendFloat(b, m.Components[k])
		}
		b = append(b, '}')
	}
	if m.Matches != nil || m.Missing != nil || m.Unexpected != nil {
		b = append(b, `,"matches":[`...)
		for i := range m.Matches {
			if i > 0 {
				b = append(b, ',')
			}
			b = m.Matches[i].appendJSON(b)
		}
		b = append(b, `],"missing":`...)
		b = appendInts(b, m.Missing)
		b = append(b, `,"unexpected":`...)
		b = appendInts(b, m.Unexpected)
	}
	if len(m.Failed) > 0 {
		b = append(b, `,"failed":`...)
		b = appendInts(b, m.Failed)
	}
	if len(m.Retried) > 0 {
		b = append(b, `,"retried":`...)
		b = appendInts(b, m.Retried)
	}
	if m.Turns != nil {
		b = append(b, `,"turns":[`...)
		for i, t := range m.Turns {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"turn":`...)
			b = strconv.AppendInt(b, int64(t.Turn), 10)
			b = append(b, `,"score":`...)
			b = jsonvalue.AppendFloat(b, t.Score)
			b = append(b, `,"success":`...)
			b = strconv.AppendBool(b, t.Success)
			b = append(b, `,"expected":`...)
			b = appendInts(b, t.Expected)
			b = append(b, `,"called":`...)
			b = appendInts(b, t.Called)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(m.Flows) > 0 {
		b = append(b, `,"flows":[`...)
		for i, f := range m.Flows {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"from":`...)
			b = strconv.AppendInt(b, int64(f.From), 10)
			b = append(b, `,"to":`...)
			b = strconv.AppendInt(b, int64(f.To), 10)
			b = append(b, `,"arg":`...)
			b = jsonvalue.AppendString(b, f.Arg)
			b = append(b, `,"ref":`...)
			b = jsonvalue.AppendString(b, f.Ref)
			b = append(b, `,"ok":`...)
			b = strconv.AppendBool(b, f.OK)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if m.Rules != nil {
		b = append(b, `,"rules":[`...)
		for i, r := range m.Rules {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"rule":`...)
			b = jsonvalue.AppendString(b, r.Rule)
			b = append(b, `,"kept":`...)
			b = strconv.AppendBool(b, r.Kept)
			b = append(b, `,"breaches":`...)
			b = appendInts(b, r.Breaches)
			if r.Reason != "" {
				b = append(b, `,"reason":`...)
				b = jsonvalue.AppendString(b, r.Reason)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if m.Diffs != nil {
		b = append(b, `,"diffs":`...)
		b = appendDiffs(b, m.Diffs)
	}
	if m.Reason != "" {
		b = append(b, `,"reason":`...)
		b = jsonvalue.AppendString(b, m.Reason)
	}
	if m.Usage != nil {
		b = append(b, `,"usage":{"prompt_tokens":`...)
		b = strconv.AppendInt(b, m.Usage.PromptTokens, 10)
		b = append(b, `,"completion_tokens":`...)
		b = strconv.AppendInt(b, m.Usage.CompletionTokens, 10)
		b = append(b, `,"requests":`...)
		b = strconv.AppendInt(b, m.Usage.Requests, 10)
		b = append(b, `,"cached_requests":`...)
		b = strconv.AppendInt(b, m.Usage.CachedRequests, 10)
		b = append(b, '}')
	}
	if m.Executions != nil {
		b = append(b, `,"executions":[`...)
		for i := range m.Executions {
			if i > 0 {
				b = append(b, ',')
			}
			b = m.Executions[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"error":`...)
	if m.Error == "" {
		b = append(b, "null"...)
	} else {
		b = jsonvalue.AppendString(b, m.Error)
	}
	return append(b, '}')
}

// appendJSON writes {"call", "name", "success", "skipped", "error",
// "output"}: success is null for a skipped call, skipped appears only for
// one, and error is null on success.
func (e *Execution) appendJSON(b []byte) []byte {
	b = append(b, `{"call":`...)
	b = strconv.AppendInt(b, int64(e.Call), 10)
	b = append(b, `,"name":`...)
	b = jsonvalue.AppendString(b, e.Name)
	b = append(b, `,"success":`...)
	if e.Skipped != "" {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendBool(b, e.Success)
	}
	if e.Skipped != "" {
		b = append(b, `,"skipped":`...)
		b = jsonvalue.AppendString(b, e.Skipped)
	}
	b = append(b, `,"error":`...)
	if e.Error == "" {
		b = append(b, "null"...)
	} else {
		b = jsonvalue.AppendString(b, e.Error)
	}
	b = append(b, `,"output":`...)
	b = jsonvalue.Append(b, e.Output)
	return append(b, '}')
}

func (m *Match) appendJSON(b []byte) []byte {
	b = append(b, `{"expected":`...)
	b = strconv.AppendInt(b, int64(m.Expected), 10)
	b = append(b, `,"called":`...)
	b = strconv.AppendInt(b, int64(m.Called), 10)
	b = append(b, `,"score":`...)
	b = jsonvalue.AppendFloat(b, m.Score)
	if len(m.Diffs) > 0 {
		b = append(b, `,"diffs":`...)
		b = appendDiffs(b, m.Diffs)
	}
	return append(b, '}')
}

// appendDiffs writes a list of {"path", "expected", "got", "note"}, note
// only when set.
func appendDiffs(b []byte, diffs []ArgDiff) []byte {
	b = append(b, '[')
	for i, d := range diffs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = jsonvalue.AppendString(b, d.Path)
		b = append(b, `,"expected":`...)
		b = jsonvalue.Append(b, d.Expected)
		b = append(b, `,"got":`...)
		b = jsonvalue.Append(b, d.Got)
		if d.Note != "" {
			b = append(b, `,"note":`...)
			b = jsonvalue.AppendString(b, d.Note)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendInts(b []byte, xs []int) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// UnmarshalJSON reads a result line written by [Result.AppendJSON].
func (r *Result) UnmarshalJSON(data []byte) error {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return err
	}
	return r.fromValue(v)
}

// ParseResult reads one result line.
func ParseResult(line []byte) (Result, error) {
	var r Result
	err := r.UnmarshalJSON(line)
	return r, err
}

// DecodeResult reads a result from its parsed JSON value, as
// [ParseResult] does from the line.
func DecodeResult(v any) (Result, error) {
	var r Result
	err := r.fromValue(v)
	return r, err
}

func (r *Result) fromValue(v any) error {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return fmt.Errorf("want a result object, got %s", jsonvalue.Kind(v))
	}
	*r = Result{}
	d := decoder{obj: obj}
	r.ID = d.str("id")
	r.Success = d.boolean("success")
	r.Error = d.str("error")
	if ws, ok := obj.Get("warnings"); ok && ws != nil {
		list, ok := ws.([]any)
		if !ok {
			return &FieldError{Path: "warnings", Err: fmt.Errorf("want a list, got %s", jsonvalue.Kind(ws))}
		}
		for i, w := range list {
			s, ok := w.(string)
			if !ok {
				return &FieldError{Path: "warnings[" + strconv.Itoa(i) + "]", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(w))}
			}
			r.Warnings = append(r.Warnings, s)
		}
	}
	if ms, ok := obj.Get("metrics"); ok && ms != nil {
		list, ok := ms.([]any)
		if !ok {
			return &FieldError{Path: "metrics", Err: fmt.Errorf("want a list, got %s", jsonvalue.Kind(ms))}
		}
		r.Metrics = make([]MetricResult, len(list))
		for i, e := range list {
			if err := r.Metrics[i].fromValue(e); err != nil {
				return InField("metrics["+strconv.Itoa(i)+"]", err)
			}
		}
	}
	return d.err
}

func (m *MetricResult) fromValue(v any) error {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return fmt.Errorf("want a metric object, got %s", jsonvalue.Kind(v))
	}
	d := decoder{obj: obj}
	*m = MetricResult{
		Name:      d.str("name"),
		Profile:   d.str("profile"),
		Score:     d.num("score"),
		Threshold: d.optNum("threshold"),
		Success:   d.boolean("success"),
		Precision: d.optNum("precision"),
		Recall:    d.optNum("recall"),
		F1:        d.optNum("f1"),
		Reason:    d.str("reason"),
		Error:     d.str("error"),
	}
	if c, ok := obj.Get("components"); ok && c != nil {
		co, ok := c.(jsonvalue.Object)
		if !ok {
			return &FieldError{Path: "components", Err: fmt.Errorf("want an object, got %s", jsonvalue.Kind(c))}
		}
		m.Components = make(map[string]float64, len(co))
		for _, mem := range co {
			if n, ok := mem.Value.(json.Number); ok {
				m.Components[mem.Key] = jsonvalue.NumberFloat(n)
			}
		}
	}
	if ms, ok := obj.Get("matches"); ok {
		list, _ := ms.([]any)
		m.Matches = make([]Match, 0, len(list))
		for _, e := range list {
			eo, _ := e.(jsonvalue.Object)
			md := decoder{obj: eo}
			match := Match{Expected: int(md.num("expected")), Called: int(md.num("called")), Score: md.num("score")}
			match.Diffs = readDiffs(eo)
			m.Matches = append(m.Matches, match)
		}
		m.Missing = d.ints("missing")
		m.Unexpected = d.ints("unexpected")
	}
	m.Failed, m.Retried = d.ints("failed"), d.ints("retried")
	m.Diffs = readDiffs(obj)
	if ts, ok := obj.Get("turns"); ok && ts != nil {
		list, _ := ts.([]any)
		m.Turns = make([]TurnScore, 0, len(list))
		for _, e := range list {
			eo, _ := e.(jsonvalue.Object)
			td := decoder{obj: eo}
			m.Turns = append(m.Turns, TurnScore{Turn: int(td.num("turn")), Score: td.num("score"), Success: td.boolean("success"),
				Expected: td.ints("expected"), Called: td.ints("called")})
		}
	}
	if fs, ok := obj.Get("flows"); ok && fs != nil {
		list, _ := fs.([]any)
		for _, e := range list {
			eo, _ := e.(jsonvalue.Object)
			fd := decoder{obj: eo}
			m.Flows = append(m.Flows, Flow{From: int(fd.num("from")), To: int(fd.num("to")), Arg: fd.str("arg"), Ref: fd.str("ref"), OK: fd.boolean("ok")})
		}
	}
	if rs, ok := obj.Get("rules"); ok && rs != nil {
		list, _ := rs.([]any)
		m.Rules = make([]RuleCheck, 0, len(list))
		for _, e := range list {
			eo, _ := e.(jsonvalue.Object)
			rd := decoder{obj: eo}
			m.Rules = append(m.Rules, RuleCheck{Rule: rd.str("rule"), Kept: rd.boolean("kept"), Breaches: rd.ints("breaches"), Reason: rd.str("reason")})
		}
	}
	if ex, ok := obj.Get("executions"); ok && ex != nil {
		list, ok := ex.([]any)
		if !ok {
			return &FieldError{Path: "executions", Err: fmt.Errorf("want a list, got %s", jsonvalue.Kind(ex))}
		}
		m.Executions = make([]Execution, 0, len(list))
		for i, e := range list {
			eo, ok := e.(jsonvalue.Object)
			if !ok {
				return &FieldError{Path: "executions[" + strconv.Itoa(i) + "]", Err: fmt.Errorf("want an object, got %s", jsonvalue.Kind(e))}
			}
			ed := decoder{obj: eo}
			out, _ := eo.Get("output")
			m.Executions = append(m.Executions, Execution{Call: int(ed.num("call")), Name: ed.str("name"),
				Success: ed.boolean("success"), Skipped: ed.str("skipped"), Error: ed.str("error"), Output: out})
			if ed.err != nil {
				return InField("executions["+strconv.Itoa(i)+"]", ed.err)
			}
		}
	}
	if u, ok := obj.Get("usage"); ok && u != nil {
		uo, _ := u.(jsonvalue.Object)
		ud := decoder{obj: uo}
		m.Usage = &Usage{
			PromptTokens:     int64(ud.num("prompt_tokens")),
			CompletionTokens: int64(ud.num("completion_tokens")),
			Requests:         int64(ud.num("requests")),
			CachedRequests:   int64(ud.num("cached_requests")),
		}
	}
	return d.err
}

// readDiffs reads the "diffs" list of obj, nil when there is none.
func readDiffs(obj jsonvalue.Object) []ArgDiff {
	v, ok := obj.Get("diffs")
	if !ok {
		return nil
	}
	dl, _ := v.([]any)
	diffs := make([]ArgDiff, 0, len(dl))
	for _, de := range dl {
		do, _ := de.(jsonvalue.Object)
		dd := decoder{obj: do}
		exp, _ := do.Get("expected")
		got, _ := do.Get("got")
		diffs = append(diffs, ArgDiff{Path: dd.str("path"), Expected: exp, Got: got, Note: dd.str("note")})
	}
	return diffs
}

// decoder reads typed fields from an object, keeping the first error.
type decoder struct {
	obj jsonvalue.Object
	err error
}

func (d *decoder) fail(key, want string, v any) {
	if d.err == nil {
		d.err = &FieldError{Path: key, Err: fmt.Errorf("want %s, got %s", want, jsonvalue.Kind(v))}
	}
}

func (d *decoder) str(key string) string {
	v, _ := d.obj.Get(key)
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	d.fail(key, "a string", v)
	return ""
}

func (d *decoder) boolean(key string) bool {
	v, _ := d.obj.Get(key)
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	}
	d.fail(key, "a boolean", v)
	return false
}

func (d *decoder) optNum(key string) *float64 {
	v, _ := d.obj.Get(key)
	switch v := v.(type) {
	case nil:
		return nil
	case json.Number:
		f := jsonvalue.NumberFloat(v)
		return &f
	}
	d.fail(key, "a number", v)
	return nil
}

func (d *decoder) num(key string) float64 {
	if p := d.optNum(key); p != nil {
		return *p
	}
	return 0
}

func (d *decoder) ints(key string) []int {
	v, _ := d.obj.Get(key)
	list, ok := v.([]any)
	if !ok {
		if v != nil {
			d.fail(key, "a list", v)
		}
		return nil
	}
	out := make([]int, 0, len(list))
	for _, e := range list {
		if n, ok := e.(json.Number); ok {
			out = append(out, int(jsonvalue.NumberFloat(n)))
		}
	}
	return out
}
