// Package execution grades tool calls by running them: the
// execution_success metric replays each call an agent made against a live
// tool server (an MCP server, through package mcp), in a fresh session
// per case, and scores the share of calls that ran without error.
//
// Running calls has effects, so it is always asked for explicitly (the
// command line's --allow-execute), can be narrowed to an allow-list of
// tools, and bounds each call with a timeout.
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
// calls scores 1 and says so. The result's Executions hold every call's
// outcome and its real output. A server that cannot be started or cannot
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
	if o.Threshold != nil {
		m.threshold = *o.Threshold
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

// Grade runs the case's calls and scores them.
func (m *Metric) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	runner := Runner{Server: m.server, OnlyValid: m.onlyValid, AllowTools: m.allow, CallTimeout: m.timeout}
	execs, err := runner.Run(ctx, c.Called)
	if err != nil {
		r.Fail(err)
		return r
	}
	r.Executions = execs
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
func Tally(execs []toolgrade.Execution) (ok, counted int) {
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
func Reason(execs []toolgrade.Execution) string {
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

// Run runs the calls in order and returns one execution per call. The
// session opens at the first call that runs and closes at the end. An
// error means the server could not list its tools or start a session.
func (rn *Runner) Run(ctx context.Context, calls []toolgrade.Call) ([]toolgrade.Execution, error) {
	execs := make([]toolgrade.Execution, len(calls))
	if len(calls) == 0 {
		return execs, nil
	}
	tools, err := rn.Server.Tools(ctx)
	if err != nil {
		return nil, err
	}
	timeout := rn.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	var session toolgrade.ToolSession
	defer func() {
		if session != nil {
			session.Close()
		}
	}()
	for i, call := range calls {
		e := &execs[i]
		e.Call, e.Name = i, call.Name
		if rn.AllowTools != nil && !slices.Contains(rn.AllowTools, call.Name) {
			e.Skipped = "not on the allow-list"
			continue
		}
		if !slices.ContainsFunc(tools, func(t toolgrade.Tool) bool { return t.Name == call.Name }) {
			e.Error = fmt.Sprintf("%s %q on the server", NoSuchTool, call.Name)
			continue
		}
		if call.Invalid {
			e.Error = "not run: " + schema.InvalidJSON
			continue
		}
		if rn.OnlyValid {
			checks, err := schema.Check(tools, []toolgrade.Call{call})
			if err != nil {
				e.Error = "not run: " + err.Error()
				continue
			}
			if checks[0].Problem != "" {
				e.Error = "not run: " + checkText(checks[0])
				continue
			}
		}
		if session == nil {
			if session, err = rn.Server.Session(ctx); err != nil {
				return nil, err
			}
		}
		callCtx, cancel := context.WithTimeout(ctx, timeout)
		res, err := session.Call(callCtx, call.Name, call.Args)
		cancel()
		switch {
		case err != nil:
			e.Error = err.Error()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		case res.IsError:
			e.Output = res.Output
			e.Error = res.Text
			if e.Error == "" {
				e.Error = "the tool reported an error"
			}
		default:
			e.Success, e.Output = true, res.Output
		}
	}
	return execs, nil
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
