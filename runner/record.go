package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/trace"
)

// A ProblemKind says what kind of processing error a [Problem] is.
type ProblemKind string

// The kinds of processing error.
const (
	// BadCase: the case could not be read, or has nothing to send.
	BadCase ProblemKind = "bad_case"
	// ModelError: no usable response: an HTTP error after retries, a
	// timeout, a reply that is not a chat completion.
	ModelError ProblemKind = "model_error"
	// MalformedReply: a chat completion whose tool calls cannot be read.
	MalformedReply ProblemKind = "malformed_reply"
	// InvalidArguments: a call whose arguments are not valid JSON (or, for
	// a text protocol, a call that does not parse).
	InvalidArguments ProblemKind = "invalid_arguments"
	// UnknownTool: a call to a tool the case does not offer.
	UnknownTool ProblemKind = "unknown_tool"
	// Refusal: the reply carries a refusal.
	Refusal ProblemKind = "refusal"
	// EmptyReply: the reply has neither text nor tool calls.
	EmptyReply ProblemKind = "empty_reply"
)

// A StopReason says why a run ended.
type StopReason string

// Why a run ended.
const (
	StopAnswered StopReason = "answered"  // a reply without calls
	StopCalled   StopReason = "called"    // single-turn: the reply made calls
	StopMaxSteps StopReason = "max_steps" // multi-turn: the step limit was hit
	StopError    StopReason = "error"     // the case could not be run to its end
)

// A Run is one case put through the model: what was sent, what came back,
// the calls found, and what went wrong.
type Run struct {
	ID       string
	Case     *toolgrade.Case // the case as read; nil when it could not be
	Model    string
	Protocol trace.Protocol // "" for native tool calling

	Steps []Step
	// Calls are the calls of every step, in order, named as the case
	// names its tools, each with the output fed back to the model, if
	// any.
	Calls []toolgrade.Call
	// Text is the last reply's text: the model's final answer.
	Text string
	// Trajectory is the conversation in the Chat Completions message
	// form: the input messages, then each reply (its calls in
	// tool_calls, named as the case names its tools) and the tool
	// results fed back. A text protocol's calls appear as tool_calls
	// too; what was really sent is in Steps.
	Trajectory []any

	Usage   toolgrade.Usage // tokens the replies report, requests sent and cached
	Latency time.Duration   // the time spent waiting for replies
	Stop    StopReason      // why the run ended (StopAnswered, ...)

	// Problems are the processing errors, in order.
	Problems []Problem
	// Notes say what else is worth knowing: a call without a recorded
	// output, a step limit reached.
	Notes []string
	// Error is set when the case could not be run to its end; it is then
	// graded as an error, not by its calls.
	Error string
	// ServerTools are the tools a live tool server offered (see
	// Options.Server); the run file holds them as available_tools, in
	// the MCP shape, so that it grades offline against them.
	ServerTools []toolgrade.Tool
	// Trial is the trial's index (from 1) when the case is run several
	// times (see [Trial]); 0 otherwise. The run file writes it as "trial".
	Trial int

	// built: Case was built in code, not read, so its Raw holds only
	// the fields no other field of the case holds.
	built bool
}

// A Step is one request and its response.
type Step struct {
	Request  jsonvalue.Object // the request body
	Response any              // the response; nil when none came
	Latency  time.Duration
	Usage    toolgrade.Usage
	Calls    []toolgrade.Call // the reply's calls, named as the case names its tools
	Error    string
}

// A Problem is one processing error.
type Problem struct {
	Kind    ProblemKind // BadCase, ModelError, ...
	Step    int         // the step (from 1); 0 for the case itself
	Message string
}

func (r *Run) problem(kind ProblemKind, step int, msg string) {
	r.Problems = append(r.Problems, Problem{Kind: kind, Step: step, Message: msg})
}

// fail records a problem that ends the run.
func (r *Run) fail(kind ProblemKind, step int, msg string) {
	r.problem(kind, step, msg)
	r.Error = msg
	r.Stop = StopError
}

// replacedKeys are the case fields a run line writes anew: the calls, the
// final answer and the trajectory (with the aliases package dataset reads),
// and an earlier run. The values they had are kept under run.replaced.
var replacedKeys = []string{
	"tools_called", "toolsCalled",
	"actual_output", "generated_response", "actual_response",
	"trajectory", "agent_trajectory",
	"run",
}

// AppendJSON appends the run's line of a run file, without the newline:
// the case's own fields as read, then
//
//   - "tools_called": the calls, {"name", "args", "id", "output",
//     "status"}, with arguments that are not JSON kept as their text
//     (read back as invalid calls) and "status": "error" on a call that
//     failed when run on a live server;
//   - "actual_output": the last reply's text, or null;
//   - "trajectory": the conversation (see [Run.Trajectory]);
//   - "run": {"model", "protocol", "stop", "latency_ms", "usage",
//     "steps": [{"request", "response", "latency_ms", "usage", "calls",
//     "error"}], "processing_errors": [{"kind", "step", "message"}],
//     "notes", "error", "replaced"}.
//
// The line is a case that toolgrade eval grades as the run did: an "id" is
// added when the case had none, and the case's own calls, answer and
// trajectory move to run.replaced. A run whose case could not be read is
// {"id", "run"}.
func (r *Run) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonvalue.AppendString(b, k)
		b = append(b, ':')
	}
	var raw, replaced jsonvalue.Object
	if r.Case != nil {
		raw = caseObject(r.Case, r.built)
	}
	if id, _ := raw.Get("id"); id == nil {
		key("id")
		b = jsonvalue.AppendString(b, r.ID)
	}
	for _, m := range raw {
		if slices.Contains(replacedKeys, m.Key) || (r.ServerTools != nil && m.Key == "available_tools") {
			replaced = append(replaced, m)
			continue
		}
		if m.Key == "id" && m.Value == nil || m.Key == "trial" && r.Trial > 0 {
			continue
		}
		key(m.Key)
		b = jsonvalue.Append(b, m.Value)
	}
	if r.Trial > 0 {
		key("trial")
		b = strconv.AppendInt(b, int64(r.Trial), 10)
	}
	if r.Case != nil && r.ServerTools != nil {
		key("available_tools")
		tools, _ := schema.Write(r.ServerTools, schema.ShapeMCP)
		b = jsonvalue.Append(b, tools)
	}
	if r.Case != nil {
		key("tools_called")
		b = appendCalls(b, r.Calls)
		key("actual_output")
		if r.Text == "" {
			b = append(b, "null"...)
		} else {
			b = jsonvalue.AppendString(b, r.Text)
		}
		key("trajectory")
		b = jsonvalue.Append(b, nonNil(r.Trajectory))
	}
	key("run")
	return append(r.appendRun(b, replaced), '}')
}

// caseObject is the case as read. A case built in code, which was not
// read, is written with its id, trial, input and expected output, the
// fields of its Raw (tools, process rules, states, ...), then its
// expected trajectory and calls.
func caseObject(c *toolgrade.Case, built bool) jsonvalue.Object {
	if c.Raw != nil && !built {
		return c.Raw
	}
	o := jsonvalue.Object{{Key: "id", Value: c.ID}}
	add := func(key string, v any) {
		if v != nil {
			o = append(o, jsonvalue.Member{Key: key, Value: v})
		}
	}
	if c.Trial > 0 {
		add("trial", json.Number(strconv.Itoa(c.Trial)))
	}
	add("input", c.Input)
	add("expected_output", c.ExpectedOutput)
	for _, m := range c.Raw {
		if !slices.Contains(builtKeys, m.Key) {
			o = append(o, m)
		}
	}
	add("expected_trajectory", c.ExpectedTrajectory)
	if c.Expected != nil {
		calls, _ := jsonvalue.Parse(appendCalls(nil, c.Expected))
		add("expected_tools", calls)
	}
	return o
}

// builtKeys are the fields caseObject writes from a built case's own
// fields; its Raw does not give them.
var builtKeys = []string{"id", "trial", "input", "expected_output", "expected_trajectory", "expected_tools"}

func nonNil(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

func (r *Run) appendRun(b []byte, replaced jsonvalue.Object) []byte {
	b = append(b, `{"model":`...)
	b = jsonvalue.AppendString(b, r.Model)
	b = append(b, `,"protocol":`...)
	if r.Protocol == "" {
		b = append(b, `"native"`...)
	} else {
		b = jsonvalue.AppendString(b, string(r.Protocol))
	}
	b = append(b, `,"stop":`...)
	b = jsonvalue.AppendString(b, string(r.Stop))
	b = append(b, `,"latency_ms":`...)
	b = appendMillis(b, r.Latency)
	b = append(b, `,"usage":`...)
	b = appendUsage(b, r.Usage)
	b = append(b, `,"steps":[`...)
	for i, st := range r.Steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"request":`...)
		b = jsonvalue.Append(b, st.Request)
		b = append(b, `,"response":`...)
		b = jsonvalue.Append(b, st.Response)
		b = append(b, `,"latency_ms":`...)
		b = appendMillis(b, st.Latency)
		b = append(b, `,"usage":`...)
		b = appendUsage(b, st.Usage)
		b = append(b, `,"calls":`...)
		b = appendCalls(b, st.Calls)
		if st.Error != "" {
			b = append(b, `,"error":`...)
			b = jsonvalue.AppendString(b, st.Error)
		}
		b = append(b, '}')
	}
	b = append(b, `],"processing_errors":[`...)
	for i, p := range r.Problems {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"kind":`...)
		b = jsonvalue.AppendString(b, string(p.Kind))
		b = append(b, `,"step":`...)
		b = strconv.AppendInt(b, int64(p.Step), 10)
		b = append(b, `,"message":`...)
		b = jsonvalue.AppendString(b, p.Message)
		b = append(b, '}')
	}
	b = append(b, ']')
	if len(r.Notes) > 0 {
		b = jsonvalue.AppendStrings(append(b, `,"notes":`...), r.Notes)
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = jsonvalue.AppendString(b, r.Error)
	}
	if len(replaced) > 0 {
		b = append(b, `,"replaced":`...)
		b = jsonvalue.Append(b, replaced)
	}
	return append(b, '}')
}

// appendCalls writes calls in the case format. Arguments that did not
// parse are written as their text, and arguments that are a JSON string
// as JSON text, so that reading them back (a string is parsed as JSON
// text) gives the same call.
func appendCalls(b []byte, calls []toolgrade.Call) []byte {
	b = append(b, '[')
	for i, c := range calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = jsonvalue.AppendString(b, c.Name)
		switch a := c.Args.(type) {
		case nil:
			if c.Invalid {
				b = append(b, `,"args":`...)
				b = jsonvalue.AppendString(b, c.ArgsRaw)
			}
		case string:
			b = append(b, `,"args":`...)
			b = jsonvalue.AppendString(b, string(jsonvalue.AppendString(nil, a)))
		default:
			b = append(b, `,"args":`...)
			b = jsonvalue.Append(b, a)
		}
		if c.ID != "" {
			b = append(b, `,"id":`...)
			b = jsonvalue.AppendString(b, c.ID)
		}
		if c.Output != nil {
			b = append(b, `,"output":`...)
			b = jsonvalue.Append(b, c.Output)
		}
		if c.Failed() {
			b = append(b, `,"status":"error"`...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendUsage(b []byte, u toolgrade.Usage) []byte {
	b = append(b, `{"prompt_tokens":`...)
	b = strconv.AppendInt(b, u.PromptTokens, 10)
	b = append(b, `,"completion_tokens":`...)
	b = strconv.AppendInt(b, u.CompletionTokens, 10)
	b = append(b, `,"requests":`...)
	b = strconv.AppendInt(b, u.Requests, 10)
	b = append(b, `,"cached_requests":`...)
	b = strconv.AppendInt(b, u.CachedRequests, 10)
	return append(b, '}')
}

func appendMillis(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', -1, 64)
}

// RunError returns the error a run-file line records for its case (its
// run.error), or "" when the case ran, or is no run-file line.
func RunError(c *toolgrade.Case) string {
	run, _ := c.Raw.Get("run")
	msg, _ := get(run, "error").(string)
	return msg
}

// CheckRun returns the error a run-file line records for its case (see
// [RunError]), or nil, so that a case that was an error result when it
// ran is one again when its run file is graded offline: given to
// [toolgrade.CheckCases], it makes every such case of a run an error
// result. Other cases pass unchanged.
func CheckRun(c *toolgrade.Case) error {
	if msg := RunError(c); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// A Tally counts a run's cases, processing errors and model usage, for
// its summary.
type Tally struct {
	Cases int
	// WithErrors counts the cases with at least one processing error;
	// Kinds counts cases by each kind of processing error they had.
	WithErrors int
	Kinds      map[ProblemKind]int
	Steps      int
	// Failed counts the requests that got no reply (an HTTP error after
	// the retries, a timeout), which Usage does not count.
	Failed  int
	Usage   toolgrade.Usage
	Latency time.Duration
}

// Add counts one run.
func (t *Tally) Add(r *Run) {
	t.Cases++
	t.Steps += len(r.Steps)
	for _, st := range r.Steps {
		if st.Error != "" && st.Usage.Requests == 0 && st.Usage.CachedRequests == 0 {
			t.Failed++
		}
	}
	t.Usage.Add(r.Usage)
	t.Latency += r.Latency
	if len(r.Problems) == 0 {
		return
	}
	t.WithErrors++
	if t.Kinds == nil {
		t.Kinds = map[ProblemKind]int{}
	}
	seen := map[ProblemKind]bool{}
	for _, p := range r.Problems {
		if !seen[p.Kind] {
			seen[p.Kind] = true
			t.Kinds[p.Kind]++
		}
	}
}

// ErrorRate is the share of cases with a processing error.
func (t *Tally) ErrorRate() float64 {
	if t.Cases == 0 {
		return 0
	}
	return float64(t.WithErrors) / float64(t.Cases)
}

// WriteText writes the tally as two lines:
//
//	model: 10 cases, 14 requests (4 from the cache, 2 failed), 5210 prompt + 318 completion tokens, 1.20s waiting per case
//	processing errors: 3 of 10 cases (30.0%): 1 invalid_arguments, 2 model_error
//
// The requests are those sent, answered or failed; those the cache
// answered are counted apart.
func (t *Tally) WriteText(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "model: %d cases, %d requests", t.Cases, t.Usage.Requests+int64(t.Failed))
	var notes []string
	if t.Usage.CachedRequests > 0 {
		notes = append(notes, fmt.Sprintf("%d from the cache", t.Usage.CachedRequests))
	}
	if t.Failed > 0 {
		notes = append(notes, fmt.Sprintf("%d failed", t.Failed))
	}
	if len(notes) > 0 {
		fmt.Fprintf(&sb, " (%s)", strings.Join(notes, ", "))
	}
	fmt.Fprintf(&sb, ", %d prompt + %d completion tokens", t.Usage.PromptTokens, t.Usage.CompletionTokens)
	if t.Cases > 0 {
		fmt.Fprintf(&sb, ", %.2fs waiting per case", t.Latency.Seconds()/float64(t.Cases))
	}
	fmt.Fprintf(&sb, "\nprocessing errors: %d of %d cases (%.1f%%)", t.WithErrors, t.Cases, 100*t.ErrorRate())
	for i, k := range slices.Sorted(maps.Keys(t.Kinds)) {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&sb, "%s%d %s", sep, t.Kinds[k], k)
	}
	sb.WriteByte('\n')
	_, err := io.WriteString(w, sb.String())
	return err
}
