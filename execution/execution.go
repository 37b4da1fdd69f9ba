// Package execution grades tool calls by running them: the
// execution_success metric replays each call an agent made against a live
// tool server (an MCP server, through package mcp), in a fresh session
// per case, and scores the share of calls that ran without error.
//
// Running calls has effects, so it is always asked for explicitly (the
// command line's --allow-execute), can be narrowed to an allow-list of
// tools, and bounds each call with a timeout.
//
// Non-goals: judging what a call returned (a call that ran without error
// succeeds, whatever its output), and undoing a call's effects: point it
// at a server whose effects are safe to have.
package execution

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/schema"
)

// DefaultCallTimeout bounds each call unless [Options.CallTimeout] says
// otherwise.
const DefaultCallTimeout = 30 * time.Second

// Options configure the execution_success metric. The JSON names are the
// keys of a metric entry with metric: execution_success.
type Options struct {
	// Threshold is the pass mark (default 1: every call must run
	// without error).
	Threshold *float64 `json:"threshold,omitempty"`
	// OnlyValid runs only the calls whose arguments fit the server's
	// schema for the tool (see [schema.Check]); the others are not run and
	// count as failed, with the schema's complaint as their error.
	OnlyValid bool `json:"only_valid,omitempty"`
	// AllowTools, when set, lists the only tools that may run; calls to
	// other tools are skipped and do not count.
	AllowTools []string `json:"allow_tools,omitempty"`
	// CallTimeout bounds each call, as a Go duration ("30s", the
	// default).
	CallTimeout string `json:"call_timeout,omitempty"`

	// Server runs the calls (required).
	Server toolgrade.ToolServer `json:"-"`
}

// Metric is the execution_success metric.
//
// For each call the agent made, in order, in one session per case:
//
//   - a call to a tool outside AllowTools is skipped and does not count;
//   - a call to a tool the server does not list fails with "no such tool";
//   - a call whose arguments are not JSON fails without being run, as
//     does, with OnlyValid, a call whose arguments break the tool's
//     schema;
//   - any other call runs; it succeeds when a result comes back that the
//     tool did not mark as an error (MCP isError). A protocol error, a
//     crash or a timeout fails it, with the server's message.
//
// Score = calls that succeeded / calls that count; a case without such
// calls scores 1 and says so. The result's [Outcomes] detail holds every
// call's outcome and its real output. A server that cannot be started or cannot
// list its tools makes the result an error: the fault is not the agent's.
type Metric struct {
	threshold float64
	onlyValid bool
	allow     []string
	timeout   time.Duration
	server    toolgrade.ToolServer
}

// New checks the options and returns the metric.
func New(o Options) (*Metric, error) {
	if o.Server == nil {
		return nil, errors.New("no tool server to run the calls on (name an MCP server with --mcp, or tools: mcp:...)")
	}
	m := &Metric{threshold: 1, onlyValid: o.OnlyValid, allow: o.AllowTools, timeout: DefaultCallTimeout, server: o.Server}
	var err error
	if m.threshold, err = toolgrade.Threshold(o.Threshold, 1); err != nil {
		return nil, err
	}
	if o.CallTimeout != "" {
		d, err := time.ParseDuration(o.CallTimeout)
		if err != nil || d <= 0 {
			return nil, &toolgrade.OptionError{Option: "call_timeout", Value: o.CallTimeout, Err: fmt.Errorf("want a positive duration such as 30s, got %q", o.CallTimeout)}
		}
		m.timeout = d
	}
	return m, nil
}

// Name returns "execution_success".
func (m *Metric) Name() string { return "execution_success" }

// Profile returns "default".
func (m *Metric) Profile() string { return "default" }

// CaseFields returns the fields the metric reads: the calls it runs.
func (m *Metric) CaseFields() []string { return []string{"tools_called"} }

// Grade runs the case's calls and scores them.
func (m *Metric) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	runner := Runner{Server: m.server, OnlyValid: m.onlyValid, AllowTools: m.allow, CallTimeout: m.timeout}
	execs, err := runner.Run(ctx, c.Called)
	if err != nil {
		r.Fail(err)
		return r
	}
	r.SetDetail(execs)
	ok, counted := Tally(execs)
	r.Score = 1
	if counted > 0 {
		r.Score = float64(ok) / float64(counted)
	}
	r.Success = r.Score >= m.threshold
	r.Reason = Reason(execs)
	return r
}

// Tally counts the calls that succeeded and the calls that count (not
// skipped).
func Tally(execs Outcomes) (ok, counted int) {
	for _, e := range execs {
		if e.Skipped != "" {
			continue
		}
		counted++
		if e.Success {
			ok++
		}
	}
	return ok, counted
}

// Reason sums up executions: "2 of 3 calls ran without error; call 1
// get-sum: ..."; "no calls to run" when none counts.
func Reason(execs Outcomes) string {
	ok, counted := Tally(execs)
	var b strings.Builder
	if counted == 0 {
		b.WriteString("no calls to run")
	} else {
		fmt.Fprintf(&b, "%d of %d calls ran without error", ok, counted)
	}
	for _, e := range execs {
		switch {
		case e.Skipped != "":
			fmt.Fprintf(&b, "; call %d %s: skipped: %s", e.Call, e.Name, e.Skipped)
		case !e.Success:
			fmt.Fprintf(&b, "; call %d %s: %s", e.Call, e.Name, shorten(e.Error, 300))
		}
	}
	return b.String()
}

// A Runner runs a list of calls in one fresh session, for the
// execution_success metric and for profiles that execute calls
// (DeepFabric's execution: mcp).
type Runner struct {
	Server      toolgrade.ToolServer
	OnlyValid   bool
	AllowTools  []string
	CallTimeout time.Duration // 0: DefaultCallTimeout
}

// NoSuchTool starts the error of a call to a tool the server does not
// list.
const NoSuchTool = "no such tool"

// Run runs the calls in order and returns one outcome per call. The
// session opens at the first call that runs and closes at the end. An
// error means the server could not list its tools or start a session.
func (rn *Runner) Run(ctx context.Context, calls []toolgrade.Call) (Outcomes, error) {
	execs := make(Outcomes, len(calls))
	caller := Caller{Server: rn.Server, OnlyValid: rn.OnlyValid, AllowTools: rn.AllowTools, CallTimeout: rn.CallTimeout}
	defer caller.Close()
	for i, call := range calls {
		e, _, err := caller.Call(ctx, call)
		if err != nil {
			return nil, err
		}
		e.Call = i
		execs[i] = e
	}
	return execs, nil
}

// A Caller runs calls one at a time in one session of a tool server,
// opened at the first call that runs: the Runner's replays, and toolgrade
// run's calls between the model's steps. The checks are the Runner's: a
// tool off the allow-list is skipped; a tool the server does not list, or
// arguments that are not JSON (or, with OnlyValid, that break the
// schema), fail without running. Close it when done.
type Caller struct {
	Server toolgrade.ToolServer
	// Tools are the server's tools when already listed; nil lists them
	// at the first call.
	Tools       []toolgrade.Tool
	OnlyValid   bool
	AllowTools  []string
	CallTimeout time.Duration // 0: DefaultCallTimeout

	listed  bool
	session toolgrade.ToolSession
}

// Call runs one call. Besides its outcome it returns the result as a
// model reads it (the tool's text, also for a failure it reported) when
// the call ran. An error means the server could not list its tools or
// open a session, or ctx ended.
func (cl *Caller) Call(ctx context.Context, call toolgrade.Call) (Outcome, string, error) {
	e := Outcome{Name: call.Name}
	if cl.AllowTools != nil && !slices.Contains(cl.AllowTools, call.Name) {
		e.Skipped = "not on the allow-list"
		return e, "", nil
	}
	if cl.Tools == nil && !cl.listed {
		tools, err := cl.Server.Tools(ctx)
		if err != nil {
			return e, "", err
		}
		cl.Tools, cl.listed = tools, true
	}
	if !slices.ContainsFunc(cl.Tools, func(t toolgrade.Tool) bool { return t.Name == call.Name }) {
		e.Error = fmt.Sprintf("%s %q on the server", NoSuchTool, call.Name)
		return e, "", nil
	}
	if call.Invalid {
		e.Error = "not run: " + schema.InvalidJSON
		return e, "", nil
	}
	if cl.OnlyValid {
		checks, err := schema.Check(cl.Tools, []toolgrade.Call{call})
		if err != nil {
			e.Error = "not run: " + err.Error()
			return e, "", nil
		}
		if checks[0].Problem != "" {
			e.Error = "not run: " + checkText(checks[0])
			return e, "", nil
		}
	}
	if cl.session == nil {
		s, err := cl.Server.Session(ctx)
		if err != nil {
			return e, "", err
		}
		cl.session = s
	}
	timeout := cl.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	res, err := cl.session.Call(callCtx, call.Name, call.Args)
	cancel()
	switch {
	case err != nil:
		if ctx.Err() != nil {
			return e, "", ctx.Err()
		}
		e.Error = err.Error()
		return e, "", nil
	case res.IsError:
		e.Output, e.Error = res.Output, res.Text
		if e.Error == "" {
			e.Error = "the tool reported an error"
		}
	default:
		e.Success, e.Output = true, res.Output
	}
	return e, res.Text, nil
}

// Close ends the session, if one was opened.
func (cl *Caller) Close() error {
	if cl.session == nil {
		return nil
	}
	err := cl.session.Close()
	cl.session = nil
	return err
}

// checkText writes a schema check's verdict on one call.
func checkText(c schema.CallCheck) string {
	if len(c.Violations) == 0 {
		return c.Problem
	}
	parts := make([]string, len(c.Violations))
	for i, v := range c.Violations {
		parts[i] = v.String()
	}
	return c.Problem + ": " + strings.Join(parts, "; ")
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..." + " (" + strconv.Itoa(len(s)) + " bytes)"
}
