// Package runner puts a model through a tool-calling dataset. For each
// case it sends the input (text, content parts or chat messages) and the
// available tools to a model over the Chat Completions API, captures the
// tool calls of the reply, and, in multi-turn mode, feeds the case's
// recorded tool outputs back until the model stops calling tools or a step
// limit is hit. Everything is recorded in a [Run], written as one line of
// a run file: the case as read, plus the model's calls as tools_called, so
// that toolgrade eval grades the run file offline, without the model.
//
// Processing errors (the model call failed after its retries, a reply that
// is not a chat completion, arguments that are not JSON, calls to tools the
// case does not offer, refusals, empty replies) are recorded with each run
// and counted by a [Tally], never dropped. A case whose model call failed,
// or that could not be read or sent, gets an error instead of calls: its
// run-file line is an error result when graded (see [Records]).
//
// A benchmark whose datasets are not cases of their own and whose answers
// are graded from its own files (BFCL's question and result files) runs
// through a [Harness], which its package implements.
//
// The runner knows nothing of HTTP: a [Model] answers request bodies.
// Package openai's Client does over any OpenAI-compatible endpoint,
// with the judge's concurrency and rate limits, retries and cache.
//
// Non-goals: grading (toolgrade eval grades a run file, offline), and
// running tools: outside a live server (Options.Server), a call is
// answered with the output the case recorded, never executed.
package runner

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/execution"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/trace"
)

// A Model answers Chat Completions requests. Implementations must be safe
// for concurrent use.
type Model interface {
	// Complete sends one request body (a JSON object) and returns the
	// response. An error means no usable response came (an HTTP error
	// after retries, a timeout).
	Complete(ctx context.Context, request []byte) (*Reply, error)
}

// A Reply is a model's response to one request.
type Reply struct {
	Body   []byte // the Chat Completions response, as sent
	Cached bool   // the response came from a cache, not the model
}

// ModelFunc adapts a function to the [Model] interface.
type ModelFunc func(ctx context.Context, request []byte) (*Reply, error)

// Complete calls f.
func (f ModelFunc) Complete(ctx context.Context, request []byte) (*Reply, error) {
	return f(ctx, request)
}

// Defaults of [Options].
const (
	DefaultMaxSteps = 10
	DefaultWorkers  = 8
)

// Options configure a [Runner].
type Options struct {
	// Model is the model name sent with every request (required).
	Model string
	// Temperature, MaxTokens (sent as max_tokens) and Seed are sent when
	// set; otherwise the endpoint's defaults apply.
	Temperature *float64
	MaxTokens   int
	Seed        *int64
	// ToolChoice, when set, is sent as tool_choice: "auto", "none",
	// "required", or the name of one tool to force.
	ToolChoice string
	// ParallelToolCalls, when set, is sent as parallel_tool_calls.
	// Unset, the endpoint's default holds (OpenAI's allows parallel
	// calls).
	ParallelToolCalls *bool
	// Protocol is "" for native tool calling (tools sent as the request's
	// tools, calls read from the reply's tool_calls), or the text protocol
	// of a model without it (trace.ProtocolHermes, ...). The tools
	// are then described in a system prompt asking for that protocol, and
	// calls are parsed out of the reply's text (see
	// [trace.ParseToolCalls]).
	Protocol trace.Protocol
	// MultiTurn feeds the case's recorded tool outputs back after each
	// reply with calls, until a reply makes no call or MaxSteps requests
	// were sent (default [DefaultMaxSteps]).
	MultiTurn bool
	MaxSteps  int
	// Tools are offered to cases that give none of their own.
	Tools []toolgrade.Tool
	// Prompt, when set, is asked first what a case sends, for datasets
	// whose entries are not cases of their own: the chat messages that
	// open its conversation, and the tools it offers (given the run's
	// Tools, for a case that names none). ok false leaves the case to
	// the runner, which sends its input and available_tools; an error
	// fails the case as a [BadCase].
	Prompt func(c *toolgrade.Case, tools []toolgrade.Tool) (msgs []any, offered []toolgrade.Tool, ok bool, err error)
	// Workers is how many cases run at once (default [DefaultWorkers], at
	// most [toolgrade.MaxWorkers]).
	Workers int

	// Server, when set, is a live tool server (an MCP server) that runs
	// the model's calls: every case is offered Tools (the server's, in
	// place of its own available_tools), each call the model makes is run
	// on the server, in a fresh session per case, and its real result is
	// fed back, turn after turn (MultiTurn is implied), until the model
	// answers or MaxSteps. Calls to tools outside AllowTools (when set) are
	// not run and are answered with an error, as are calls that fail; each
	// call is bounded by CallTimeout (default execution.DefaultCallTimeout,
	// as when the execution_success metric replays calls).
	Server      toolgrade.ToolServer
	AllowTools  []string
	CallTimeout time.Duration
}

// A Runner sends cases to a model. It is safe for concurrent use.
type Runner struct {
	model Model
	opts  Options
}

// New checks the options and returns a runner.
func New(m Model, o Options) (*Runner, error) {
	if m == nil {
		return nil, errors.New("runner: no model")
	}
	if o.Model == "" {
		return nil, errors.New("runner: no model name given")
	}
	if o.Protocol != "" {
		if _, err := trace.ParseProtocol(string(o.Protocol)); err != nil {
			return nil, fmt.Errorf("runner: %w", err)
		}
	}
	if t := o.Temperature; t != nil && (math.IsNaN(*t) || math.IsInf(*t, 0)) {
		// JSON has no such number: every request would fail to be written.
		return nil, fmt.Errorf("runner: temperature: want a finite number, got %v", *t)
	}
	if o.MaxTokens < 0 || o.MaxSteps < 0 || o.Workers < 0 {
		return nil, errors.New("runner: max tokens, max steps and workers: want positive numbers (0: the default)")
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Workers == 0 {
		o.Workers = DefaultWorkers
	}
	o.Workers = min(o.Workers, toolgrade.MaxWorkers)
	if o.Server != nil {
		o.MultiTurn = true
	}
	return &Runner{model: m, opts: o}, nil
}

// Run runs every record on a bounded pool of workers and calls emit once
// per record, in input order, from one goroutine. A record that cannot be
// read gives a run with its error and the rest goes on; a (nil, err) pair
// from records (an unreadable file) stops reading: the runs begun are
// emitted and err is returned. An error from emit stops the run and is
// returned. When ctx is done, Run stops and returns ctx's error; no run is
// emitted after that, so the cases in flight, cut short by the
// cancellation, are left out rather than recorded as failed requests.
func (r *Runner) Run(ctx context.Context, records iter.Seq2[toolgrade.Record, error], emit func(*Run) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pending := make(chan chan *Run, r.opts.Workers)
	var readErr error
	go func() {
		defer close(pending)
		slots := make(chan struct{}, r.opts.Workers)
		for rec, err := range records {
			if err != nil {
				readErr = err
				return
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			done := make(chan *Run, 1)
			pending <- done // never blocks for long: the writer drains it
			go func() {
				done <- r.Record(ctx, rec)
				<-slots
			}()
		}
	}()
	var emitErr error
	for done := range pending {
		run := <-done
		if emitErr != nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			emitErr = err // a run cut short by the cancellation is not recorded
			continue
		}
		if err := emit(run); err != nil {
			emitErr = err
			cancel()
		}
	}
	if emitErr != nil {
		return emitErr
	}
	if readErr != nil {
		return readErr
	}
	return ctx.Err()
}

// Record reads one record and runs its case. It never panics: a record
// that cannot be read, or a failure inside the runner, gives a run with
// its error.
func (r *Runner) Record(ctx context.Context, rec toolgrade.Record) (run *Run) {
	run = &Run{Model: r.opts.Model, Protocol: r.opts.Protocol}
	if t, ok := rec.(Trial); ok {
		run.Trial = t.N
		ctx = context.WithValue(ctx, trialKey{}, t.N)
		rec = t.Record
	}
	_, run.built = rec.(*toolgrade.Case)
	defer func() {
		if p := recover(); p != nil {
			run.fail(BadCase, 0, fmt.Sprintf("internal error running the case: %v\n%s", p, debug.Stack()))
		}
	}()
	c, err := rec.Decode()
	if c != nil {
		run.ID = c.ID
	}
	if err != nil {
		run.fail(BadCase, 0, err.Error())
		return run
	}
	run.Case = c
	r.run(ctx, run)
	return run
}

// A Trial is one of several runs of a record's case: [Runner.Record]
// marks its run with N, and the model sees N through [TrialOf] (so that
// a reply cache can keep each trial's reply apart).
type Trial struct {
	toolgrade.Record
	N int // from 1
}

type trialKey struct{}

// TrialOf returns the trial index a model request belongs to, or 0 when
// the case is not run as trials.
func TrialOf(ctx context.Context) int {
	n, _ := ctx.Value(trialKey{}).(int)
	return n
}

// Trials yields each record n times in a row, as Trial 1..n; with n ≤ 1 it
// yields the records unchanged.
func Trials(records iter.Seq2[toolgrade.Record, error], n int) iter.Seq2[toolgrade.Record, error] {
	if n <= 1 {
		return records
	}
	return func(yield func(toolgrade.Record, error) bool) {
		for rec, err := range records {
			if err != nil {
				yield(rec, err)
				return
			}
			for i := 1; i <= n; i++ {
				if !yield(Trial{Record: rec, N: i}, nil) {
					return
				}
			}
		}
	}
}

// Case runs one case.
func (r *Runner) Case(ctx context.Context, c *toolgrade.Case) *Run {
	return r.Record(ctx, c)
}

// A conversation is the state of one case's run.
type conversation struct {
	r       *Runner
	run     *Run
	tools   []toolgrade.Tool
	known   map[string]bool   // the tools' own names
	caller  *execution.Caller // with a Server: runs this case's calls in one session
	back    map[string]string // sent name → own name (native calling)
	sent    []any             // the messages of the next request
	outputs recorded
}

func (r *Runner) run(ctx context.Context, run *Run) {
	c := run.Case
	msgs, tools, err := r.prompt(c)
	if err != nil {
		run.fail(BadCase, 0, err.Error())
		return
	}
	if r.opts.Server != nil {
		if schema.Definitions(c) != nil {
			run.Notes = append(run.Notes, "the case's available_tools were replaced by the MCP server's tools (kept under run.replaced)")
		}
		tools = r.opts.Tools
		run.ServerTools = nonNilTools(tools)
	}
	cv := &conversation{r: r, run: run, tools: tools, known: map[string]bool{}, outputs: newRecorded(c)}
	if r.opts.Server != nil {
		cv.caller = &execution.Caller{Server: r.opts.Server, Tools: nonNilTools(tools), AllowTools: r.opts.AllowTools, CallTimeout: r.opts.CallTimeout}
		defer cv.caller.Close()
	}
	for _, t := range tools {
		cv.known[t.Name] = true
	}
	// Both grow by appending: neither may share the case's list.
	run.Trajectory = append([]any(nil), msgs...)
	cv.sent = append([]any(nil), msgs...)
	if r.opts.Protocol != "" && len(tools) > 0 {
		cv.sent = withSystem(msgs, toolPrompt(tools, r.opts.Protocol))
	}
	var toolsField []any
	if r.opts.Protocol == "" && len(tools) > 0 {
		var names []string
		names, cv.back = apiNames(tools)
		toolsField = functionTools(tools, names)
	}
	for n := 1; ; n++ {
		calls, ok := cv.step(ctx, n, toolsField)
		switch {
		case !ok:
			run.Stop = StopError
			return
		case len(calls) == 0:
			run.Stop = StopAnswered
			return
		case !r.opts.MultiTurn:
			run.Stop = StopCalled
			return
		case n >= r.opts.MaxSteps:
			run.Stop = StopMaxSteps
			run.Notes = append(run.Notes, fmt.Sprintf("stopped after %d steps: the model was still calling tools", n))
			return
		}
		cv.feed(ctx, n, calls)
	}
}

func nonNilTools(t []toolgrade.Tool) []toolgrade.Tool {
	if t == nil {
		return []toolgrade.Tool{}
	}
	return t
}

// execute runs a call on the server and returns the output to record, the
// text to feed back and how the call ended; a call that fails is answered
// with its error.
func (cv *conversation) execute(ctx context.Context, n int, c toolgrade.Call) (any, string, toolgrade.Status) {
	fail := func(msg string) (any, string, toolgrade.Status) {
		cv.run.Notes = append(cv.run.Notes, fmt.Sprintf("step %d: %s: %s", n, shorten(c.String(), 120), shorten(msg, 300)))
		return "Error: " + msg, "Error: " + msg, toolgrade.StatusError
	}
	e, text, err := cv.caller.Call(ctx, c)
	switch {
	case err != nil:
		return fail(err.Error())
	case e.Skipped != "":
		return fail(fmt.Sprintf("the tool %q may not run here (%s)", c.Name, e.Skipped))
	case e.Success:
		return e.Output, text, toolgrade.StatusOK
	case text != "": // the tool ran and reported a failure
		cv.run.Notes = append(cv.run.Notes, fmt.Sprintf("step %d: %s: the tool reported an error: %s", n, shorten(c.String(), 120), shorten(text, 300)))
		return e.Output, text, toolgrade.StatusError
	}
	return fail(e.Error)
}

// request builds the body of one request.
func (cv *conversation) request(toolsField []any) jsonvalue.Object {
	o := cv.r.opts
	req := jsonvalue.Object{{Key: "model", Value: o.Model}, {Key: "messages", Value: cv.sent}}
	if toolsField != nil {
		req = append(req, jsonvalue.Member{Key: "tools", Value: toolsField})
		switch o.ToolChoice {
		case "":
		case "auto", "none", "required":
			req = append(req, jsonvalue.Member{Key: "tool_choice", Value: o.ToolChoice})
		default:
			name := o.ToolChoice
			for sent, own := range cv.back {
				if own == o.ToolChoice {
					name = sent
				}
			}
			req = append(req, jsonvalue.Member{Key: "tool_choice", Value: jsonvalue.Object{
				{Key: "type", Value: "function"}, {Key: "function", Value: jsonvalue.Object{{Key: "name", Value: name}}}}})
		}
		if o.ParallelToolCalls != nil {
			req = append(req, jsonvalue.Member{Key: "parallel_tool_calls", Value: *o.ParallelToolCalls})
		}
	}
	if o.Temperature != nil {
		req = append(req, jsonvalue.Member{Key: "temperature", Value: jsonvalue.MustFrom(*o.Temperature)})
	}
	if o.MaxTokens > 0 {
		req = append(req, jsonvalue.Member{Key: "max_tokens", Value: jsonvalue.MustFrom(o.MaxTokens)})
	}
	if o.Seed != nil {
		req = append(req, jsonvalue.Member{Key: "seed", Value: jsonvalue.MustFrom(*o.Seed)})
	}
	return req
}

// A stepCall is a call of one reply: as the model named it, and as the
// case names it.
type stepCall struct {
	sent string // the name in the reply
	call toolgrade.Call
}

// step sends one request and reads the reply; ok is false when the run
// cannot go on.
func (cv *conversation) step(ctx context.Context, n int, toolsField []any) ([]stepCall, bool) {
	run := cv.run
	req := cv.request(toolsField)
	st := Step{Request: req}
	start := time.Now()
	rep, err := cv.r.model.Complete(ctx, jsonvalue.Append(nil, req))
	st.Latency = time.Since(start)
	run.Latency += st.Latency
	if err != nil {
		st.Error = err.Error()
		run.Steps = append(run.Steps, st)
		run.fail(ModelError, n, fmt.Sprintf("step %d: the model call failed: %v", n, err))
		return nil, false
	}
	if rep.Cached {
		st.Usage.CachedRequests = 1
	} else {
		st.Usage.Requests = 1
	}
	rp, err := readReply(rep.Body, cv.r.opts.Protocol)
	st.Response = rp.body
	st.Usage.PromptTokens, st.Usage.CompletionTokens = rp.promptTokens, rp.completionTokens
	run.Usage.Add(st.Usage)
	if err != nil {
		st.Error = err.Error()
		run.Steps = append(run.Steps, st)
		run.fail(MalformedReply, n, fmt.Sprintf("step %d: %v", n, err))
		return nil, false
	}
	run.Text = rp.text
	calls := make([]stepCall, len(rp.calls))
	for i, c := range rp.calls {
		sc := stepCall{sent: c.Name, call: c}
		if own, ok := cv.back[c.Name]; ok {
			sc.call.Name = own
		}
		if sc.call.ID == "" {
			sc.call.ID = "call_" + strconv.Itoa(n) + "_" + strconv.Itoa(i+1)
		}
		calls[i] = sc
		cv.check(n, sc.call)
		st.Calls = append(st.Calls, sc.call)
	}
	switch {
	case rp.refusal != "":
		run.problem(Refusal, n, fmt.Sprintf("step %d: the model refused: %s", n, shorten(rp.refusal, 200)))
	case len(calls) == 0 && strings.TrimSpace(rp.text) == "":
		run.problem(EmptyReply, n, fmt.Sprintf("step %d: the reply has neither text nor tool calls", n))
	}
	run.Steps = append(run.Steps, st)
	run.Trajectory = append(run.Trajectory, assistantMessage(rp, calls, false))
	if !rp.parsed {
		cv.sent = append(cv.sent, assistantMessage(rp, calls, true))
	} else {
		cv.sent = append(cv.sent, jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: rp.text}})
	}
	return calls, true
}

// check records the processing errors of one call.
func (cv *conversation) check(n int, c toolgrade.Call) {
	if c.Invalid {
		cv.run.problem(InvalidArguments, n, fmt.Sprintf("step %d: %s: the arguments are not valid JSON: %s", n, c.Name, shorten(c.ArgsRaw, 200)))
	}
	if !cv.known[c.Name] {
		offered := "the case offers no tools"
		if len(cv.tools) > 0 {
			names := make([]string, len(cv.tools))
			for i, t := range cv.tools {
				names[i] = t.Name
			}
			offered = "tools: " + shorten(strings.Join(names, ", "), 200)
		}
		cv.run.problem(UnknownTool, n, fmt.Sprintf("step %d: call to an unknown tool %q (%s)", n, c.Name, offered))
	}
	cv.run.Calls = append(cv.run.Calls, c)
}

// assistantMessage writes a reply as an assistant message: with the names
// the model used, to send back, or with the case's names, for the
// trajectory.
func assistantMessage(rp reply, calls []stepCall, sentNames bool) jsonvalue.Object {
	var content any
	if rp.text != "" {
		content = rp.text
	}
	m := jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: content}}
	if len(calls) == 0 {
		return m
	}
	tcs := make([]any, len(calls))
	for i, sc := range calls {
		name := sc.call.Name
		if sentNames {
			name = sc.sent
		}
		tcs[i] = jsonvalue.Object{
			{Key: "id", Value: sc.call.ID},
			{Key: "type", Value: "function"},
			{Key: "function", Value: jsonvalue.Object{{Key: "name", Value: name}, {Key: "arguments", Value: argsText(sc.call)}}},
		}
	}
	return append(m, jsonvalue.Member{Key: "tool_calls", Value: tcs})
}

// feed answers the calls of step n with the case's recorded outputs.
// Native calling answers with role "tool" messages; a text protocol with
// one user message holding the results in that protocol's style.
func (cv *conversation) feed(ctx context.Context, n int, calls []stepCall) {
	run := cv.run
	results := make([]string, len(calls))
	for i := range calls {
		c := &calls[i].call
		if cv.r.opts.Server != nil {
			rc := &run.Calls[len(run.Calls)-len(calls)+i]
			rc.Output, results[i], rc.Status = cv.execute(ctx, n, *c)
			run.Trajectory = append(run.Trajectory, toolMessage(c.ID, results[i]))
			continue
		}
		out, ok := cv.outputs.take(*c)
		if ok {
			results[i] = outputText(out)
			// The call in the run's list is the same call: give it the
			// output too, so that output-comparing metrics see it.
			run.Calls[len(run.Calls)-len(calls)+i].Output = out
		} else {
			results[i] = "Error: no result was recorded for this call."
			run.Notes = append(run.Notes, fmt.Sprintf("step %d: no recorded output for %s", n, shorten(c.String(), 120)))
		}
		run.Trajectory = append(run.Trajectory, toolMessage(c.ID, results[i]))
	}
	if cv.r.opts.Protocol == "" {
		for i, sc := range calls {
			cv.sent = append(cv.sent, toolMessage(sc.call.ID, results[i]))
		}
		return
	}
	var sb strings.Builder
	if cv.r.opts.Protocol != trace.ProtocolHermes {
		sb.WriteString("Function results:\n")
	}
	for i, sc := range calls {
		entry := jsonvalue.Object{{Key: "name", Value: sc.call.Name}, {Key: "content", Value: results[i]}}
		if cv.r.opts.Protocol == trace.ProtocolHermes {
			sb.WriteString("<tool_response>\n")
			sb.Write(jsonvalue.Append(nil, entry))
			sb.WriteString("\n</tool_response>\n")
		} else {
			sb.Write(jsonvalue.Append(nil, entry))
			sb.WriteByte('\n')
		}
	}
	cv.sent = append(cv.sent, userMessage(strings.TrimSuffix(sb.String(), "\n")))
}

func toolMessage(id, content string) jsonvalue.Object {
	return jsonvalue.Object{{Key: "role", Value: "tool"}, {Key: "tool_call_id", Value: id}, {Key: "content", Value: content}}
}

// outputText is a tool output as message text: a string as it is, other
// values as JSON.
func outputText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(jsonvalue.Append(nil, v))
}

// recorded holds the tool outputs a case records, in its expected calls
// and then its own calls, each to be used once.
type recorded struct {
	calls []toolgrade.Call
	used  []bool
}

func newRecorded(c *toolgrade.Case) recorded {
	var rc recorded
	for _, list := range [][]toolgrade.Call{c.Expected, c.Called} {
		for _, call := range list {
			if call.Output != nil {
				rc.calls = append(rc.calls, call)
			}
		}
	}
	rc.used = make([]bool, len(rc.calls))
	return rc
}

// take returns the output for a call: that of the first unused recorded
// call with the same tool and equal arguments, else of the first unused
// one with the same tool.
func (rc *recorded) take(c toolgrade.Call) (any, bool) {
	for _, sameArgs := range []bool{true, false} {
		for i, r := range rc.calls {
			if rc.used[i] || r.Name != c.Name {
				continue
			}
			if sameArgs && (c.Invalid || !jsonvalue.Equal(r.Args, c.Args)) {
				continue
			}
			rc.used[i] = true
			return r.Output, true
		}
	}
	return nil, false
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
